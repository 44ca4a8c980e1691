"""Pausing a class holds its waiting runs; ending it (by hand or at its planned time) closes it."""

import time
from datetime import UTC, datetime, timedelta

from c10klab.main import end_due_classes

from .conftest import ClassStream, Course, make_class, wait_until


def test_a_paused_class_waits_and_keeps_its_places(course: Course) -> None:
    grace = course.instructor()
    klass = make_class(grace)
    ana = course.student(klass["join_code"], "Ana")
    first = ana.post("/api/runs", json={"server": "c-epoll"}).json()
    assert (first["position"], first["held"]) == (1, False)

    paused = grace.post(f"/api/classes/{klass['id']}/pause")
    assert paused.status_code == 200 and paused.json()["paused"] is True
    assert ana.get(f"/api/classes/{klass['id']}").json()["paused"] is True
    run = ana.get(f"/api/runs/{first['id']}").json()
    assert (run["position"], run["wait_s"], run["held"]) == (None, None, True)
    second = ana.post("/api/runs", json={"server": "c-poll"}).json()  # queued, and held
    assert (second["position"], second["held"]) == (None, True)
    # The runner passes the class by, but the instructor's own run still goes.
    mine = grace.post("/api/runs", json={"server": "c-epoll"}).json()
    assert mine["position"] == 1
    claimed = course.store.claim_next()
    assert claimed is not None and claimed.id == mine["id"]
    assert course.store.claim_next() is None
    queue = grace.get(f"/api/classes/{klass['id']}/queue").json()
    assert queue["paused"] is True
    # The instructor's own run, made while the class runs, is listed with the class's.
    listed = [(r["owner_name"], r["held"]) for r in queue["runs"]]
    assert listed == [("Grace", False), ("Ana", True), ("Ana", True)]

    grace.post(f"/api/classes/{klass['id']}/resume")
    # What its event stream said: queued, held, and queued again at the head.
    events = course.store.events_after(first["id"])
    assert [(e.type, e.data.get("held", False)) for e in events] == [
        ("queued", False),
        ("queued", True),
        ("queued", False),
    ]
    assert events[-1].data["position"] == 1
    claimed = course.store.claim_next()
    assert claimed is not None and claimed.id == first["id"]


def test_pause_is_the_instructors(course: Course) -> None:
    grace = course.instructor()
    klass = make_class(grace)
    ana = course.student(klass["join_code"], "Ana")
    assert ana.post(f"/api/classes/{klass['id']}/pause").status_code == 403
    assert course.instructor("Linus").post(f"/api/classes/{klass['id']}/pause").status_code == 404


def test_a_class_ends_at_its_planned_time(course: Course) -> None:
    grace = course.instructor()
    soon = datetime.now(UTC) + timedelta(seconds=1)
    klass = make_class(grace, ends_at=soon.isoformat())
    assert klass["ends_at"].startswith(soon.isoformat(timespec="seconds")[:19])
    ana = course.student(klass["join_code"], "Ana")
    stream = ClassStream(course, ana, klass["id"])
    run_id = ana.post("/api/runs", json={"server": "c-epoll"}).json()["id"]
    time.sleep(1.2)
    # Past its end the code admits nobody at once, before the API's chores end it for good.
    refused = course.browser().post(
        "/api/classes/join", json={"code": klass["join_code"], "name": "Late"}
    )
    assert refused.status_code == 410 and "has ended" in refused.json()["detail"]
    end_due_classes(course.people, course.store)

    # The API's own chores may have begun ending it first, and cancel its runs a moment after.
    def status() -> str:
        return str(grace.get(f"/api/runs/{run_id}").json()["status"])

    assert wait_until(lambda: status() == "cancelled", 5), status()
    assert ana.get("/api/auth/me").json()["person"]["read_only_until"] is not None
    assert ana.post("/api/runs", json={"server": "c-epoll"}).status_code == 403
    assert stream.wait_for(lambda s: bool(s.of("ended")))
    assert stream.ended.wait(5)
    ended = grace.get(f"/api/classes/{klass['id']}").json()
    assert ended["ended_at"] is not None


def test_an_end_time_must_be_ahead_and_near(course: Course) -> None:
    grace = course.instructor()
    past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
    far = (datetime.now(UTC) + timedelta(days=30)).isoformat()
    for when, says in ((past, "has passed"), (far, "at most 14 days"), ("2026-12-01T10:00", "")):
        answer = grace.post("/api/classes", json={"name": "X", "ends_at": when})
        assert answer.status_code == 422 and says in answer.json()["detail"], answer.text
