"""Exercises: read as content, answered as variants, judged from their run's result. The runs
themselves are in tests/variants/test_exercises_docker.py (each starter fails, each wrong answer
fails with the reason it names, each solution passes, on the real engine)."""

import shutil
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from c10klab.config import Settings
from c10klab.exercises.service import AnswerRun, find_exercise, judge
from c10klab.results.schemas import CheckOutcome, FailedData, RunResult
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


def test_an_exercise_comes_in_the_readers_language_and_checks_the_same(
    client: TestClient,
) -> None:
    english = client.get("/api/exercises/et-drain").json()
    chinese = client.get("/api/exercises/et-drain", params={"lang": "zh"}).json()
    assert (english["language"], chinese["language"]) == ("en", "zh")
    assert chinese["title"].startswith("边缘触发") and "边缘触发" in chinese["statement"]
    assert len(chinese["hints"]) == len(english["hints"])
    # The words change; what is checked does not.
    for field in ("starter", "run", "server", "lesson", "file"):
        assert chinese[field] == english[field], field
    pairs = zip(english["criteria"], chinese["criteria"], strict=True)
    assert all(e["id"] == z["id"] and e["value"] == z["value"] for e, z in pairs)
    assert chinese["criteria"][0]["says"].startswith("每个请求都得到回复")
    listed = client.get("/api/exercises", params={"lang": "zh"}).json()
    assert {e["language"] for e in listed} == {"zh"}
    assert client.get("/api/exercises", params={"lang": "fr"}).status_code == 422


def test_an_exercise_not_yet_translated_comes_in_english_and_says_so(course: Settings) -> None:
    (course.content_dir / "zh" / "exercises" / "et-drain.toml").unlink()
    from c10klab.main import create_app

    with TestClient(create_app(course)) as client:
        exercise = client.get("/api/exercises/et-drain", params={"lang": "zh"}).json()
    assert exercise["language"] == "en" and exercise["title"].startswith("Edge-triggered")


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
    assert variant["verdict"] == {"status": "pending", "reasons": [], "failed": [], "measured": []}

    for wrong, said in [
        (body | {"exercise": "nope"}, "no exercise"),
        (body | {"server": "c-epoll"}, "edits c-select, not c-epoll"),
        (body | {"exercise": "Not A Slug"}, "exercise"),
    ]:
        answer = client.post("/api/variants", json=wrong)
        assert answer.status_code == 422 and said in answer.text, answer.text


def result(
    errors: int = 0,
    exit_code: int = 0,
    syscalls: dict[str, Any] | None = None,
    starved: int = 0,
    invalid_reason: str | None = None,
    pids: int = 5,
) -> RunResult:
    """A finished check run's figures, as the runner records them."""
    return RunResult.model_validate(
        {
            "summary": {
                "qps": 100.0,
                "requests": 200,
                "duration_s": 2.0,
                "error_total": errors,
                "starved": starved,
                "latency_us": {"p50": 80, "p90": 90, "p99": 99, "p999": 120, "max": 150},
            },
            "server": {"exit_code": exit_code, "pids_peak": pids},
            "syscalls": syscalls,
            "valid": invalid_reason is None,
            "invalid_reason": invalid_reason,
        }
    )


def done(figures: RunResult) -> AnswerRun:
    return AnswerRun("done", result=figures)


