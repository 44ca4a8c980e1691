"""What a lesson shows whom (speaker notes), and where a run says it comes from."""

from fastapi.testclient import TestClient

from c10klab.config import Settings
from c10klab.main import create_app

from .conftest import Course, make_class

LESSON = "01-c10k-problem"
NOTES = 'class="speaker-notes"'


def test_speaker_notes_are_for_the_instructor_only(course: Course) -> None:
    grace = course.instructor()
    klass = make_class(grace)
    ana = course.student(klass["join_code"], "Ana")
    assert NOTES in grace.get(f"/api/lessons/{LESSON}").json()["markdown"]
    for reader in (ana, course.browser()):
        markdown = reader.get(f"/api/lessons/{LESSON}").json()["markdown"]
        assert NOTES not in markdown and "Speaker notes" not in markdown
        assert "```experiment" in markdown  # the rest of the lesson is all there


def test_solo_mode_keeps_the_notes_and_has_no_classes(settings: Settings) -> None:
    with TestClient(create_app(settings)) as solo:
        assert NOTES in solo.get(f"/api/lessons/{LESSON}").json()["markdown"]
        for path in ("/api/progress", "/api/classes/x/board", "/api/classes/x/events"):
            answer = solo.get(path)
            assert answer.status_code == 404 and "solo mode" in answer.json()["detail"], path


def test_a_run_names_a_real_lesson_and_experiment(course: Course) -> None:
    grace = course.instructor()
    experiments = grace.get(f"/api/lessons/{LESSON}").json()["experiments"]
    assert experiments and all(len(e["key"]) == 12 for e in experiments)
    assert experiments[0]["kind"] == "run" and experiments[0]["source"].startswith("id:")
    key = experiments[0]["key"]
    good = grace.post("/api/runs", json={"server": "c-epoll", "lesson": LESSON, "experiment": key})
    assert good.status_code == 202
    stored = grace.get(f"/api/runs/{good.json()['id']}").json()["request"]
    assert (stored["lesson"], stored["experiment"]) == (LESSON, key)
    untagged = grace.post("/api/runs", json={"server": "c-epoll"}).json()["id"]
    assert grace.get(f"/api/runs/{untagged}").json()["request"]["lesson"] is None
    cases = [
        ({"lesson": "99-none"}, "no lesson"),
        ({"lesson": LESSON, "experiment": "ffffffffffff"}, "has no experiment"),
        ({"experiment": key}, "give the lesson"),
        ({"lesson": LESSON, "experiment": "XYZ"}, "experiment"),
    ]
    for tags, says in cases:
        answer = grace.post("/api/runs", json={"server": "c-epoll", **tags})
        assert answer.status_code == 422 and says in answer.json()["detail"], answer.text
    sweep = grace.post(
        "/api/sweeps",
        json={"servers": ["c-epoll"], "vary": "connections", "values": [5], "lesson": "99-none"},
    )
    assert sweep.status_code == 422 and "no lesson" in sweep.json()["detail"]
