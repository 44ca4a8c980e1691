from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from c10klab.config import Settings
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
