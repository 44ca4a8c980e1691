"""The store's files when the root runner and the unprivileged API share them."""

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

from c10klab.runs.schemas import RunRequest
from c10klab.runs.store import RunStore
from c10klab.runs.tables import runs

NOBODY = 65534
COUNT = select(func.count()).select_from(runs)


@pytest.fixture
def umask() -> Iterator[None]:
    """share_with_folder_owner sets the process's umask: the other tests keep theirs."""
    kept = os.umask(0o022)
    os.umask(kept)
    yield
    os.umask(kept)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root makes files for another user")
@pytest.mark.usefixtures("umask")
def test_a_store_root_opens_stays_writable_for_its_folders_owner(tmp_path: Path) -> None:
    folder = tmp_path / "store"
    folder.mkdir()
    os.chown(folder, NOBODY, NOBODY)  # the API's folder, as the supervisor hands it over
    store = RunStore(folder / "s.sqlite3")
    assert folder.stat().st_mode & stat.S_ISGID  # new files take the folder's group
    for path in folder.iterdir():
        info = path.stat()
        assert (info.st_uid, info.st_gid) == (NOBODY, NOBODY), path
        assert info.st_mode & stat.S_IWGRP, path
    # A file root makes there later (SQLite's -wal after the last connection closed) is the
    # API's group's, with the database file's mode, from its first moment.
    store.create_run(RunRequest(server="c-epoll"))
    fresh = os.open(folder / "made-by-root", os.O_CREAT | os.O_WRONLY, 0o664)
    try:
        info = os.fstat(fresh)  # before anything could chmod it
    finally:
        os.close(fresh)
    assert info.st_gid == NOBODY
    assert info.st_mode & stat.S_IWGRP, "the umask took the group's write bit"


def test_reads_in_one_read_see_one_moment(store: RunStore) -> None:
    store.create_run(RunRequest(server="c-epoll"))
    with store.read() as db:
        before = db.execute(COUNT).scalar_one()
        store.create_run(
            RunRequest(server="c-epoll")
        )  # another connection writes meanwhile, unhindered
        assert db.execute(COUNT).scalar_one() == before
    with store.read() as db:
        assert db.execute(COUNT).scalar_one() == before + 1


def test_first_row_and_rows_read_what_a_query_finds(store: RunStore) -> None:
    first, _ = store.create_run(RunRequest(server="c-epoll"))
    second, _ = store.create_run(RunRequest(server="c-poll"))
    found = store.first_row(select(runs.c.server).where(runs.c.id == second.id))
    assert found is not None and found.server == "c-poll"
    assert store.first_row(select(runs).where(runs.c.id == "no-such-run")) is None
    listed = store.rows(select(runs.c.id).order_by(runs.c.queue_seq))
    assert [row.id for row in listed] == [first.id, second.id]
