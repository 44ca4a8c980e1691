"""The class board (every student's latest result per experiment, the reference, the spread)
and the CSV an instructor takes away, read back."""

import csv
import io
from typing import Any

import pytest

from tests.results.figures import checked, done
from tests.runs.leases import claim

from .conftest import Course, make_class, result

LESSON = "01-c10k-problem"


def experiments(course: Course, lesson: str = LESSON) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = (
        course.browser().get(f"/api/lessons/{lesson}").json()["experiments"]
    )
    return found


def finish_next(
    course: Course,
    qps: float,
    p99_us: float = 900.0,
    valid: bool = True,
    sigma: float | None = None,
    stable: bool = True,
) -> None:
    figures = result(qps, p99_us, valid, sigma, stable)
    course.store.finish(claim(course.store), "done", done(figures))


def test_the_board_puts_each_students_latest_result_beside_the_reference(course: Course) -> None:
    grace = course.instructor()
    klass = make_class(grace)
    key = experiments(course)[0]["key"]
    body = {"server": "c-epoll", "lesson": LESSON, "experiment": key}
    ana, bo, cy, di, _eve = (
        course.student(klass["join_code"], n) for n in ("Ana", "Bo", "Cy", "Di", "Eve")
    )
    ana.post("/api/runs", json=body)
    finish_next(course, 1000)
    ana.post("/api/runs", json=body)  # her latest counts
    finish_next(course, 3000, p99_us=500)
    bo.post("/api/runs", json=body)
    finish_next(course, 2000)
    cy.post("/api/runs", json=body)
    finish_next(course, 9, valid=False)  # shown, not counted in the spread
    di.post("/api/runs", json=body)
    finish_next(course, 7000, stable=False)  # disturbed while measured: not counted either
    ana.post("/api/runs", json={"server": "c-epoll"})  # no experiment: not on the board
    finish_next(course, 50_000)

    board = bo.get(f"/api/classes/{klass['id']}/board")  # students see their class's board
    assert board.status_code == 200
    entry = next(e for e in board.json()["experiments"] if e["experiment"] == key)
    assert entry["kind"] == "run" and entry["lesson_title"]
    assert [(r["name"], r["qps"], r["valid"]) for r in entry["results"]] == [
        ("Ana", 3000, True),
        ("Bo", 2000, True),
        ("Cy", 9, False),
        ("Di", 7000, True),
    ]
    assert entry["results"][0]["p99_us"] == 500
    assert entry["spread"]["qps"] == {"median": 2500, "min": 2000, "max": 3000, "count": 2}
    assert entry["spread"]["left_out"] == 2  # Cy's invalid result and Di's unstable one
    assert [s["name"] for s in entry["not_run"]] == ["Eve"]
    reference = entry["reference"]
    assert reference["name"] == "reference" and reference["person_id"] is None
    assert reference["qps"] > 0  # content/baselines' recording of this very block
    # Every experiment of the course is listed, lesson by lesson in course order.
    listed = [(e["lesson"], e["experiment"]) for e in board.json()["experiments"]]
    assert [x for x in listed if x[0] == LESSON] == [
        (LESSON, e["key"]) for e in experiments(course)
    ]
    order = [x["slug"] for x in course.browser().get("/api/lessons").json()]
    assert listed == sorted(listed, key=lambda x: order.index(x[0]))


