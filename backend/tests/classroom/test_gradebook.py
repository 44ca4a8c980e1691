"""Assignments and the gradebook: an instructor assigns exercises (with a due time), students
answer them, and the gradebook says who passed which, after how many attempts, and how the
newest answer went. The check runs are finished here by hand (their real runs are
make test-exercises' and the classroom's browser test's)."""

import csv
import io
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from c10klab.results.schemas import FailedData, FailedEvent
from tests.results.figures import done
from tests.runs.leases import claim

from .conftest import Course, make_class, result

SELECT = "select-value-result"  # judged by errors_at_most: a clean result passes it
FORKING = "fork-per-connection"


def answer(course: Course, student: httpx.Client, slug: str, passes: bool) -> str:
    """Submit an answer to `slug` and end its check run: done and clean, or failed."""
    exercise = student.get(f"/api/exercises/{slug}").json()
    body = {"server": exercise["server"], "source": exercise["starter"], "exercise": slug}
    created = student.post("/api/variants", json=body)
    assert created.status_code == 202, created.text
    lease = claim(course.store)
    if passes:
        course.store.finish(lease, "done", done(result(1000)))
    else:
        failure = FailedData(reason="check echo-sizes failed: no reply within 5000 ms")
        course.store.finish(lease, "failed", FailedEvent(type="failed", data=failure))
    variant_id: str = created.json()["id"]
    return variant_id


def cells(book: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (row["name"], cell["exercise"]): cell for row in book["students"] for cell in row["cells"]
    }


def test_the_gradebook_shows_who_passed_which_after_how_many_attempts(course: Course) -> None:
    grace = course.instructor()
    klass = make_class(grace)
    path = f"/api/classes/{klass['id']}"
    due = (datetime.now(UTC) + timedelta(days=7)).isoformat()
    assert grace.put(f"{path}/assignments/{SELECT}", json={"due_at": due}).status_code == 200
    assert grace.put(f"{path}/assignments/{FORKING}", json={}).status_code == 200
    ana, bo = (course.student(klass["join_code"], n) for n in ("Ana", "Bo"))

    answer(course, ana, SELECT, passes=False)
    passing = answer(course, ana, SELECT, passes=True)
    failing = answer(course, ana, FORKING, passes=False)

    book = grace.get(f"{path}/gradebook").json()
    assert [a["exercise"] for a in book["assignments"]] == [SELECT, FORKING]
    assert book["assignments"][0]["due_at"] is not None and book["assignments"][1]["due_at"] is None
    assert [(r["name"], r["passed"]) for r in book["students"]] == [("Ana", 1), ("Bo", 0)]
    grid = cells(book)
    select = grid[("Ana", SELECT)]
    assert (select["status"], select["attempts"], select["late"]) == ("passed", 2, False)
    assert select["last_variant_id"] == passing and select["passed_at"] is not None
    forking = grid[("Ana", FORKING)]
    assert (forking["status"], forking["attempts"], forking["failed"]) == ("failed", 1, ["run"])
    assert forking["last_variant_id"] == failing
    assert grid[("Bo", SELECT)]["status"] == "none" and grid[("Bo", SELECT)]["attempts"] == 0

    # The instructor opens the newest answer: its source and its check, read-only.
    opened = grace.get(f"/api/variants/{failing}")
    assert opened.status_code == 200 and opened.json()["verdict"]["status"] == "failed"

    # Each student sees the class's assignments with their own answers only.
    mine = {a["exercise"]: a["mine"] for a in ana.get(f"{path}/assignments").json()}
    assert mine[SELECT]["status"] == "passed" and mine[FORKING]["status"] == "failed"
    theirs = {a["exercise"]: a["mine"] for a in bo.get(f"{path}/assignments").json()}
    assert theirs[SELECT]["status"] == "none" and theirs[SELECT]["last_variant_id"] is None
    assert all(a["mine"] is None for a in grace.get(f"{path}/assignments").json())


