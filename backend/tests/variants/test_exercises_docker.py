"""Every exercise against the real engine: its starter fails its check and its solution passes
it (a starter that passed would teach nothing; a solution that failed, less)."""

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from c10klab.config import Settings
from c10klab.exercises.service import exercise_paths
from c10klab.main import create_app
from c10klab.runner.docker_engine import Engine
from c10klab.runner.worker import Runner
from c10klab.runs.service import parse_sse
from c10klab.runs.store import RunStore

pytestmark = pytest.mark.docker

EXERCISES = [p.stem for p in exercise_paths(Path(__file__).parents[3] / "content")]


@pytest.fixture(scope="module")
def engine() -> Engine:
    if not Engine.probe()["reachable"]:
        pytest.fail("no Docker engine; `make test` starts one")
    return Engine()


@pytest.fixture
def client(engine: Engine, settings: Settings, store: RunStore) -> Iterator[TestClient]:
    runner = Runner(settings, store, engine)
    thread = threading.Thread(target=runner.serve, daemon=True)
    thread.start()
    with TestClient(create_app(settings)) as api:
        yield api
    runner.stopping.set()
    thread.join(timeout=60)


def answer(client: TestClient, slug: str, server: str, source: str) -> dict[str, Any]:
    """Submit an answer and wait for its check run; its variant, with the verdict."""
    created = client.post(
        "/api/variants", json={"server": server, "source": source, "exercise": slug}
    )
    assert created.status_code == 202, created.text
    parse_sse(client.get(f"/api/runs/{created.json()['check']['id']}/events").text)
    variant: dict[str, Any] = client.get(f"/api/variants/{created.json()['id']}").json()
    return variant


@pytest.mark.parametrize("slug", EXERCISES)
def test_the_starter_fails_and_the_solution_passes(client: TestClient, slug: str) -> None:
    exercise = client.get(f"/api/exercises/{slug}").json()
    solution = client.get(f"/api/exercises/{slug}/solution").json()["source"]

    starter = answer(client, slug, exercise["server"], exercise["starter"])["verdict"]
    assert starter["status"] == "failed", starter
    assert starter["reasons"], starter

    solved = answer(client, slug, exercise["server"], solution)["verdict"]
    assert solved["status"] == "passed", solved
    assert all(m["ok"] for m in solved["measured"]), solved
