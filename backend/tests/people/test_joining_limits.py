"""Joining a class, limited so that neither guessing codes nor joining under many names pays
(issue 23.7), on the real store."""

import re

from c10klab.config import Settings
from c10klab.people.store import PeopleStore
from tests.people.conftest import Browser, join, log_in, make_class

RUN = {"server": "c-epoll", "duration_s": 1, "warmup_s": 0}


def test_codes_are_ten_characters_and_codes_made_before_still_admit(
    browser: Browser, people: PeopleStore
) -> None:
    grace = log_in(browser(), "Grace")
    code = make_class(grace)
    assert re.fullmatch(r"[A-HJ-NP-Z2-9]{5}-[A-HJ-NP-Z2-9]{5}", code), code
    [teacher] = [p for p in people.instructors() if p.name == "Grace"]
    people.add_class("Made with 8", teacher.id, "K7QXM4TP")
    join(browser(), "K7QX-M4TP", "Ada")


def test_guessing_codes_is_limited_per_address(browser: Browser, classroom: Settings) -> None:
    """~250 wrong codes a second from one client used to be answered, every one."""
    grace = log_in(browser(), "Grace")
    code = make_class(grace)
    guesser = browser()
    for i in range(classroom.join_misses_per_address):
        miss = guesser.post("/api/classes/join", json={"code": f"AAAAA-{i:05d}", "name": "x"})
        assert miss.status_code == 404, miss.text
    refused = guesser.post("/api/classes/join", json={"code": code, "name": "Ada"})
    assert refused.status_code == 429, refused.text
    assert "too many join codes that match no class from your address" in refused.json()["detail"]
    assert int(refused.headers["Retry-After"]) > 0


def test_names_joined_into_a_class_are_limited_per_address_and_in_all(
    browser: Browser, classroom: Settings
) -> None:
    grace = log_in(browser(), "Grace")
    tuesday, thursday = make_class(grace, "Tuesday"), make_class(grace, "Thursday")
    classroom.joins_per_address = 3
    for name in ("Ada", "Bo", "Cy"):
        join(browser(), tuesday, name)
    fourth = browser().post("/api/classes/join", json={"code": tuesday, "name": "Dee"})
    assert fourth.status_code == 429, fourth.text
    assert "too many names joined this class from your address" in fourth.json()["detail"]
    join(browser(), thursday, "Dee")  # another class counts on its own

    classroom.joins_per_address = 100
    classroom.max_students_per_class = 4
    join(browser(), tuesday, "Dee")
    full = browser().post("/api/classes/join", json={"code": tuesday, "name": "Eve"})
    assert full.status_code == 409 and "is full (4 names" in full.json()["detail"], full.text


def test_new_names_do_not_bring_a_class_more_of_the_queue(
    browser: Browser, classroom: Settings
) -> None:
    """Each name a student joined under brought a fresh 40-run quota: five names filled the
    course's queue. Now a class's students together have a share of it."""
    grace = log_in(browser(), "Grace")
    ours, theirs = make_class(grace, "Ours"), make_class(grace, "Theirs")
    classroom.max_queued_per_person = 2
    classroom.max_queued_per_class = 5
    names = [join(browser(), ours, f"Mallory {i}") for i in range(3)]
    queued = [name.post("/api/runs", json=RUN).status_code for name in names for _ in range(2)]
    assert queued == [202] * 5 + [429]
    refused = names[2].post("/api/runs", json=RUN)
    assert refused.status_code == 429
    assert "your class already has 5 runs waiting" in refused.json()["detail"]
    # Another class, and the instructor, still queue.
    assert join(browser(), theirs, "Ada").post("/api/runs", json=RUN).status_code == 202
    assert grace.post("/api/runs", json=RUN).status_code == 202