def test_a_pending_answer_is_pending_and_a_new_one_after_a_pass_keeps_it_passed(
    course: Course,
) -> None:
    grace = course.instructor()
    klass = make_class(grace)
    path = f"/api/classes/{klass['id']}"
    grace.put(f"{path}/assignments/{SELECT}", json={})
    ana = course.student(klass["join_code"], "Ana")
    exercise = ana.get(f"/api/exercises/{SELECT}").json()
    body = {"server": exercise["server"], "source": exercise["starter"], "exercise": SELECT}
    assert ana.post("/api/variants", json=body).status_code == 202
    assert cells(grace.get(f"{path}/gradebook").json())[("Ana", SELECT)]["status"] == "pending"
    course.store.finish(claim(course.store), "done", done(result(1000)))
    answer(course, ana, SELECT, passes=False)  # a later answer failing does not undo the pass
    cell = cells(grace.get(f"{path}/gradebook").json())[("Ana", SELECT)]
    assert (cell["status"], cell["attempts"], cell["failed"]) == ("passed", 2, [])


def test_the_gradebook_csv_has_a_row_per_student_and_exercise(course: Course) -> None:
    grace = course.instructor()
    klass = make_class(grace, name="网络编程 一班")
    path = f"/api/classes/{klass['id']}"
    grace.put(f"{path}/assignments/{SELECT}", json={})
    ana = course.student(klass["join_code"], "=Ana")  # a name a spreadsheet would run
    answer(course, ana, SELECT, passes=True)
    download = grace.get(f"{path}/gradebook.csv")
    assert download.status_code == 200
    assert download.headers["content-type"].startswith("text/csv")
    assert "gradebook.csv" in download.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(download.text)))
    assert len(rows) == 1
    assert rows[0]["student"] == "'=Ana" and rows[0]["exercise"] == SELECT
    assert (rows[0]["status"], rows[0]["attempts"], rows[0]["late"]) == ("passed", "1", "")


def test_only_the_classes_instructor_assigns_and_reads_the_gradebook(course: Course) -> None:
    grace, linus = course.instructor(), course.instructor("Linus")
    klass = make_class(grace)
    path = f"/api/classes/{klass['id']}"
    ana = course.student(klass["join_code"], "Ana")
    # A student is refused (403); another instructor is told of no such class of theirs (404).
    for who, status in ((ana, 403), (linus, 404)):
        assert who.put(f"{path}/assignments/{SELECT}", json={}).status_code == status
        assert who.get(f"{path}/gradebook").status_code == status
        assert who.get(f"{path}/gradebook.csv").status_code == status
        assert who.delete(f"{path}/assignments/{SELECT}").status_code == status
    assert linus.get(f"{path}/assignments").status_code == 404
    assert course.browser().get(f"{path}/gradebook").status_code == 401


def test_bad_assignments_are_refused_with_what_to_do(course: Course) -> None:
    grace = course.instructor()
    path = f"/api/classes/{make_class(grace)['id']}"
    missing = grace.put(f"{path}/assignments/no-such-exercise", json={})
    assert missing.status_code == 404 and "no exercise" in missing.text
    past = (datetime.now(UTC) - timedelta(hours=1)).isoformat()
    late = grace.put(f"{path}/assignments/{SELECT}", json={"due_at": past})
    assert late.status_code == 422 and "has passed" in late.text
    naive = grace.put(f"{path}/assignments/{SELECT}", json={"due_at": "2030-01-01T10:00:00"})
    assert naive.status_code == 422 and "due_at" in naive.text
    assert grace.get(f"{path}/assignments").json() == []  # nothing was assigned
    gone = grace.delete(f"{path}/assignments/{SELECT}")
    assert gone.status_code == 404 and "not assigned" in gone.text

    # Assigned again: the due time changes, when it was first assigned does not.
    first = grace.put(f"{path}/assignments/{SELECT}", json={}).json()
    due = (datetime.now(UTC) + timedelta(days=2)).isoformat()
    again = grace.put(f"{path}/assignments/{SELECT}", json={"due_at": due}).json()
    assert again["assigned_at"] == first["assigned_at"] and again["due_at"] is not None
    assert grace.delete(f"{path}/assignments/{SELECT}").status_code == 204
    assert grace.get(f"{path}/assignments").json() == []
