"""Every exercise's check, proven against the real engine (`make test-exercises`): its starter
fails, each of its wrong answers fails with the reason it names, and its solution passes.

A check that let a known mistake through would pass learners wrongly; one that failed the
solution, or the starter for a reason other than its gap, would teach nothing. The answers are
built in the real build sandbox and measured as a learner's are, one check run each."""

from typing import Any

import pytest
from fastapi.testclient import TestClient

from c10klab.config import Settings
from c10klab.exercises.service import (
    exercise_paths,
    read_exercise,
    solution_of,
    starter_of,
    wrong_answer_of,
)
from c10klab.runs.service import parse_sse
from c10klab.sandboxes.service import load_catalog

pytestmark = [pytest.mark.docker, pytest.mark.exercises]

SETTINGS = Settings()
CATALOG = load_catalog(SETTINGS.sandboxes_dir)


def answers() -> list[Any]:
    """(exercise, answer, the source, what its verdict must be): the starter and every wrong
    answer must fail (a wrong answer with its `fails` among the reasons), the solution pass."""
    cases = []
    for path in exercise_paths(SETTINGS.content_dir):
        slug, exercise = path.stem, read_exercise(path)
        sandboxes = SETTINGS.sandboxes_dir
        cases.append(
            pytest.param(slug, starter_of(exercise, CATALOG, sandboxes), None, id=f"{slug}-starter")
        )
        for wrong in exercise.wrong:
            source = wrong_answer_of(exercise, wrong, CATALOG, sandboxes)
            cases.append(pytest.param(slug, source, wrong.fails, id=f"{slug}-{wrong.name}"))
        solution = solution_of(exercise, CATALOG, sandboxes)
        cases.append(pytest.param(slug, solution, "", id=f"{slug}-solution"))
    return cases


def verdict_of_answer(served: TestClient, slug: str, source: str) -> dict[str, Any]:
    """Submit `source` as an answer to `slug` and wait for its check run: the verdict."""
    server = served.get(f"/api/exercises/{slug}").json()["server"]
    created = served.post(
        "/api/variants", json={"server": server, "source": source, "exercise": slug}
    )
    assert created.status_code == 202, created.text
    parse_sse(served.get(f"/api/runs/{created.json()['check']['id']}/events").text)
    verdict: dict[str, Any] = served.get(f"/api/variants/{created.json()['id']}").json()["verdict"]
    return verdict


def named(failed: list[str], reason: str) -> bool:
    """Whether the verdict's failures hold `reason` (`check` stands for any check:<name>)."""
    if reason == "check":
        return any(name.startswith("check:") for name in failed)
    return reason in failed


@pytest.mark.parametrize(("slug", "source", "fails"), answers())
def test_the_check_fails_every_wrong_answer_for_its_reason_and_passes_the_solution(
    served: TestClient, slug: str, source: str, fails: str | None
) -> None:
    verdict = verdict_of_answer(served, slug, source)
    if fails == "":  # the solution
        assert verdict["status"] == "passed", verdict
        assert all(m["ok"] for m in verdict["measured"]), verdict
        return
    assert verdict["status"] == "failed", verdict
    assert verdict["reasons"] and len(verdict["reasons"]) == len(verdict["failed"]), verdict
    if fails is not None:  # a wrong answer: for the reason that names its mistake
        assert named(verdict["failed"], fails), verdict
