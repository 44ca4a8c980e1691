"""The one database every domain keeps its tables in, and the three ways to use it.

The store is chosen by one URL (C10K_DATABASE_URL): an SQLite file by default (`make up`, one
host), PostgreSQL for a class served by several runner hosts. The API and the runners are
separate processes, on one host or several, that share it. Each domain declares its tables on
the one `metadata` below and keeps its queries in its own store; the schema's history is one
Alembic migration history (c10klab/migrations) that runs on both, when a process first opens
the store.

- `connect()`: a connection for one or a few independent statements.
- `read()`: several reads that see one moment of the store (one snapshot).
- `write()`: a transaction that commits as a whole or not at all. On SQLite it takes the one
  write lock up front (BEGIN IMMEDIATE), so writers queue instead of failing and whatever is
  checked inside one write holds when it commits. PostgreSQL lets writers run side by side;
  the queue, which needs the same guarantee, takes its own row lock (runs/store.py).
"""

import os
import stat
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import fields
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy import (
    Connection,
    Engine,
    MetaData,
    Row,
    Select,
    Table,
    create_engine,
    event,
    pool,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

# How long a writer waits for SQLite's lock before giving up.
LOCK_TIMEOUT_S = 15
MIGRATIONS = Path(__file__).parent / "migrations"
# Every domain's tables, for the migrations to be checked against (tests/test_migrations.py).
metadata = MetaData()


Record = TypeVar("Record", bound="DataclassInstance")


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def unix_now() -> float:
    return time.time()


def database_url(where: str | Path) -> str:
    """The SQLAlchemy URL for a store: a path is an SQLite file; a `postgresql://` URL gets
    the driver the course ships (psycopg 3)."""
    if isinstance(where, Path):
        return f"sqlite:///{where}"
    if where.startswith("postgresql://") or where.startswith("postgres://"):
        return "postgresql+psycopg://" + where.split("://", 1)[1]
    return where


def _sqlite_engine(url: str) -> Engine:
    path = Path(make_url(url).database or "")
    path.parent.mkdir(parents=True, exist_ok=True)
    # A connection per use, as sqlite3 is cheap to open: no file handles held between uses
    # (a test suite opens hundreds of stores) and no connection shared across threads.
    engine = create_engine(url, poolclass=pool.NullPool, connect_args={"timeout": LOCK_TIMEOUT_S})

    @event.listens_for(engine, "connect")
    def no_implicit_transactions(dbapi_connection: Any, _record: Any) -> None:
        # Python's sqlite3 begins transactions on its own, late (at the first write): a read
        # then write in one transaction would not see one moment. We say when instead.
        dbapi_connection.isolation_level = None

    @event.listens_for(engine, "begin")
    def begin(connection: Connection) -> None:
        mode = connection.get_execution_options().get("sqlite_begin", "DEFERRED")
        connection.exec_driver_sql(f"BEGIN {mode}")

    raw = engine.raw_connection()
    try:
        raw.cursor().execute("PRAGMA journal_mode=WAL")  # readers never block the writer
    finally:
        raw.close()
    return engine


# Seconds a PostgreSQL session may sit inside a transaction doing nothing before the server
# ends it (see _postgres_engine); well under a runner's lease (runner/worker.LEASE_S).
IDLE_IN_TRANSACTION_S = 5.0


def _postgres_engine(url: str) -> Engine:
    # pool_pre_ping: a class's database may restart under a running API; the next use of a
    # pooled connection finds out and takes a fresh one instead of failing a request.
    # Up to 30 connections a process: the API answers from a pool of 40 threads, and a class's
    # database serves several API processes and runners (PostgreSQL allows 100 by default).
    # A process frozen inside a transaction (a runner stopped by SIGSTOP, a VM paused) would
    # hold its row locks, and the API's lease expiry would wait behind them for ever: the
    # server ends such a session after IDLE_IN_TRANSACTION_S (no transaction here idles).
    idle_ms = int(IDLE_IN_TRANSACTION_S * 1000)
    return create_engine(
        url,
        pool_size=10,
        max_overflow=20,
        pool_pre_ping=True,
        connect_args={"options": f"-c idle_in_transaction_session_timeout={idle_ms}"},
    )


_engines: dict[str, Engine] = {}
_engines_lock = threading.Lock()


def engine_for(url: str) -> Engine:
    """One engine per store and process, its schema brought up to date on first use."""
    with _engines_lock:
        if url not in _engines:
            engine = _sqlite_engine(url) if url.startswith("sqlite") else _postgres_engine(url)
            migrate(engine)
            _engines[url] = engine
        return _engines[url]


def forget_engine(url: str) -> None:
    """Close a store's pooled connections (a test's database, before it is dropped)."""
    with _engines_lock:
        engine = _engines.pop(database_url(url), None)
    if engine is not None:
        engine.dispose()


def migrate(engine: Engine) -> None:
    """Run the migrations the store has not had. Processes starting together (the API and
    the runners) take turns: SQLite's write lock, or an advisory lock on PostgreSQL, held for
    the whole upgrade, and each finds the work done by the one before."""
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.connect() as connection:
        connection.execution_options(sqlite_begin="IMMEDIATE")
        with connection.begin():
            if connection.dialect.name == "postgresql":
                connection.exec_driver_sql("SELECT pg_advisory_xact_lock(1010)")
            config.attributes["connection"] = connection
            command.upgrade(config, "head")


def from_row(kind: type[Record], row: Row[Any], **converted: Any) -> Record:
    """A store's record (a dataclass) from a row of its table, each field from the column of
    its name, so that no store copies its columns one by one. Columns the record does not keep
    are left out, and a field without a column keeps its default; `converted` gives the fields
    whose column holds them in another form (JSON text, say)."""
    columns = row._mapping
    kept = {field.name: columns[field.name] for field in fields(kind) if field.name in columns}
    return kind(**(kept | converted))


class Database:
    """A domain's view of the store. Each domain subclasses it with its queries; all of them
    share one engine per store and process."""

    def __init__(self, where: str | Path) -> None:
        self.url = database_url(where)
        self.engine = engine_for(self.url)
        self.dialect = self.engine.dialect.name
        if self.dialect == "sqlite" and os.geteuid() == 0:  # the runner: see below
            share_with_folder_owner(Path(make_url(self.url).database or ""))

    @contextmanager
    def connect(self) -> Iterator[Connection]:
        with self.engine.connect() as connection:
            yield connection  # nothing written is kept: closing rolls back

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """Several reads that see one moment of the store. Outside such a transaction each
        statement sees the store as it is when it runs, so a run queued between two of them
        is in the second answer and not the first. Writers are not held up meanwhile (WAL on
        SQLite; a REPEATABLE READ snapshot on PostgreSQL)."""
        with self.engine.connect() as connection:
            if self.dialect == "postgresql":
                connection.execution_options(isolation_level="REPEATABLE READ")
            transaction = connection.begin()
            try:
                yield connection
            finally:
                transaction.rollback()  # nothing was written: just let the snapshot go

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A transaction that commits when the block ends, or is rolled back if it raises."""
        with self.engine.connect() as connection:
            connection.execution_options(sqlite_begin="IMMEDIATE")
            with connection.begin():
                yield connection

    def first_row(self, query: Select[Any]) -> Row[Any] | None:
        """The first row a query finds, or None: what every store's get-by-key reads."""
        with self.connect() as db:
            return db.execute(query).first()

    def rows(self, query: Select[Any]) -> list[Row[Any]]:
        """Every row a query finds, read on one connection that is closed before they are used."""
        with self.connect() as db:
            return list(db.execute(query))

    def insert_ignoring_conflicts(self, table: Table, values: Mapping[str, Any]) -> Any:
        """INSERT that leaves an existing row with the same key as it is."""
        return self._insert(table).values(**values).on_conflict_do_nothing()

    def upsert(
        self,
        table: Table,
        values: Mapping[str, Any],
        key: list[str],
        changes: Mapping[str, Any] | None = None,
    ) -> Any:
        """INSERT, or UPDATE the row with the same `key` columns to these values (or, for the
        columns named in `changes`, to those expressions of the row as it was)."""
        statement = self._insert(table).values(**values)
        changed = {name: statement.excluded[name] for name in values if name not in key}
        return statement.on_conflict_do_update(
            index_elements=key, set_=changed | dict(changes or {})
        )

    def _insert(self, table: Table) -> Any:
        dialect_insert = postgresql.insert if self.dialect == "postgresql" else sqlite.insert
        return dialect_insert(table)


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
