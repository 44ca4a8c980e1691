"""Instructors log in with a password; students join a class with its code and a name.

Passwords are hashed with argon2 (pwdlib). A session is a random token kept in the store (only
its SHA-256), so it can be revoked: logging out, removing a student, ending a class. The cookie
carries the token signed with the site's secret (itsdangerous), so a forged or tampered cookie is
refused before the store is asked, and an old one expires by its own timestamp too.
"""

import contextlib
import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import NamedTuple

from itsdangerous import BadSignature, TimestampSigner
from pwdlib import PasswordHash

from c10klab.config import Settings
from c10klab.db import now_iso, unix_now
from c10klab.errors import (
    Conflict,
    Gone,
    InvalidRequest,
    NotFound,
    TooManyRequests,
    Unauthenticated,
)
from c10klab.people.schemas import ClassOut
from c10klab.people.store import Class, NameTaken, PeopleStore, Person, name_key
from c10klab.runs.store import RunStore

COOKIE = "c10k_session"
# Join codes: unambiguous letters and digits (no 0/O, 1/I/L), shown as XXXXX-XXXXX. 31^10 is
# 8e14 codes: guessing at the limit per address (20 misses in 15 minutes) from 10,000 addresses
# for a class's longest life (14 days) finds one of 100 open classes with odds of 3 in 100,000
# (docs/ARCHITECTURE.md, "Joining is limited"). Codes of 8 made before stay valid.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 10
CODE_EXAMPLE = "K7QXM-4TPRW"

PASSWORDS = PasswordHash.recommended()


@lru_cache(maxsize=1)
def _dummy_hash() -> str:
    """Verified against when the name is unknown, so a wrong name takes as long as a wrong
    password and the timing tells nobody which instructors exist."""
    return PASSWORDS.hash(secrets.token_urlsafe(16))


def hash_password(password: str) -> str:
    return PASSWORDS.hash(password)


def add_instructor(people: PeopleStore, name: str, password: str) -> Person:
    if len(password) < 8:
        raise InvalidRequest("the password needs at least 8 characters")
    try:
        return people.add_person("instructor", name.strip(), password_hash=hash_password(password))
    except NameTaken as taken:
        raise InvalidRequest(f"an instructor named {name.strip()!r} already exists") from taken


# --- sessions ---------------------------------------------------------------------------------


def _signer(people: PeopleStore) -> TimestampSigner:
    return TimestampSigner(people.signing_secret(), salt="c10klab.session")


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_session(people: PeopleStore, settings: Settings, person: Person) -> str:
    """A new session for `person`; returns the cookie's value."""
    token = secrets.token_urlsafe(32)
    people.add_session(_token_hash(token), person.id, settings.session_hours * 3600)
    return _signer(people).sign(token).decode()


def _token(people: PeopleStore, settings: Settings, cookie: str) -> str:
    try:
        raw = _signer(people).unsign(cookie, max_age=round(settings.session_hours * 3600))
    except BadSignature as bad:  # includes SignatureExpired
        raise Unauthenticated(
            "your session is not valid (expired or altered): log in again, or join your "
            "class again with its code"
        ) from bad
    return raw.decode()


def person_for_cookie(people: PeopleStore, settings: Settings, cookie: str | None) -> Person:
    if not cookie:
        raise Unauthenticated(
            "this course runs as a class: join it with the code your instructor shows "
            "(or log in, if you are the instructor)"
        )
    found = people.session_person(_token_hash(_token(people, settings, cookie)))
    if found is None:
        raise Unauthenticated(
            "your session has ended (logged out, expired, or removed from the class): "
            "log in or join again"
        )
    person, class_ended_at = found
    if class_ended_at is not None:
        raise Unauthenticated(f"your class ended at {class_ended_at[:16].replace('T', ' ')} UTC")
    return person


def end_session(people: PeopleStore, settings: Settings, cookie: str | None) -> None:
    if not cookie:
        return
    with contextlib.suppress(Unauthenticated):  # nothing valid to end
        people.drop_session(_token_hash(_token(people, settings, cookie)))


# --- logging in and joining -------------------------------------------------------------------


# A browser an instructor signed in from keeps a device cookie this long (OWASP's "device
# cookies"): failed logins from it count against it alone, never against the account.
DEVICE_COOKIE = "c10k_device"
DEVICE_DAYS = 180


@dataclass(frozen=True)
class LoggedIn:
    person: Person
    device_cookie: str  # for the browser that signed in: known to this account from now on


def _device_signer(people: PeopleStore) -> TimestampSigner:
    return TimestampSigner(people.signing_secret(), salt="c10klab.device")


def issue_device(people: PeopleStore, account: str) -> str:
    return _device_signer(people).sign(f"{account}:{secrets.token_urlsafe(16)}").decode()


def known_device(people: PeopleStore, cookie: str | None, account: str) -> str | None:
    """The id of the browser behind a device cookie, if it signed in to this account before
    (a cookie of another account, forged or too old is no cookie)."""
    if not cookie:
        return None
    try:
        raw = _device_signer(people).unsign(cookie, max_age=DEVICE_DAYS * 86_400).decode()
    except BadSignature:
        return None
    owner, _, device = raw.rpartition(":")
    return device if owner == account and device else None


class Limit(NamedTuple):
    """At most `most` attempts of a key within the window; what they are, for the 429, and
    what the person refused can do besides waiting."""

    most: int
    what: str
    advice: str = ""


def _check_limits(people: PeopleStore, settings: Settings, limits: dict[str, Limit]) -> None:
    """429 with Retry-After when a key has reached its limit within the window."""
    window = settings.login_window_s
    counted = people.attempts(list(limits), window)
    for key, limit in limits.items():
        times = counted[key]
        if len(times) >= limit.most:
            retry = max(1, int(times[len(times) - limit.most] + window - unix_now()) + 1)
            raise TooManyRequests(
                f"too many {limit.what} ({len(times)} in the last {window / 60:.0f} minutes, "
                f"at most {limit.most}): {limit.advice}try again in {retry} s",
                retry,
            )


