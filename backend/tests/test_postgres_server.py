"""The throwaway PostgreSQL server, and the features of PostgreSQL the store relies on."""

import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import Engine, create_engine, text

from . import postgres
from .postgres import PostgresServer, server


@pytest.fixture
def database() -> str:
    """A database of the test's own on this process's server."""
    name = f"test_{uuid.uuid4().hex[:12]}"
    server().create_database(name)
    return name


@pytest.fixture
def engine(database: str) -> Iterator[Engine]:
    # A lock that is never released fails the test rather than hanging it.
    engine = create_engine(server().url(database), connect_args={"options": "-c lock_timeout=5s"})
    yield engine
    engine.dispose()


def test_sqlalchemy_connects_to_the_database_made_for_the_test(
    engine: Engine, database: str
) -> None:
    with engine.connect() as conn:
        assert conn.execute(text("SELECT 1")).scalar_one() == 1
        assert conn.execute(text("SELECT current_database()")).scalar_one() == database
    assert engine.dialect.name == "postgresql"
    assert engine.dialect.driver == "psycopg"


def test_the_server_runs_with_the_throwaway_settings(engine: Engine) -> None:
    with engine.connect() as conn:
        shown = {
            name: conn.execute(text(f"SHOW {name}")).scalar_one()
            for name in ("fsync", "synchronous_commit", "full_page_writes", "max_connections")
        }
        assert conn.execute(text("SHOW listen_addresses")).scalar_one() == "127.0.0.1"
        assert conn.execute(text("SHOW server_encoding")).scalar_one() == "UTF8"
    assert shown == {
        "fsync": "off",
        "synchronous_commit": "off",
        "full_page_writes": "off",
        "max_connections": "200",
    }


def test_a_table_keeps_what_is_inserted(engine: Engine) -> None:
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE runs (id serial PRIMARY KEY, server text NOT NULL)"))
        conn.execute(
            text("INSERT INTO runs (server) VALUES (:server)"),
            [{"server": "c-epoll"}, {"server": "c-io-uring"}],
        )
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT id, server FROM runs ORDER BY id")).all()
    assert [tuple(row) for row in rows] == [(1, "c-epoll"), (2, "c-io-uring")]


def test_skip_locked_hands_each_queued_row_to_one_worker(engine: Engine) -> None:
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE queue (id int PRIMARY KEY)"))
        conn.execute(text("INSERT INTO queue VALUES (1), (2)"))
    claim = text("SELECT id FROM queue ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED")
    # Two workers claiming at once, each inside its own open transaction.
    with engine.begin() as first, engine.begin() as second:
        assert first.execute(claim).scalar_one() == 1
        assert second.execute(claim).scalar_one() == 2  # not 1, and without waiting for it
        with engine.begin() as third:
            assert third.execute(claim).scalar_one_or_none() is None


def test_notify_reaches_a_listener_on_another_connection(database: str) -> None:
    conninfo = server().conninfo(database)
    with (
        psycopg.connect(conninfo, autocommit=True) as listener,
        psycopg.connect(conninfo, autocommit=True) as notifier,
    ):
        listener.execute("LISTEN run_events")
        notifier.execute("NOTIFY run_events, '42'")
        received = list(listener.notifies(timeout=5, stop_after=1))
    assert [(n.channel, n.payload) for n in received] == [("run_events", "42")]


def test_a_stopped_server_is_gone_with_its_directory() -> None:
    with PostgresServer() as pg:
        assert pg.dir is not None
        directory: Path = pg.dir
        with psycopg.connect(pg.conninfo("postgres")) as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
    assert not directory.exists()
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(pg.conninfo("postgres"), connect_timeout=2)


def test_without_the_package_the_error_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(postgres, "DEBIAN_ROOT", tmp_path)
    (tmp_path / "15" / "bin").mkdir(parents=True)  # a version left without its server
    with pytest.raises(RuntimeError, match="install the Debian package `postgresql`"):
        PostgresServer()
