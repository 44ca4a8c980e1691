"""Every exercise against the real engine: its starter fails its check and its solution passes
it (a starter that passed would teach nothing; a solution that failed, less)."""

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from c10klab.exercises.service import exercise_paths
from c10klab.runs.service import parse_sse

pytestmark = pytest.mark.docker

EXERCISES = [p.stem for p in exercise_paths(Path(__file__).parents[3] / "content")]


def answer(served: TestClient, slug: str, server: str, source: str) -> dict[str, Any]:
    """Submit an answer and wait for its check run; its variant, with the verdict."""
    created = served.post(
        "/api/variants", json={"server": server, "source": source, "exercise": slug}
    )
    assert created.status_code == 202, created.text
    parse_sse(served.get(f"/api/runs/{created.json()['check']['id']}/events").text)
    variant: dict[str, Any] = served.get(f"/api/variants/{created.json()['id']}").json()
    return variant


@pytest.mark.parametrize("slug", EXERCISES)
def test_the_starter_fails_and_the_solution_passes(served: TestClient, slug: str) -> None:
    exercise = served.get(f"/api/exercises/{slug}").json()
    solution = served.get(f"/api/exercises/{slug}/solution").json()["source"]

    starter = answer(served, slug, exercise["server"], exercise["starter"])["verdict"]
    assert starter["status"] == "failed", starter
    assert starter["reasons"], starter

    solved = answer(served, slug, exercise["server"], solution)["verdict"]
    assert solved["status"] == "passed", solved
    assert all(m["ok"] for m in solved["measured"]), solved
