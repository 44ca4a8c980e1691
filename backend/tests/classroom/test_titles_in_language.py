"""A class read in Chinese names its lessons and experiments in Chinese (issue 26.6): the
board and the roster's raised hands in the language asked for, and a presentation in every
language at once, since one class stream reaches readers of each."""

from tests.classroom.conftest import Course, make_class

LESSON = "01-c10k-problem"
EPOLL_100 = {"en": "100 connections on one epoll thread", "zh": "一个 epoll 线程上的 100 个连接"}
LESSON_TITLES = {"en": "The C10K problem", "zh": "C10K 问题"}


def _first_key(course: Course) -> str:
    experiments = course.browser().get(f"/api/lessons/{LESSON}").json()["experiments"]
    key: str = next(e["key"] for e in experiments if e["title"] == EPOLL_100["en"])
    return key


def test_the_board_and_a_raised_hand_are_titled_in_the_language_asked_for(
    course: Course,
) -> None:
    grace = course.instructor()
    klass = make_class(grace)
    ana = course.student(klass["join_code"], "Ana")
    key = _first_key(course)
    base = f"/api/classes/{klass['id']}"

    for lang in ("en", "zh"):
        board = grace.get(f"{base}/board", params={"lang": lang}).json()
        shown = next(e for e in board["experiments"] if e["experiment"] == key)
        assert (shown["title"], shown["lesson_title"]) == (EPOLL_100[lang], LESSON_TITLES[lang])

    up = ana.put(f"{base}/hand", params={"lang": "zh"}, json={"lesson": LESSON, "experiment": key})
    assert up.json()["experiment_title"] == EPOLL_100["zh"]
    for lang in ("en", "zh"):
        roster = grace.get(f"{base}/roster", params={"lang": lang}).json()
        hand = next(s for s in roster if s["name"] == "Ana")["hand"]
        assert (hand["lesson_title"], hand["experiment_title"]) == (
            LESSON_TITLES[lang],
            EPOLL_100[lang],
        )
    refused = grace.get(f"{base}/board", params={"lang": "fr"})
    assert refused.status_code == 422


def test_a_presentation_carries_its_titles_in_every_language(course: Course) -> None:
    grace = course.instructor()
    klass = make_class(grace)
    key = _first_key(course)
    path = f"/api/classes/{klass['id']}/presentation"

    shown = grace.put(path, json={"lesson": LESSON, "experiment": key}).json()
    assert shown["titles"] == EPOLL_100 and shown["lesson_titles"] == LESSON_TITLES
    assert grace.get(path).json()["titles"] == EPOLL_100

    # A title the instructor gives is theirs, in every language.
    named = grace.put(path, json={"lesson": LESSON, "experiment": key, "title": "Look here"})
    assert named.json()["titles"] == {"en": "Look here", "zh": "Look here"}
    # A lesson presented without a block is titled by the lesson, in each language.
    whole = grace.put(path, json={"lesson": LESSON}).json()
    assert whole["titles"] == LESSON_TITLES
