"""The tools of a live class (issue 26.5), on a real server and the real store: a raised hand
on the roster, the class timer and announcements on every student's stream, and the lessons'
Check yourself questions answered in class, their answers hidden until revealed."""

import re
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

from c10klab.config import Settings
from c10klab.main import create_app
from tests.classroom.conftest import ClassStream, Course, make_class

LESSON = "01-c10k-problem"
ANSWER_TWO = "It is glibc's fixed `fd_set`"


def _roster(instructor: httpx.Client, class_id: str) -> dict[str, dict[str, Any]]:
    return {e["name"]: e for e in instructor.get(f"/api/classes/{class_id}/roster").json()}


def _check_yourself(markdown: str) -> str:
    return markdown[markdown.index("## Check yourself") : markdown.index("## Next")]


def test_a_raised_hand_shows_on_the_roster_with_where_the_student_is(course: Course) -> None:
    grace = course.instructor()
    klass = make_class(grace)
    ana = course.student(klass["join_code"], "Ana")
    hands = f"/api/classes/{klass['id']}/hand"
    key = course.browser().get(f"/api/lessons/{LESSON}").json()["experiments"][0]["key"]

    assert ana.get(hands).json() is None
    up = ana.put(hands, json={"lesson": LESSON, "experiment": key})
    assert up.status_code == 200 and up.json()["lesson_title"] == "The C10K problem"
    hand = _roster(grace, klass["id"])["Ana"]["hand"]
    assert hand["experiment"] == key and hand["experiment_title"]
    assert ana.get(hands).json()["lesson"] == LESSON

    # Only a student raises a hand, at a lesson and experiment that exist.
    assert grace.put(hands, json={}).status_code == 403
    nowhere = ana.put(hands, json={"lesson": "99-nothing"})
    assert nowhere.status_code == 422 and "no lesson '99-nothing'" in nowhere.json()["detail"]
    alone = ana.put(hands, json={"experiment": key})
    assert alone.status_code == 422 and "give the lesson" in alone.json()["detail"]

    # The instructor lowers it (helped); the student can lower their own too.
    ana_id = _roster(grace, klass["id"])["Ana"]["id"]
    assert grace.delete(f"/api/classes/{klass['id']}/hands/{ana_id}").status_code == 204
    assert _roster(grace, klass["id"])["Ana"]["hand"] is None
    assert grace.delete(f"/api/classes/{klass['id']}/hands/{ana_id}").status_code == 404
    ana.put(hands, json={})
    assert ana.delete(hands).status_code == 204 and ana.get(hands).json() is None


def test_the_timer_and_announcements_reach_every_students_stream(course: Course) -> None:
    grace = course.instructor()
    klass = make_class(grace)
    ana = course.student(klass["join_code"], "Ana")
    stream = ClassStream(course, ana, klass["id"])
    assert stream.wait_for(lambda s: bool(s.of("live")))
    assert stream.of("live")[-1] == {"timer": None, "announcements": [], "revealed": []}
    base = f"/api/classes/{klass['id']}"

    timer = grace.put(f"{base}/timer", json={"minutes": 5, "label": "Exercise 2"})
    assert timer.status_code == 200
    assert stream.wait_for(lambda s: s.of("live")[-1]["timer"] is not None)
    shown = stream.of("live")[-1]["timer"]
    assert shown["label"] == "Exercise 2" and shown["ends_at"] > shown["started_at"]

    sent = grace.post(f"{base}/announcements", json={"text": "  Try 1,000 connections next  "})
    assert sent.status_code == 201 and sent.json()["text"] == "Try 1,000 connections next"
    assert stream.wait_for(lambda s: len(s.of("live")[-1]["announcements"]) == 1)
    assert grace.delete(f"{base}/timer").status_code == 204
    assert stream.wait_for(lambda s: s.of("live")[-1]["timer"] is None)
    assert ana.get(f"{base}/live").json()["announcements"][0]["text"] == sent.json()["text"]

    # Only the instructor; and a note is one to 280 characters.
    assert ana.put(f"{base}/timer", json={"minutes": 5}).status_code == 403
    assert ana.post(f"{base}/announcements", json={"text": "hi"}).status_code == 403
    for bad in ({"text": "   "}, {"text": "x" * 281}):
        assert grace.post(f"{base}/announcements", json=bad).status_code == 422
    for minutes in (0, 181, -1):
        assert grace.put(f"{base}/timer", json={"minutes": minutes}).status_code == 422