def test_each_students_run_is_a_verdict_against_the_reference_within_their_hosts_noise(
    course: Course,
) -> None:
    grace = course.instructor()
    klass = make_class(grace)
    key = experiments(course)[0]["key"]
    body = {"server": "c-epoll", "lesson": LESSON, "experiment": key}
    board_of = f"/api/classes/{klass['id']}/board"
    recorded = next(e for e in grace.get(board_of).json()["experiments"] if e["experiment"] == key)[
        "reference"
    ]["qps"]
    students = {n: course.student(klass["join_code"], n) for n in ("Ana", "Bo", "Cy", "Di")}
    for name, qps, valid, sigma in (
        ("Ana", recorded * 1.02, True, 0.04),  # within ±1.96·0.04·√2 ≈ ±11 %
        ("Bo", recorded * 0.5, True, 0.04),
        ("Cy", recorded * 0.5, True, None),  # its runner did not know its noise: the recording's
        ("Di", recorded * 0.5, False, 0.04),  # invalid: nothing to compare
    ):
        students[name].post("/api/runs", json=body)
        finish_next(course, qps, valid=valid, sigma=sigma)

    entry = next(e for e in grace.get(board_of).json()["experiments"] if e["experiment"] == key)
    verdicts = {r["name"]: r["verdict"] for r in entry["results"]}
    assert verdicts["Ana"]["call"] == "no_difference"
    assert verdicts["Ana"]["change"]["low"] < 0.02 < verdicts["Ana"]["change"]["high"]
    assert verdicts["Bo"]["call"] == "lower" and verdicts["Bo"]["reference"] == "reference"
    assert verdicts["Bo"]["change"]["estimate"] == pytest.approx(-0.5)
    # the recording's host noise (6.8 %, backfilled) stands for the side that had none
    assert verdicts["Cy"]["call"] == "lower" and verdicts["Cy"]["change"]["method"] == "host_noise"
    # both sides scatter: about ±t·√(0.04² + 0.068²), not ±t·0.04·√2 (0.23 wide)
    assert verdicts["Ana"]["change"]["high"] - verdicts["Ana"]["change"]["low"] > 0.28
    assert verdicts["Di"] is None
    assert entry["reference"]["verdict"] is None


def test_a_series_on_the_board_has_a_line_per_student_and_a_spread_per_point(
    course: Course,
) -> None:
    grace = course.instructor()
    klass = make_class(grace)
    lesson = "04-select-and-poll"
    series = next(e for e in experiments(course, lesson) if e["kind"] == "series")
    body = {
        "servers": ["c-poll"],
        "vary": "connections",
        "values": [10, 20],
        "lesson": lesson,
        "experiment": series["key"],
    }
    for name, qps in (("Ana", 100.0), ("Bo", 300.0)):
        student = course.student(klass["join_code"], name)
        assert student.post("/api/sweeps", json=body).status_code == 202
        finish_next(course, qps)
        finish_next(course, qps * 2)
    board = grace.get(f"/api/classes/{klass['id']}/board").json()
    entry = next(e for e in board["experiments"] if e["experiment"] == series["key"])
    assert entry["kind"] == "series" and entry["vary"] == "connections"
    assert [[p["qps"] for p in r["points"]] for r in entry["results"]] == [[100, 200], [300, 600]]
    assert [(p["value"], p["qps"]["median"]) for p in entry["spread"]["points"]] == [
        (10, 200),
        (20, 400),
    ]
    assert entry["reference"]["points"]  # the recorded series


def test_the_csv_has_a_row_per_run_with_names_and_figures(course: Course) -> None:
    grace = course.instructor()
    klass = make_class(grace, "Systems / Tuesday")
    key = experiments(course)[0]["key"]
    ana = course.student(klass["join_code"], "=HYPERLINK(1)")  # a spreadsheet must not run it
    bo = course.student(klass["join_code"], "Bo")
    ana.post("/api/runs", json={"server": "c-epoll", "lesson": LESSON, "experiment": key})
    finish_next(course, 1234.5, p99_us=800)
    bo.post("/api/runs", json={"server": "c-poll", "knobs": {}})  # still waiting
    grace.post(f"/api/classes/{klass['id']}/end")

    answer = grace.get(f"/api/classes/{klass['id']}/runs.csv")  # readable after the end
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/csv")
    assert 'filename="Systems---Tuesday-runs.csv"' in answer.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    assert len(rows) == 2
    first, second = rows
    assert first["student"] == "'=HYPERLINK(1)"
    assert (first["lesson"], first["experiment"], first["server"]) == (LESSON, key, "c-epoll")
    assert first["title"] == experiments(course)[0]["title"]
    assert (float(first["qps"]), float(first["p99_us"]), first["valid"]) == (1234.5, 800, "True")
    assert first["connections"] == "100" and first["knobs"] == "{}"
    assert (second["student"], second["status"], second["qps"]) == ("Bo", "cancelled", "")
    assert "class" in second["error"] and "ended" in second["error"]
    # The class's CSV is the instructor's; Ana, read-only now, exports her own runs.
    assert ana.get(f"/api/classes/{klass['id']}/runs.csv").status_code == 403
    own = list(csv.DictReader(io.StringIO(ana.get("/api/progress/results.csv").text)))
    assert [row["student"] for row in own] == ["'=HYPERLINK(1)"]


