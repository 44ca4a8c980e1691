"""Exercises: read as content, answered as variants, judged from their run's result. The runs
themselves are in tests/variants/test_exercises_docker.py (each starter fails, each solution
passes, on the real engine)."""

import shutil
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from c10klab.config import Settings
from c10klab.exercises.service import find_exercise, judge
from c10klab.runs.store import RunStore
from c10klab.sandboxes.service import load_catalog

REAL = Settings()


def test_every_exercise_is_listed_with_its_lesson_and_a_c_server(client: TestClient) -> None:
    listed = client.get("/api/exercises").json()
    assert len(listed) >= 6
    lessons = {lesson["slug"] for lesson in client.get("/api/lessons").json()}
    catalog = load_catalog(REAL.sandboxes_dir)
    for exercise in listed:
        assert exercise["lesson"] in lessons
        server = catalog.get(exercise["server"])
        assert server is not None and server.language == "c"
    assert len({e["lesson"] for e in listed}) >= 4  # across the lessons


def test_an_exercise_has_its_starter_hints_and_check_but_not_its_solution(
    client: TestClient,
) -> None:
    exercise = client.get("/api/exercises/et-drain").json()
    original = (REAL.sandboxes_dir / exercise["file"]).read_text()
    assert exercise["starter"] != original and "loop_read(c)" in exercise["starter"]
    assert exercise["hints"] and exercise["criteria"][0]["kind"] == "errors_at_most"
    assert exercise["run"]["knobs"] == {"trigger": "et", "buffer_bytes": 512}
    assert "solution" not in exercise
    solution = client.get("/api/exercises/et-drain/solution").json()["source"]
    assert solution == original  # its solution is the server as the course ships it
    assert client.get("/api/exercises/nope").status_code == 404
    assert client.get("/api/exercises/nope/solution").status_code == 404


def test_an_answer_is_a_variant_checked_by_the_exercises_run(
    client: TestClient, store: RunStore
) -> None:
    exercise = client.get("/api/exercises/select-value-result").json()
    body = {"server": "c-select", "source": exercise["starter"], "exercise": exercise["slug"]}
    created = client.post("/api/variants", json=body)
    assert created.status_code == 202, created.text
    run = store.get_run(created.json()["check"]["id"])
    assert run is not None and not run.request.check_only
    assert run.request.connections == exercise["run"]["connections"]
    assert run.request.variant == created.json()["id"]
    variant = client.get(f"/api/variants/{created.json()['id']}").json()
    assert variant["exercise"] == "select-value-result"
    assert variant["verdict"] == {"status": "pending", "reasons": [], "measured": []}

    for wrong, said in [
        (body | {"exercise": "nope"}, "no exercise"),
        (body | {"server": "c-epoll"}, "edits c-select, not c-epoll"),
        (body | {"exercise": "Not A Slug"}, "exercise"),
    ]:
        answer = client.post("/api/variants", json=wrong)
        assert answer.status_code == 422 and said in answer.text, answer.text


def result(
    errors: int = 0, exit_code: int = 0, syscalls: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {
        "summary": {"error_total": errors},
        "server": {"exit_code": exit_code},
        "syscalls": syscalls,
    }


def test_the_verdict_reads_every_criterion_from_the_run() -> None:
    forking = find_exercise(REAL.content_dir, "fork-per-connection")
    assert judge(forking, "running", None, None).status == "pending"
    failed_run = judge(forking, "failed", None, "your server exited with code 1")
    assert failed_run.status == "failed" and failed_run.reasons == [
        "your server exited with code 1"
    ]
    starved = judge(forking, "done", result(errors=9), None)
    assert starved.status == "failed" and len(starved.reasons) == 1
    assert [(m.ok, m.value) for m in starved.measured] == [(False, 9), (True, 0)]
    assert judge(forking, "done", result(), None).status == "passed"

    batch = find_exercise(REAL.content_dir, "io-uring-batch")

    def enter(per_request: float) -> dict[str, Any]:
        row = {"syscall": "io_uring_enter", "per_request": per_request}
        return result(syscalls={"refused": None, "rows": [row]})

    assert judge(batch, "done", enter(0.04), None).status == "passed"
    assert judge(batch, "done", enter(1.05), None).status == "failed"
    refused = judge(batch, "done", result(syscalls={"refused": "perf is not allowed"}), None)
    assert refused.status == "failed" and "perf is not allowed" in refused.reasons[0]


@pytest.fixture
def course(tmp_path: Path) -> Settings:
    """A copy of the course's content, with the real sandboxes."""
    shutil.copytree(REAL.content_dir, tmp_path / "content")
    (tmp_path / "sandboxes").symlink_to(REAL.sandboxes_dir)
    return Settings(repo_root=tmp_path)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda t: t.replace('lesson = "05-epoll"', 'lesson = "99-nope"'), "no lesson"),
        (
            lambda t: t.replace("r = loop_read(c);\n    while", "r = nowhere(c);\n    while"),
            "0 times",
        ),
        (lambda t: t.replace("connections = 20", "connections = 99999"), "its run: connections"),
        (lambda t: t.replace('title = "', 'titel = "'), "titel"),
    ],
)
def test_the_content_check_says_what_is_wrong_with_an_exercise(
    course: Settings, change: Any, said: str
) -> None:
    from c10klab.content.check import check_course

    path = course.content_dir / "exercises" / "et-drain.toml"
    path.write_text(change(path.read_text()))
    _, problems = check_course(course)
    assert any(p.startswith("exercises/et-drain.toml") and said in p for p in problems), problems
