"""Fixtures every test may use. `pytest --store postgresql` runs the same tests with each test's
store a fresh database on a real, throwaway PostgreSQL server (tests/postgres.py) instead of an
SQLite file: `make test-backend` runs the suite, then again those of its tests that touch a
store."""

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

from c10klab.config import Settings
from c10klab.db import Database, forget_engine
from c10klab.hosts.store import RunnerStore
from c10klab.main import create_app
from c10klab.people import service as people_service
from c10klab.runs.store import RunStore
from c10klab.sweeps.store import SweepStore
from tests import postgres
from tests.settle import wait_until_settled

TEMPLATE = "c10k_migrated"

# Starlette's TestClient names its host "testserver"; the course answers only the names it
# serves (cross_site.HostGuard). Read by every Settings() the tests make, including those made
# at collection; tests of the default pass allowed_hosts themselves.
os.environ.setdefault("C10K_ALLOWED_HOSTS", '["localhost", "127.0.0.1", "::1", "testserver"]')


@pytest.fixture(autouse=True, scope="session")
def cheap_password_hashes() -> Iterator[None]:
    """Passwords hashed as the course hashes them (argon2id through pwdlib) at argon2's
    lowest cost: the suite signs in hundreds of times, and at the real cost (about 0.3 s a
    hash here) that was a third of its time. The course's own cost is checked where a real
    `python -m c10klab instructor add` hashes (tests/people/test_auth.py)."""
    cheap = PasswordHash((Argon2Hasher(time_cost=1, memory_cost=8, parallelism=1),))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(people_service, "PASSWORDS", cheap)
        yield


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--store",
        choices=("sqlite", "postgresql"),
        default="sqlite",
        help="the store the tests' course keeps its tables in (default: an SQLite file)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test that starts containers lives in a file named *_docker.py (or tests/compose/):
    `make test` runs those files alone, so one elsewhere would never run.

    On PostgreSQL, only the tests that touch a store (they ask for `database_url`, directly
    or through `settings`, `store` and the like): the others would run as they did on SQLite.
    A test marked `refused_before_store` has a store only because its app needs one: its input
    is refused by validation before the store is written, the same whichever store it is."""
    astray = [
        i.nodeid
        for i in items
        if i.get_closest_marker("docker") is not None
        and not i.path.name.endswith("_docker.py")
        and i.path.parent.name != "compose"
    ]
    if astray:
        raise pytest.UsageError(
            f"tests marked docker outside a *_docker.py file, which make test would not run: "
            f"{', '.join(astray[:5])}; move them into one"
        )
    if config.getoption("--store") != "postgresql":
        return
    touching = [
        i
        for i in items
        if "database_url" in getattr(i, "fixturenames", ())
        and i.get_closest_marker("refused_before_store") is None
    ]
    config.hook.pytest_deselected(items=[i for i in items if i not in touching])
    items[:] = touching


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test that needs the machine to itself starts once the machine is quiet."""
    if item.get_closest_marker("quiet") is not None:
        wait_until_settled()


@pytest.fixture(scope="session")
def migrated_template(request: pytest.FixtureRequest) -> str | None:
    """A PostgreSQL database with the schema made once, copied for each test; None on SQLite."""
    if request.config.getoption("--store") != "postgresql":
        return None
    server = postgres.server()
    server.create_database(TEMPLATE)
    Database(server.url(TEMPLATE))  # migrates it
    forget_engine(server.url(TEMPLATE))  # a template must have no one connected
    return TEMPLATE


@pytest.fixture
def database_url(migrated_template: str | None) -> Iterator[str]:
    """The test's own store as C10K_DATABASE_URL: "" (the SQLite file at db_path) or a fresh
    PostgreSQL database."""
    if migrated_template is None:
        yield ""
        return
    name = f"test_{uuid.uuid4().hex[:12]}"
    postgres.server().create_database(name, template=migrated_template)
    url = postgres.server().url(name)
    yield url
    forget_engine(url)


@pytest.fixture
def settings(tmp_path: Path, database_url: str) -> Settings:
    """The real repository's content and catalog, with a store of the test's own. A runner
    started on it does not measure its host's noise first (45 s): the one test of that asks."""
    return Settings(
        db_path=tmp_path / "store.sqlite3", database_url=database_url, calibration_runs=0
    )


@pytest.fixture
def store(settings: Settings) -> RunStore:
    return RunStore(settings.store)


@pytest.fixture
def sweeps(settings: Settings) -> SweepStore:
    return SweepStore(settings.store)


@pytest.fixture
def runners(settings: Settings) -> RunnerStore:
    return RunnerStore(settings.store)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as test_client:
        yield test_client
