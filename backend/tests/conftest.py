from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from c10klab.config import Settings
from c10klab.main import create_app
from c10klab.store import Store


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """The real repository's content and catalog, with a store of the test's own."""
    return Settings(db_path=tmp_path / "store.sqlite3")


@pytest.fixture
def store(settings: Settings) -> Store:
    return Store(settings.db_path)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as test_client:
        yield test_client
