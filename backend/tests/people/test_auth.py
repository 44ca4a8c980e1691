"""Logging in, joining a class, sessions and cross-site requests, on the real store."""

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from c10klab.config import Settings
from c10klab.people.service import COOKIE, DEVICE_COOKIE, DEVICE_DAYS
from c10klab.people.store import PeopleStore
from c10klab.people.tables import classes, sessions
from tests.people.conftest import (
    PASSWORD,
    Browser,
    Command,
    join,
    log_in,
    make_class,
    real_command,
)


def test_an_instructor_logs_in_with_a_session_cookie_the_page_cannot_read(
    browser: Browser,
) -> None:
    client = browser()
    nobody = {"mode": "classroom", "person": None, "class": None, "signed_out": None}
    assert client.get("/api/auth/me").json() == nobody
    answer = client.post("/api/auth/login", json={"name": " grace ", "password": PASSWORD})
    assert answer.status_code == 200 and answer.json()["kind"] == "instructor"
    cookie = answer.headers["set-cookie"]
    assert f"{COOKIE}=" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert "Secure" not in cookie  # plain http here; https (or C10K_COOKIE_SECURE) adds it
    me = client.get("/api/auth/me").json()
    assert me["person"]["name"] == "Grace" and me["class"] is None

    logout = client.post("/api/auth/logout")
    assert logout.status_code == 204
    cleared = logout.headers["set-cookie"]  # issue 23.10: cleared with the same attributes
    assert f'{COOKIE}=""' in cleared and "Max-Age=0" in cleared
    assert "HttpOnly" in cleared and "SameSite=strict" in cleared and "Path=/" in cleared
    assert client.get("/api/auth/me").json()["person"] is None


def test_the_cookie_is_secure_over_https(browser: Browser) -> None:
    client = browser()
    client.base_url = client.base_url.copy_with(scheme="https")
    answer = client.post("/api/auth/login", json={"name": "Grace", "password": PASSWORD})
    assert "Secure" in answer.headers["set-cookie"]


def test_wrong_passwords_are_limited_per_account_and_per_address(
    browser: Browser, classroom: Settings
) -> None:
    client = browser()
    for _ in range(classroom.login_attempts_per_account):
        wrong = client.post("/api/auth/login", json={"name": "Grace", "password": "nope"})
        assert wrong.status_code == 401 and wrong.json()["detail"] == "wrong name or password"
    limited = client.post("/api/auth/login", json={"name": "Grace", "password": PASSWORD})
    assert limited.status_code == 429 and "this account" in limited.json()["detail"]
    assert "from a browser you have signed in from before" in limited.json()["detail"]
    assert int(limited.headers["Retry-After"]) > 0
    # Another account from the same address still may, until the address's own limit.
    assert client.post("/api/auth/login", json={"name": "Linus", "password": PASSWORD}).is_success
    classroom.login_attempts_per_address = 7
    for _ in range(2):
        client.post("/api/auth/login", json={"name": "nobody", "password": "x"})
    elsewhere = browser()  # the same address (every test client's), a browser Linus never used
    by_address = elsewhere.post("/api/auth/login", json={"name": "Linus", "password": PASSWORD})
    assert by_address.status_code == 429 and "your address" in by_address.json()["detail"]


def test_guessing_elsewhere_never_locks_the_owner_out_of_a_browser_they_used(
    browser: Browser, classroom: Settings
) -> None:
    """Issue 23.6: five wrong passwords from anywhere refused the right one from the owner
    too, for 15 minutes. Now a browser Grace signed in from carries a device cookie (OWASP's
    device cookies): failures elsewhere lock out only browsers she never used."""
    graces = browser()
    signed_in = graces.post("/api/auth/login", json={"name": "Grace", "password": PASSWORD})
    device = next(
        c for c in signed_in.headers.get_list("set-cookie") if c.startswith(DEVICE_COOKIE)
    )
    assert "HttpOnly" in device and "SameSite=strict" in device
    assert "Path=/api/auth/login" in device and f"Max-Age={DEVICE_DAYS * 86_400}" in device
    graces.post("/api/auth/logout")

    attacker = browser()
    for _ in range(classroom.login_attempts_per_account * 2):
        attacker.post("/api/auth/login", json={"name": "Grace", "password": "guess"})
    locked = attacker.post("/api/auth/login", json={"name": "Grace", "password": PASSWORD})
    assert locked.status_code == 429  # even the right password, from a browser never used
    # A device cookie is the account's: Linus's opens nothing of Grace's, nor does a forgery.
    stranger = browser()
    log_in(stranger, "Linus")
    assert (
        stranger.post("/api/auth/login", json={"name": "Grace", "password": PASSWORD}).status_code
        == 429
    )
    forged = browser()
    forged.cookies.set(
        DEVICE_COOKIE, "grace:made-up.AAAAAA.BBBBBBBBBBBBBBBBBBBBBBBBBBB", path="/api"
    )
    assert (
        forged.post("/api/auth/login", json={"name": "Grace", "password": PASSWORD}).status_code
        == 429
    )

    back = graces.post("/api/auth/login", json={"name": "Grace", "password": PASSWORD})
    assert back.status_code == 200, back.text
    # Her own browser's failures count against it alone.
    for _ in range(classroom.login_attempts_per_account):
        graces.post("/api/auth/login", json={"name": "Grace", "password": "typo"})
    own = graces.post("/api/auth/login", json={"name": "Grace", "password": PASSWORD})
    assert own.status_code == 429 and "from this browser" in own.json()["detail"]