def test_the_verdict_reads_every_criterion_from_the_run() -> None:
    forking = find_exercise(REAL.content_dir, "fork-per-connection")
    assert judge(forking, AnswerRun("running")).status == "pending"
    failed_run = judge(forking, AnswerRun("failed", error="your server exited with code 1"))
    assert failed_run.status == "failed" and failed_run.failed == ["run"]
    assert failed_run.reasons == ["your server exited with code 1"]

    errors = judge(forking, done(result(errors=9)))
    assert errors.status == "failed" and errors.failed == ["answers-all"]
    measured = [(m.id, m.ok, m.value) for m in errors.measured]
    assert measured == [("answers-all", False, 9), ("no-zombies", True, 5), ("clean-exit", True, 0)]
    zombies = judge(forking, done(result(pids=16)))
    assert zombies.failed == ["no-zombies"] and zombies.measured[1].limit == 12
    assert judge(forking, done(result())).status == "passed"

    batch = find_exercise(REAL.content_dir, "io-uring-batch")

    def enter(per_request: float) -> RunResult:
        row = {"syscall": "io_uring_enter", "calls": 9, "errors": 0, "per_request": per_request}
        counted = {"method": "perf", "refused": None, "requests": 9, "calls_per_request": 1.0}
        return result(syscalls=counted | {"rows": [row]})

    assert judge(batch, done(enter(0.04))).status == "passed"
    assert judge(batch, done(enter(1.05))).failed == ["batched-enters"]
    # An "at least" count: the call the lesson is about must be made.
    at_least = batch.criteria[0].model_copy(update={"kind": "calls_per_request_at_least"})
    uses = batch.model_copy(update={"criteria": [at_least]})
    assert judge(uses, done(enter(0.04))).failed == ["batched-enters"]
    assert judge(uses, done(enter(1.05))).status == "passed"
    perf_refused: dict[str, Any] = {
        "method": "perf",
        "refused": "perf is not allowed",
        "requests": None,
        "calls_per_request": None,
        "rows": [],
    }
    refused = judge(batch, done(result(syscalls=perf_refused)))
    assert refused.status == "failed" and "perf is not allowed" in refused.reasons[0]


def test_a_run_that_cannot_be_judged_fails_even_when_its_counts_hold() -> None:
    """Lesson 10's trap: counts over the clients a server did serve look clean."""
    forking = find_exercise(REAL.content_dir, "fork-per-connection")
    starved = judge(forking, done(result(starved=2, invalid_reason="2 connections got no reply")))
    assert starved.status == "failed" and starved.failed == ["starved"]
    assert starved.reasons == [
        "2 connections got no reply during the whole run: the server served fewer clients at "
        "once than it was given"
    ]
    invalid = judge(forking, done(result(invalid_reason="3 requests got no reply in time")))
    assert invalid.failed == ["invalid"]
    assert invalid.reasons == ["the run cannot be judged: 3 requests got no reply in time"]
    # A criterion that fails is the reason given; the refusal only backs it up.
    both = judge(forking, done(result(errors=3, invalid_reason="3 requests timed out")))
    assert both.failed == ["answers-all"]


def test_a_count_missed_on_a_disturbed_run_says_to_check_again() -> None:
    batch = find_exercise(REAL.content_dir, "io-uring-batch")
    row = {"syscall": "io_uring_enter", "calls": 9, "errors": 0, "per_request": 1.2}
    counted = {"method": "perf", "refused": None, "requests": 9, "calls_per_request": 1.2}
    figures = result(syscalls=counted | {"rows": [row]}).model_copy(
        update={"stable": False, "unstable_reason": "others took 12% of its CPUs"}
    )
    verdict = judge(batch, done(figures))
    assert verdict.failed == ["batched-enters", "unstable"]
    assert "others took 12% of its CPUs" in verdict.reasons[1]
    # A count held on a disturbed run passes: each limit sits far from both the starter's
    # count and the solution's, so a disturbance does not carry one across it.
    row["per_request"] = 0.1
    held = result(syscalls=counted | {"rows": [row]}).model_copy(update={"stable": False})
    assert judge(batch, done(held)).status == "passed"


