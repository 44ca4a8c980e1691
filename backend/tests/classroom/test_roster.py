"""The roster: who joined, who is online (an open class stream), where each is, what each read."""

import time
from typing import Any

import httpx

from c10klab.classroom.store import ONLINE_WITHIN_S

from .conftest import ClassStream, Course, make_class, wait_until

LESSON = "01-c10k-problem"


def roster(instructor: httpx.Client, class_id: str) -> dict[str, dict[str, Any]]:
    answer = instructor.get(f"/api/classes/{class_id}/roster")
    assert answer.status_code == 200, answer.text
    return {entry["name"]: entry for entry in answer.json()}


def test_the_roster_follows_who_is_online_and_where(course: Course) -> None:
    grace = course.instructor()
    klass = make_class(grace)
    ana = course.student(klass["join_code"], "Ana")
    course.student(klass["join_code"], "Bo")
    listed = roster(grace, klass["id"])
    assert list(listed) == ["Ana", "Bo"]  # joining order
    assert not listed["Ana"]["online"] and listed["Ana"]["lesson"] is None

    stream = ClassStream(course, ana, klass["id"])
    assert wait_until(lambda: roster(grace, klass["id"])["Ana"]["online"])
    assert not roster(grace, klass["id"])["Bo"]["online"]

    assert ana.put("/api/progress/current", json={"lesson": LESSON}).status_code == 200
    assert ana.put(f"/api/progress/read/{LESSON}").json() == {"read": [LESSON], "current": LESSON}
    ana.put("/api/progress/read/02-blocking-servers")
    entry = roster(grace, klass["id"])["Ana"]
    assert (entry["lesson"], entry["lessons_read"]) == (LESSON, 2)
    assert ana.delete("/api/progress/read/02-blocking-servers").json()["read"] == [LESSON]

    # A second tab is the same person: closing one keeps them online.
    second = ClassStream(course, ana, klass["id"])
    assert second.wait_for(lambda s: bool(s.of("class")))
    second.close()
    time.sleep(0.5)  # time for the closed tab to count
    assert roster(grace, klass["id"])["Ana"]["online"]

    stream.close()  # the last tab: offline, well within the bound
    assert wait_until(lambda: not roster(grace, klass["id"])["Ana"]["online"], ONLINE_WITHIN_S)


def test_progress_is_per_person_and_checked(course: Course) -> None:
    grace = course.instructor()
    klass = make_class(grace)
    ana = course.student(klass["join_code"], "Ana")
    bo = course.student(klass["join_code"], "Bo")
    ana.put(f"/api/progress/read/{LESSON}")
    assert bo.get("/api/progress").json() == {"read": [], "current": None}
    missing = ana.put("/api/progress/read/99-nothing")
    assert missing.status_code == 404 and "GET /api/lessons" in missing.json()["detail"]
    assert ana.put("/api/progress/current", json={"lesson": "Not a slug"}).status_code == 422
    assert course.browser().get("/api/progress").status_code == 401


def test_only_the_instructor_of_the_class_sees_its_roster(course: Course) -> None:
    grace = course.instructor()
    klass = make_class(grace)
    other = make_class(course.instructor("Linus"), "Networks")
    ana = course.student(klass["join_code"], "Ana")
    assert ana.get(f"/api/classes/{klass['id']}/roster").status_code == 403
    assert course.instructor("Linus").get(f"/api/classes/{klass['id']}/roster").status_code == 404
    # A student reads their own class (without its join code), not another.
    mine = ana.get(f"/api/classes/{klass['id']}").json()
    assert mine["name"] == "Systems, Tuesday" and mine["join_code"] == ""
    assert ana.get(f"/api/classes/{other['id']}").status_code == 403
    assert ana.get(f"/api/classes/{other['id']}/events").status_code == 403


def test_a_removed_student_is_signed_out_and_their_waiting_runs_cancelled(course: Course) -> None:
    grace = course.instructor()
    klass = make_class(grace)
    ana = course.student(klass["join_code"], "Ana")
    stream = ClassStream(course, ana, klass["id"])
    assert stream.wait_for(lambda s: bool(s.of("class")))
    run_id = ana.post("/api/runs", json={"server": "c-epoll"}).json()["id"]
    ana_id = roster(grace, klass["id"])["Ana"]["id"]

    assert grace.delete(f"/api/classes/{klass['id']}/students/{ana_id}").status_code == 204
    refused = ana.get("/api/runs")
    assert refused.status_code == 401 and "removed you from" in refused.json()["detail"]
    told = ana.get("/api/auth/me").json()["signed_out"]
    assert told["reason"] == "removed" and told["class_name"] == "Systems, Tuesday"
    assert stream.ended.wait(5)  # their class stream closes too
    assert grace.get(f"/api/runs/{run_id}").json()["status"] == "cancelled"
    assert roster(grace, klass["id"])["Ana"]["removed_at"] is not None
    # Removed means removed: nobody joins under the name until the instructor lets Ana in.
    back = course.browser().post(
        "/api/classes/join", json={"code": klass["join_code"], "name": "ana"}
    )
    assert back.status_code == 409 and "let you back in" in back.json()["detail"]
    # Removing twice is a 404 that says where to look.
    again = grace.delete(f"/api/classes/{klass['id']}/students/{ana_id}")
    assert again.status_code == 404 and "roster" in again.json()["detail"]


def test_an_instructor_cannot_remove_or_sign_out_a_student_of_another_class(
    course: Course,
) -> None:
    """Issue 23.1: removing someone who is not a student of the caller's class used to answer
    404 after their sessions were already gone, so they could not rejoin under their name."""
    grace, linus = course.instructor(), course.instructor("Linus")
    own, mine_too = make_class(grace), make_class(grace, "Systems, Thursday")
    theirs = make_class(linus, "Networks")
    bo = course.student(theirs["join_code"], "Bo")
    cy = course.student(mine_too["join_code"], "Cy")
    bo_id = roster(linus, theirs["id"])["Bo"]["id"]
    cy_id = roster(grace, mine_too["id"])["Cy"]["id"]
    grace_id = grace.get("/api/auth/me").json()["person"]["id"]

    for target in (bo_id, cy_id, grace_id):
        refused = grace.delete(f"/api/classes/{own['id']}/students/{target}")
        assert refused.status_code == 404 and "roster" in refused.json()["detail"]
    # nobody was signed out, and both still stand on their rosters
    assert bo.get("/api/runs").status_code == 200 and cy.get("/api/runs").status_code == 200
    assert grace.get("/api/classes").status_code == 200
    assert "Bo" in roster(linus, theirs["id"]) and "Cy" in roster(grace, mine_too["id"])