def test_a_student_joins_by_code_and_sees_their_class(browser: Browser) -> None:
    code = make_class(log_in(browser(), "Grace"), "Networks, Monday")
    assert len(code) == 11 and code[5] == "-"
    student = browser()
    me = student.post(
        "/api/classes/join", json={"code": code.lower().replace("-", " "), "name": "Ada"}
    )
    assert me.status_code == 200
    assert (
        me.json()["person"]["kind"] == "student"
        and me.json()["class"]["name"] == "Networks, Monday"
    )
    assert student.get("/api/auth/me").json()["person"]["name"] == "Ada"


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"code": "ZZZZ-ZZZZ", "name": "Ada"}, 404, "no class has the join code 'ZZZZ-ZZZZ'"),
        ({"code": "{code}", "name": "   "}, 422, "name: string should have at least 1 character"),
        ({"code": "{code}", "name": "A" * 41}, 422, "name: string should have at most 40"),
        ({"code": "{code}", "name": "bo\tb"}, 422, "name: value error, a name cannot contain tabs"),
        ({"code": "{code}", "name": "ANA"}, 422, "already joined as 'ANA'"),
        ({"code": "", "name": "Ada"}, 422, "code:"),
    ],
)
def test_joining_with_a_wrong_code_or_name_is_refused_with_a_reason(
    browser: Browser, body: dict[str, str], status: int, message: str
) -> None:
    code = make_class(log_in(browser(), "Grace"))
    join(browser(), code, "Ana")
    answer = browser().post(
        "/api/classes/join", json={k: v.format(code=code) for k, v in body.items()}
    )
    assert answer.status_code == status, answer.text
    assert message in answer.json()["detail"]


def test_an_ended_class_admits_nobody_and_its_students_once_its_results_are_gone(
    browser: Browser, people: PeopleStore
) -> None:
    code = make_class(log_in(browser(), "Grace"))
    student = join(browser(), code, "Ada")
    with people.write() as db:  # ended three weeks ago; its results were kept a week
        db.execute(update(classes).values(ended_at="2026-11-14T10:00:00.000+00:00"))
    late = browser().post("/api/classes/join", json={"code": code, "name": "Bea"})
    assert late.status_code == 410 and "has ended" in late.json()["detail"]
    refused = student.get("/api/runs")
    assert refused.status_code == 401
    assert "were kept until 2026-11-21 10:00 UTC" in refused.json()["detail"]
    told = student.get("/api/auth/me").json()
    assert told["person"] is None
    assert told["signed_out"]["reason"] == "results-gone"
    assert told["signed_out"]["class_name"] == "Systems, Tuesday"


def test_forged_tampered_and_expired_sessions_get_401(
    browser: Browser, people: PeopleStore
) -> None:
    client = log_in(browser(), "Grace")
    real = client.cookies[COOKIE]
    for forged in ("made-up", real[:-2] + ("AA" if not real.endswith("AA") else "BB")):
        client.cookies.set(COOKIE, forged)
        answer = client.get("/api/runs")
        assert answer.status_code == 401 and "not valid" in answer.json()["detail"]
    client.cookies.set(COOKIE, real)
    assert client.get("/api/runs").status_code == 200
    with people.write() as db:
        db.execute(update(sessions).values(expires_unix=0))
    expired = client.get("/api/runs")
    assert expired.status_code == 401 and "session has ended" in expired.json()["detail"]
    assert browser().get("/api/runs").status_code == 401  # no cookie at all