def test_a_failed_run_is_named_by_what_failed() -> None:
    drain = find_exercise(REAL.content_dir, "et-drain")
    check = CheckOutcome.model_validate(
        {
            "protocol": "echo",
            "ok": False,
            "passed": [],
            "failed": {"check": "echo-sizes", "message": "only 512 of 1000 bytes came back"},
        }
    )
    checked = judge(drain, AnswerRun("failed", failure=FailedData(reason="x", check=check)))
    assert checked.failed == ["check:echo-sizes"] and checked.reasons == ["x"]
    built = FailedData(reason="it did not compile", diagnostics=[])
    assert judge(drain, AnswerRun("failed", failure=built)).failed == ["build"]


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
        (lambda t: t.replace("connections = 1\n", "connections = 99999\n"), "its run: connections"),
        (lambda t: t.replace('title = "', 'titel = "'), "titel"),
        (
            lambda t: t.replace('fails = "reads-until-eagain"', 'fails = "too-slow"'),
            "wrong answer 'retries-eagain' fails with 'too-slow': name one of its criteria",
        ),
        (
            lambda t: t.replace('syscall = "read"', 'syscall = "reed"'),
            "names no syscall the counter counts",
        ),
        (
            lambda t: t.replace('name = "fixed-reads"', 'name = "level-triggered"'),
            "the wrong answer name 'level-triggered' is used twice",
        ),
        (
            lambda t: t.replace('id = "answers-all"', 'id = "Answers All"'),
            "criteria.0.id",
        ),
        (
            lambda t: t.replace("           (edge_triggered ? EPOLLET : 0);\n", "nowhere\n", 1),
            "wrong answer 'level-triggered': change 1",
        ),
        (
            lambda t: t.replace(
                'server = "c-epoll"\n', 'server = "c-epoll"\nfile = "servers/c/epoll.h"\n'
            ),
            "file 'servers/c/epoll.h': edit the model file, or one of servers/c/protocol.c",
        ),
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


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda path: path.unlink(), "missing: every exercise is translated"),
        (
            lambda path: path.write_text(
                path.read_text().replace("hints = [\n", 'hints = [\n "多一条",\n')
            ),
            "4 hints for the English 3",
        ),
        (
            lambda path: path.write_text(
                path.read_text().replace("reads-until-eagain =", "reads =")
            ),
            "missing ['reads-until-eagain'], unknown ['reads']",
        ),
        (
            lambda path: path.write_text(path.read_text().replace("边缘触发", "边沿触发", 1)),
            "“边沿触发”: the course says “边缘触发”",
        ),
        (lambda path: path.write_text(path.read_text() + "\nsolution = 1\n"), "solution"),
    ],
)
def test_the_content_check_says_what_is_wrong_with_a_translation(
    course: Settings, change: Any, said: str
) -> None:
    from c10klab.content.check import check_course

    change(course.content_dir / "zh" / "exercises" / "et-drain.toml")
    _, problems = check_course(course)
    assert any(p.startswith("zh/exercises/et-drain.toml") and said in p for p in problems), problems


def test_every_exercise_opens_at_the_function_its_starter_changed(client: TestClient) -> None:
    for listed in client.get("/api/exercises").json():
        exercise = client.get(f"/api/exercises/{listed['slug']}").json()
        lines = exercise["starter"].split("\n")
        first = lines[exercise["opens_at"] - 1]
        # A function's first line, after the file's header comment.
        assert exercise["opens_at"] > 10, (listed["slug"], first)
        assert "(" in first and not first.startswith((" ", "\t", "#", "/")), (listed["slug"], first)
    et = client.get("/api/exercises/et-drain").json()
    opening = et["starter"].split("\n")[et["opens_at"] - 1]
    assert opening == "static void handle_readable(struct conn *c)"


def test_opens_at_finds_the_enclosing_function_or_falls_back() -> None:
    from c10klab.exercises.schemas import Change
    from c10klab.exercises.service import opens_at

    starter = (
        "/* header */\n#include <x.h>\n\nstatic int\nhelper(int a);\n\n"
        "static void handle(int fd,\n    int n)\n{\n    if (n) {\n        bug();\n    }\n}\n"
    )
    assert opens_at(starter, [Change(find="fix();", replace="bug();")]) == 7
    # A change outside any function is shown where it is; one that cannot be placed, the top.
    assert opens_at("int x;\nint y = 2;\n", [Change(find="1", replace="y = 2")]) == 2
    assert opens_at("a();\na();\n", [Change(find="b", replace="a();")]) == 1
