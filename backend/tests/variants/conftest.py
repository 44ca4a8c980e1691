"""The people tests' classroom browsers, for variants in a class; and, for the tests on the
real engine, the API with a runner serving its store."""

import threading
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from c10klab.config import Settings
from c10klab.main import create_app
from c10klab.runner.docker_engine import Engine
from c10klab.runner.worker import Runner
from c10klab.runs.store import RunStore
from tests.people.conftest import browser, classroom, people  # noqa: F401

IMAGES = ["c10klab/server:c-epoll", "c10klab/loadgen:latest", "c10klab/build-c:latest"]


@pytest.fixture(scope="module")
def engine() -> Engine:
    if not Engine.probe()["reachable"]:
        pytest.fail("no Docker engine; `make test` starts one")
    missing = [tag for tag, ok in Engine().images_present(IMAGES).items() if not ok]
    if missing:
        pytest.fail(f"images missing: {missing}; run `make images`")
    return Engine()


@pytest.fixture
def served(engine: Engine, settings: Settings, store: RunStore) -> Iterator[TestClient]:
    """The API, with a runner serving its store (stopped after the test)."""
    runner = Runner(settings, store, engine)
    thread = threading.Thread(target=runner.serve, daemon=True)
    thread.start()
    with TestClient(create_app(settings)) as api:
        yield api
    runner.stopping.set()
    thread.join(timeout=60)
    assert not thread.is_alive(), "the runner did not stop"
