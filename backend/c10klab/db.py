"""The SQLite file every domain keeps its tables in, and the two ways to use it.

The API and the runner are separate processes that open the same file (WAL mode, so readers
never block the writer). Each operation takes a short-lived connection: safe across threads and
processes. A write takes the lock up front (BEGIN IMMEDIATE), so concurrent writers queue
instead of failing, and whatever is checked inside one write holds when it commits: that is what
makes admission atomic. Reads that must agree with each other share one read transaction.
"""

import os
import sqlite3
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar

# How long a writer waits for the lock before SQLite gives up.
LOCK_TIMEOUT_S = 15


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def unix_now() -> float:
    return time.time()


class Database:
    """One SQLite file. Domains subclass it with their own tables (`SCHEMA`) and the columns
    later versions added to them (`ADDED_COLUMNS`), so a file made by an older version of the
    course upgrades in place when it is opened."""

    SCHEMA = ""
    # Indexes, created after the added columns they may name exist.
    INDEXES = ""
    # table -> [(column, its SQL definition)], added where a file lacks them
    ADDED_COLUMNS: ClassVar[dict[str, list[tuple[str, str]]]] = {}

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        with self.connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(self.SCHEMA)
        self._add_missing_columns()
        with self.connect() as db:
            db.executescript(self.INDEXES)
        if os.geteuid() == 0:  # the runner (or the supervisor): see share_with_folder_owner
            share_with_folder_owner(self.path)

    def _add_missing_columns(self) -> None:
        with self.write() as db:
            for table, columns in self.ADDED_COLUMNS.items():
                have = {row["name"] for row in db.execute(f"PRAGMA table_info({table})")}
                for name, definition in columns:
                    if name not in have:
                        db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {definition}")

    @contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=LOCK_TIMEOUT_S, isolation_level=None)
        db.row_factory = sqlite3.Row
        try:
            yield db
        finally:
            db.close()

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """Several reads that see one moment of the store. Outside a transaction each
        statement sees the store as it is when it runs, so a run queued between two of them
        is in the second answer and not the first. In WAL mode the snapshot is taken at the
        first read, and writers are not held up meanwhile."""
        with self.connect() as db:
            db.execute("BEGIN")
            try:
                yield db
            finally:
                db.execute("ROLLBACK")  # nothing was written: just let the snapshot go

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction taken up front; rolled back if the block raises."""
        with self.connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")


def share_with_folder_owner(db_path: Path) -> None:
    """Let the owner of the store's folder write every file of the store, whoever made it.

    The runner runs as root (it holds the Docker socket), the API as the unprivileged user who
    owns the folder, and SQLite deletes its -wal and -shm files when the last connection
    closes and makes them again with the next. SQLite hands a file it makes as root to the
    database file's owner, but only just after creating it: an API connection opening it in
    between finds a file it may not write ("attempt to write a readonly database", seen once
    in 200 requests of `make bench-hosting`). So the folder is set-group-ID (new files take
    its group) and the database file group-writable (SQLite gives its -wal and -shm the
    database file's mode). SQLite asks for that mode when it makes the file, but the umask
    (022 as a rule) takes the group's write bit off, and SQLite's fchmod() puts it back only a
    moment later: the window was still open (seen under compose, where the runner is root in
    its container: 2 of 7,600 requests in 90 s of a busy class). So the process's umask keeps
    the group's write bit: from the moment it exists, a file root makes is the API's to write.
    Root's folders and shared ones (sticky, like /tmp) are left alone."""
    folder = db_path.parent
    info = folder.stat()
    if info.st_uid == 0 or info.st_mode & stat.S_ISVTX:
        return
    os.umask(os.umask(0) & ~stat.S_IWGRP)
    if not info.st_mode & stat.S_ISGID:
        os.chmod(folder, stat.S_IMODE(info.st_mode) | stat.S_ISGID)
    for path in folder.glob(db_path.name + "*"):
        os.chown(path, info.st_uid, info.st_gid)
        os.chmod(path, stat.S_IMODE(path.stat().st_mode) | stat.S_IRGRP | stat.S_IWGRP)