def test_answers_stay_hidden_until_the_instructor_reveals_them(course: Course) -> None:
    grace = course.instructor()
    klass = make_class(grace)
    ana = course.student(klass["join_code"], "Ana")
    bo = course.student(klass["join_code"], "Bo")
    base = f"/api/classes/{klass['id']}/questions/{LESSON}"

    # A student's lesson marks each question and leaves its answer out; the instructor's
    # keeps them; someone in no class sees none either (signing out is no way round it).
    section = _check_yourself(ana.get(f"/api/lessons/{LESSON}").json()["markdown"])
    assert re.findall(r'data-question="(\d)"', section) == ["1", "2", "3", "4"]
    assert "<details>" not in section and ANSWER_TWO not in section
    teacher = _check_yourself(grace.get(f"/api/lessons/{LESSON}").json()["markdown"])
    assert teacher.count("<details>") == 4 and 'data-question="4"' in teacher
    assert "<details>" not in _check_yourself(
        course.browser().get(f"/api/lessons/{LESSON}").json()["markdown"]
    )

    answered = ana.put(f"{base}/2/answer", json={"answer": "No: glibc's FD_SETSIZE"})
    assert answered.status_code == 200
    assert answered.json()["questions"][1] == {
        "question": 2,
        "revealed": False,
        "mine": "No: glibc's FD_SETSIZE",
        "answers": [],
    }
    bo.put(f"{base}/2/answer", json={"answer": "yes"})
    bo.put(f"{base}/2/answer", json={"answer": "no, the library"})  # again: replaced
    # The instructor sees every answer, by name; a student only their own.
    given = grace.get(base).json()["questions"][1]["answers"]
    assert [(a["name"], a["answer"]) for a in given] == [
        ("Ana", "No: glibc's FD_SETSIZE"),
        ("Bo", "no, the library"),
    ]
    assert bo.get(base).json()["questions"][1]["answers"] == []

    assert ana.put(f"{base}/2/revealed").status_code == 403
    revealed = grace.put(f"{base}/2/revealed")
    assert revealed.status_code == 200 and revealed.json()["questions"][1]["revealed"]
    section = _check_yourself(ana.get(f"/api/lessons/{LESSON}").json()["markdown"])
    assert ANSWER_TWO in section and section.count("<details>") == 1
    assert grace.delete(f"{base}/2/revealed").status_code == 200
    assert ANSWER_TWO not in _check_yourself(ana.get(f"/api/lessons/{LESSON}").json()["markdown"])

    # Questions are numbered 1 to 4 in this lesson; lessons that do not exist are 404s.
    missing = ana.put(f"{base}/5/answer", json={"answer": "x"})
    assert missing.status_code == 404 and "numbered 1 to 4" in missing.json()["detail"]
    assert ana.get(f"/api/classes/{klass['id']}/questions/99-nothing").status_code == 404
    assert grace.put(f"{base}/1/answer", json={"answer": "x"}).status_code == 403
    assert ana.put(f"{base}/1/answer", json={"answer": " "}).status_code == 422


def test_solo_mode_keeps_every_answer_in_the_lesson(tmp_path: Path) -> None:
    """Nothing changes outside classroom mode: no markers, every answer there to open."""
    with TestClient(create_app(Settings(db_path=tmp_path / "solo.sqlite3"))) as solo:
        section = _check_yourself(solo.get(f"/api/lessons/{LESSON}").json()["markdown"])
    assert section.count("<details>") == 4 and "class-question" not in section