def test_only_instructors_make_classes(browser: Browser) -> None:
    code = make_class(log_in(browser(), "Grace"))
    student = join(browser(), code, "Ada")
    refused = student.post("/api/classes", json={"name": "mine"})
    assert refused.status_code == 403 and "only an instructor" in refused.json()["detail"]
    assert browser().post("/api/classes", json={"name": "x"}).status_code == 401
    assert student.get("/api/classes").status_code == 403
    names = [c["name"] for c in log_in(browser(), "Grace").get("/api/classes").json()]
    assert names == ["Systems, Tuesday"]
    assert log_in(browser(), "Linus").get("/api/classes").json() == []


def test_cross_site_requests_cannot_change_anything(browser: Browser) -> None:
    client = log_in(browser(), "Grace")
    evil = {"Origin": "https://evil.example"}
    refused = client.post("/api/classes", json={"name": "x"}, headers=evil)
    assert refused.status_code == 403 and "https://evil.example" in refused.json()["detail"]
    sneaky = client.post(
        "/api/classes", json={"name": "x"}, headers={"Sec-Fetch-Site": "cross-site"}
    )
    assert sneaky.status_code == 403
    own = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
    assert client.post("/api/classes", json={"name": "x"}, headers=own).status_code == 201
    assert client.get("/api/classes", headers=evil).status_code == 200  # reading is not changing


def test_solo_mode_has_no_logins_and_refuses_cross_site_runs(client: TestClient) -> None:
    assert client.get("/api/auth/me").json()["person"]["kind"] == "solo"
    assert client.post("/api/auth/login", json={"name": "a", "password": "b"}).status_code == 404
    evil = client.post("/api/runs", json={"server": "c-epoll"}, headers={"Origin": "http://x.io"})
    assert evil.status_code == 403


def test_instructors_are_added_on_the_command_line(tmp_path: Path, course_command: Command) -> None:
    # As its own process once: the course's real password cost, not this suite's cheap one
    # (tests/conftest.py): argon2id at pwdlib's recommended cost, 64 MiB and 3 passes.
    done = real_command(
        tmp_path / "s.sqlite3", "instructor", "add", "Barbara", stdin="long enough secret\n"
    )
    assert done.status == 0, done.err
    stored = PeopleStore(tmp_path / "s.sqlite3").instructor_login("barbara")
    assert stored is not None and stored[1].startswith("$argon2id$v=19$m=65536,t=3,p=4$")

    again = course_command("instructor", "add", "Barbara", stdin="long enough secret\n")
    assert again.status != 0 and "already exists" in again.err
    weak = course_command("instructor", "add", "Ken", stdin="short\n")
    assert weak.status != 0 and "at least 8 characters" in weak.err
    assert course_command("instructor", "list").out.split() == ["Barbara"]


def test_ending_a_class_closes_its_code_and_sessions_and_cancels_what_waits(
    browser: Browser,
) -> None:
    grace = log_in(browser(), "Grace")
    klass = grace.post("/api/classes", json={"name": "Ends today"}).json()
    ada = join(browser(), klass["join_code"], "Ada")
    waiting = ada.post("/api/runs", json={"server": "c-epoll"}).json()["id"]

    assert log_in(browser(), "Linus").post(f"/api/classes/{klass['id']}/end").status_code == 404
    assert ada.post(f"/api/classes/{klass['id']}/end").status_code == 403
    ended = grace.post(f"/api/classes/{klass['id']}/end")
    assert ended.status_code == 200 and ended.json()["ended_at"] is not None
    again = grace.post(f"/api/classes/{klass['id']}/end").json()
    assert again["ended_at"] == ended.json()["ended_at"]  # ending twice keeps the first time

    # Her results stay hers to read, for the class's week, and nothing more runs.
    assert ada.get("/api/runs").status_code == 200
    again_run = ada.post("/api/runs", json={"server": "c-epoll"})
    assert again_run.status_code == 403 and "class has ended" in again_run.json()["detail"]
    late = browser().post("/api/classes/join", json={"code": klass["join_code"], "name": "Bea"})
    assert late.status_code == 410
    run = grace.get(f"/api/runs/{waiting}").json()  # still readable by the instructor
    assert run["status"] == "cancelled" and "ended before it started" in run["error"]
