"""The store's files when the root runner and the unprivileged API share them."""

import os
import stat
from pathlib import Path

import pytest

from c10klab.store import Store

NOBODY = 65534


@pytest.mark.skipif(os.geteuid() != 0, reason="only root makes files for another user")
def test_a_store_root_opens_stays_writable_for_its_folders_owner(tmp_path: Path) -> None:
    folder = tmp_path / "store"
    folder.mkdir()
    os.chown(folder, NOBODY, NOBODY)  # the API's folder, as the supervisor hands it over
    store = Store(folder / "s.sqlite3")
    assert folder.stat().st_mode & stat.S_ISGID  # new files take the folder's group
    for path in folder.iterdir():
        info = path.stat()
        assert (info.st_uid, info.st_gid) == (NOBODY, NOBODY), path
        assert info.st_mode & stat.S_IWGRP, path
    # A file root makes there later (SQLite's -wal after the last connection closed) is the
    # API's group's, with the database file's mode, from its first moment.
    store.create_run("c-epoll", {})
    fresh = folder / "made-by-root"
    fresh.touch()
    assert fresh.stat().st_gid == NOBODY