def login(
    people: PeopleStore,
    settings: Settings,
    name: str,
    password: str,
    address: str,
    device_cookie: str | None,
) -> LoggedIn:
    """The instructor whose name and password these are, counting failures only. A browser
    that signed in to the account before (its device cookie) is limited by its own failures
    alone, so nobody guessing elsewhere can keep the owner out; any other browser by the
    account's failures from such browsers and by its address's."""
    account = name_key(name)
    device = known_device(people, device_cookie, account)
    logins = settings.login_attempts_per_account
    limits = (
        {f"device:{device}": Limit(logins, "failed logins from this browser")}
        if device
        else {
            f"account:{account}": Limit(
                logins,
                "failed logins for this account from browsers it has not signed in from",
                "sign in from a browser you have signed in from before, or ",
            ),
            f"address:{address}": Limit(
                settings.login_attempts_per_address, "failed logins from your address"
            ),
        }
    )
    _check_limits(people, settings, limits)
    found = people.instructor_login(name)
    stored_hash = found[1] if found else _dummy_hash()
    if not PASSWORDS.verify(password, stored_hash) or found is None:
        people.record_attempt(list(limits), settings.login_window_s)
        raise Unauthenticated("wrong name or password")
    # The browser's own slate is wiped; the account's stays: the owner signing in does not
    # let whoever is guessing from elsewhere start again.
    if device:
        people.forget_attempts(f"device:{device}")
    return LoggedIn(found[0], issue_device(people, account))


def normalize_code(code: str) -> str:
    """What a student typed, as stored: capitals, no spaces or dashes."""
    return "".join(ch for ch in code.upper() if ch.isalnum())


def show_code(code: str) -> str:
    half = (len(code) + 1) // 2
    return f"{code[:half]}-{code[half:]}"


def join(
    people: PeopleStore, settings: Settings, code: str, name: str, address: str
) -> tuple[Person, Class]:
    """A student joins a class by its code under a name. Limited per address: codes that
    match no class (guessing), and names joined into one class (each name would bring its
    own quota; the class's share of the queue holds whatever the names)."""
    guesses = f"join-miss:{address}"
    misses = Limit(
        settings.join_misses_per_address, "join codes that match no class from your address"
    )
    _check_limits(people, settings, {guesses: misses})
    klass = people.class_by_code(normalize_code(code))
    if klass is None:
        people.record_attempt([guesses], settings.login_window_s)
        raise NotFound(
            f"no class has the join code {code.strip()!r}: check it with your instructor "
            f"(letters and digits, e.g. {CODE_EXAMPLE})"
        )
    if klass.ended_at is not None or (klass.ends_at is not None and klass.ends_at <= now_iso()):
        raise Gone(f"the class {klass.name!r} has ended; its code no longer admits anyone")
    joined = f"joined:{klass.id}:{address}"
    names = Limit(settings.joins_per_address, "names joined this class from your address")
    _check_limits(people, settings, {joined: names})
    if people.count_students(klass.id) >= settings.max_students_per_class:
        raise Conflict(
            f"the class {klass.name!r} is full ({settings.max_students_per_class} names have "
            "joined it): ask your instructor to remove names no one uses"
        )
    try:
        student = people.add_person("student", name, class_id=klass.id)
    except NameTaken as taken:
        raise InvalidRequest(
            f"name: someone in {klass.name!r} already joined as {name!r}; add an initial or "
            "pick another name"
        ) from taken
    people.record_attempt([joined], settings.login_window_s)
    return student, klass


# How far ahead a class may be set to end by itself: a course day, or a fortnight of them.
MAX_CLASS_DAYS = 14


def create_class(
    people: PeopleStore, instructor: Person, name: str, ends_at: datetime | None = None
) -> Class:
    until = None
    if ends_at is not None:
        now = datetime.now(UTC)
        if ends_at <= now:
            raise InvalidRequest(
                f"ends_at: {ends_at.isoformat()} has passed; give a time in the future, or none"
            )
        if ends_at > now + timedelta(days=MAX_CLASS_DAYS):
            raise InvalidRequest(f"ends_at: at most {MAX_CLASS_DAYS} days ahead")
        # Stored as now_iso() writes times, so that the store compares them as text.
        until = ends_at.astimezone(UTC).isoformat(timespec="milliseconds")
    for _ in range(10):  # 31^10 codes: a clash is rare, and another draw settles it
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        klass = people.add_class(name, instructor.id, code, until)
        if klass is not None:
            return klass
    raise RuntimeError("could not draw an unused join code in ten tries")


def end_class(people: PeopleStore, store: RunStore, klass: Class) -> Class:
    """End a class: its code admits nobody, its students' sessions end (they are refused at
    their next request) and their waiting runs are cancelled; what ran stays."""
    ended = people.end_class(klass.id)
    assert ended is not None  # it was just read, and classes are never deleted
    store.cancel_queued_of_class(klass.id, f"the class {klass.name!r} ended before it started")
    return ended


def class_out(
    people: PeopleStore, store: RunStore, klass: Class, for_student: bool = False
) -> ClassOut:
    """A class as the API shows it; a student is not shown the join code."""
    return ClassOut(
        id=klass.id,
        name=klass.name,
        join_code="" if for_student else show_code(klass.join_code),
        created_at=klass.created_at,
        ends_at=klass.ends_at,
        ended_at=klass.ended_at,
        paused=store.is_held(klass.id),
        students=people.count_students(klass.id),
    )
