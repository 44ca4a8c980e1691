"""On PostgreSQL a class's stream is pushed by the store's notifications, not polled: with the
feed's safety look and its presence round an hour away, every change a student's stream shows
still reaches it at once. These run in the PostgreSQL pass (`pytest --store postgresql`)."""

import pytest

from c10klab import news
from c10klab.classroom import feed
from tests.classroom.conftest import ClassStream, Course, make_class

# Far below the hour the feed would otherwise wait, far above what a notification takes.
PROMPTLY_S = 3.0


@pytest.fixture
def pushed_only(database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if not database_url:
        pytest.skip("NOTIFY is PostgreSQL's: run with --store postgresql")
    monkeypatch.setattr(news, "LISTENING_CHECK_S", 3600.0)
    monkeypatch.setattr(feed, "PRESENCE_TOUCH_S", 3600.0)


@pytest.mark.usefixtures("pushed_only")
def test_every_change_a_class_stream_shows_is_pushed_to_it(course: Course) -> None:
    grace = course.instructor()
    klass = make_class(grace)
    class_id = klass["id"]
    ada = course.student(klass["join_code"], "Ada")
    stream = ClassStream(course, ada, class_id)
    assert stream.wait_for(lambda s: bool(s.of("class")) and bool(s.of("presentation")))
    # The feed reads once it has subscribed; give the LISTEN a moment to be in place.
    assert stream.wait_for(lambda s: False, 0.5) is False

    course.student(klass["join_code"], "Linus")
    assert stream.wait_for(lambda s: s.of("class")[-1]["students"] == 2, PROMPTLY_S)

    assert grace.post(f"/api/classes/{class_id}/pause").status_code == 200
    assert stream.wait_for(lambda s: s.of("class")[-1]["paused"], PROMPTLY_S)
    assert grace.post(f"/api/classes/{class_id}/resume").status_code == 200
    assert stream.wait_for(lambda s: not s.of("class")[-1]["paused"], PROMPTLY_S)

    lesson = {"lesson": "01-c10k-problem", "title": "Look here"}
    assert grace.put(f"/api/classes/{class_id}/presentation", json=lesson).status_code == 200
    assert stream.wait_for(lambda s: (s.of("presentation")[-1] or {}).get("title") == "Look here")
    assert grace.delete(f"/api/classes/{class_id}/presentation").status_code == 204
    assert stream.wait_for(lambda s: s.of("presentation")[-1] is None, PROMPTLY_S)

    assert grace.post(f"/api/classes/{class_id}/end").status_code == 200
    assert stream.wait_for(lambda s: bool(s.of("ended")) and s.ended.is_set(), PROMPTLY_S)


@pytest.mark.usefixtures("pushed_only")
def test_a_removed_students_stream_is_closed_at_once(course: Course) -> None:
    grace = course.instructor()
    klass = make_class(grace)
    ada = course.student(klass["join_code"], "Ada")
    ada_id = ada.get("/api/auth/me").json()["person"]["id"]
    stream = ClassStream(course, ada, klass["id"])
    assert stream.wait_for(lambda s: bool(s.of("class")))

    removed = grace.delete(f"/api/classes/{klass['id']}/students/{ada_id}")
    assert removed.status_code == 204, removed.text
    assert stream.ended.wait(PROMPTLY_S), "the removed student's stream stayed open"