def test_a_passed_edit_check_and_a_chinese_class_name_give_no_server_error(course: Course) -> None:
    """Issue 23.2: the class's runs panel failed with a KeyError once a student's edited server
    passed its check (a check ends done with no figures), and the CSV's file name broke the
    header when the class name was not Latin-1."""
    grace = course.instructor()
    klass = make_class(grace, "网络编程 一班")
    ana = course.student(klass["join_code"], "Ana")
    source = (course.settings.sandboxes_dir / "servers" / "c" / "epoll.c").read_text()
    assert (
        ana.post("/api/variants", json={"server": "c-epoll", "source": source}).status_code == 202
    )
    run = course.store.claim_next()
    assert run is not None and run.lease is not None and run.request.check_only
    passed = {
        "build": {"status": "compiled", "seconds": 2.0},
        "checks": [{"protocol": p, "ok": True, "passed": ["echo-one"]} for p in ("echo", "http")],
    }
    course.store.finish(run.lease, "done", checked(passed))

    queue = grace.get(f"/api/classes/{klass['id']}/queue")
    assert queue.status_code == 200, queue.text
    [entry] = queue.json()["runs"]
    assert (entry["status"], entry["qps"]) == ("done", None)
    exported = grace.get(f"/api/classes/{klass['id']}/runs.csv")
    assert exported.status_code == 200, exported.text
    disposition = exported.headers["content-disposition"]
    assert 'filename="runs.csv"' in disposition  # the ASCII fallback
    assert "filename*=UTF-8''%E7%BD%91%E7%BB%9C%E7%BC%96%E7%A8%8B-%E4%B8%80%E7%8F%AD-runs.csv" in (
        disposition
    )
    assert grace.get(f"/api/classes/{klass['id']}/board").status_code == 200


def test_the_instructors_own_runs_are_the_classs_while_it_runs(course: Course) -> None:
    """Issue 26.6: what the instructor ran while teaching is in the class's runs and its CSV
    (not on its board or in its spread: those are the students')."""
    grace = course.instructor()
    before = grace.post("/api/runs", json={"server": "c-epoll"}).json()["id"]
    finish_next(course, 4000)
    klass = make_class(grace)
    ana = course.student(klass["join_code"], "Ana")
    shown = grace.post("/api/runs", json={"server": "c-epoll"}).json()["id"]
    finish_next(course, 5000)
    ana.post("/api/runs", json={"server": "c-epoll"})
    finish_next(course, 3000)

    queue = grace.get(f"/api/classes/{klass['id']}/queue").json()["runs"]
    assert {(r["id"], r["owner_name"]) for r in queue} >= {(shown, "Grace")}
    assert before not in {r["id"] for r in queue}  # made before the class began
    rows = list(csv.DictReader(io.StringIO(grace.get(f"/api/classes/{klass['id']}/runs.csv").text)))
    assert sorted(r["student"] for r in rows) == ["Ana", "Grace"]
    # Ana's own export is hers alone.
    own = list(csv.DictReader(io.StringIO(ana.get("/api/progress/results.csv").text)))
    assert [r["student"] for r in own] == ["Ana"]
