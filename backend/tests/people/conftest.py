import io
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from c10klab.__main__ import main as command_line
from c10klab.config import Settings, get_settings
from c10klab.main import create_app
from c10klab.people.service import add_instructor
from c10klab.people.store import PeopleStore

PASSWORD = "correct horse battery"

Browser = Callable[[], TestClient]


@pytest.fixture
def classroom(tmp_path: Path, database_url: str) -> Settings:
    return Settings(mode="classroom", db_path=tmp_path / "store.sqlite3", database_url=database_url)


@pytest.fixture
def people(classroom: Settings) -> PeopleStore:
    store = PeopleStore(classroom.store)
    add_instructor(store, "Grace", PASSWORD)
    add_instructor(store, "Linus", PASSWORD)
    return store


def browsers(settings: Settings) -> Iterator[Browser]:
    """A factory of browsers, each its own cookie jar against one course; all closed after."""
    clients: list[TestClient] = []

    def new() -> TestClient:
        client = TestClient(create_app(settings))
        client.__enter__()
        clients.append(client)
        return client

    yield new
    for client in clients:
        client.__exit__(None, None, None)


@pytest.fixture
def browser(classroom: Settings, people: PeopleStore) -> Iterator[Browser]:
    """Browsers of the same classroom course, with Grace and Linus as its instructors."""
    yield from browsers(classroom)


def log_in(client: TestClient, name: str) -> TestClient:
    answer = client.post("/api/auth/login", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return client


def make_class(instructor: TestClient, name: str = "Systems, Tuesday") -> str:
    answer = instructor.post("/api/classes", json={"name": name})
    assert answer.status_code == 201, answer.text
    code: str = answer.json()["join_code"]
    return code


def join(client: TestClient, code: str, name: str) -> TestClient:
    answer = client.post("/api/classes/join", json={"code": code, "name": name})
    assert answer.status_code == 200, answer.text
    return client


@dataclass(frozen=True)
class Said:
    """What the command line answered: its exit status, its output and its errors."""

    status: int
    out: str
    err: str


Command = Callable[..., Said]


@pytest.fixture
def course_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Command:
    """`python -m c10klab ARGS` on a store in tmp_path, in this process (as the shell runs it,
    less the interpreter's start and the import of the course, two seconds a call): `stdin`
    is what is typed, its first line the password."""
    monkeypatch.setenv("C10K_DB_PATH", str(tmp_path / "s.sqlite3"))
    get_settings.cache_clear()

    def run(*args: str, stdin: str = "") -> Said:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        capsys.readouterr()
        try:
            command_line(list(args))
            status = 0
        except SystemExit as ended:
            status = ended.code if isinstance(ended.code, int) else 1
            if isinstance(ended.code, str):
                print(ended.code, file=sys.stderr)
        finally:
            get_settings.cache_clear()
        out, err = capsys.readouterr()
        return Said(status, out, err)

    return run


def real_command(store: Path, *args: str, stdin: str = "") -> Said:
    """`python -m c10klab ARGS` as its own process, at the course's own password cost (the
    suite's in-process hashes are cheap: tests/conftest.py)."""
    done = subprocess.run(
        [sys.executable, "-m", "c10klab", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env={"C10K_DB_PATH": str(store), "PATH": "/usr/bin:/bin"},
        check=False,
    )
    return Said(done.returncode, done.stdout, done.stderr)
