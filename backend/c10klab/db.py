"""The SQLite file every domain keeps its tables in, and the two ways to use it.

The API and the runner are separate processes that open the same file (WAL mode, so readers
never block the writer). Each operation takes a short-lived connection: safe across threads and
processes. A write takes the lock up front (BEGIN IMMEDIATE), so concurrent writers queue
instead of failing, and whatever is checked inside one write holds when it commits: that is what
makes admission atomic.
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
        self._give_to_folder_owner()

    def _give_to_folder_owner(self) -> None:
        """The store's files belong to whoever owns its folder. The runner runs as root (it
        holds the Docker socket) and the API as an unprivileged user who owns the folder; a
        store file the root runner happened to create first would be read-only for the API.
        (SQLite itself gives the -wal and -shm files it makes as root to the file's owner.)"""
        if os.geteuid() != 0:
            return
        folder = self.path.parent.stat()
        if folder.st_uid == 0 or folder.st_mode & stat.S_ISVTX:  # root's, or shared like /tmp
            return
        for path in self.path.parent.glob(self.path.name + "*"):
            if path.stat().st_uid == 0:
                os.chown(path, folder.st_uid, folder.st_gid)

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
