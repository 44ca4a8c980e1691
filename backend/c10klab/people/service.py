"""Instructors log in with a password; students join a class with its code and a name.

Passwords are hashed with argon2 (pwdlib). A session is a random token kept in the store (only
its SHA-256), so it can be revoked: logging out, removing a student, ending a class. The cookie
carries the token signed with the site's secret (itsdangerous), so a forged or tampered cookie is
refused before the store is asked, and an old one expires by its own timestamp too.
"""

import contextlib
import hashlib
import hmac
import secrets
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import NamedTuple, NoReturn

from itsdangerous import BadSignature, TimestampSigner
from pwdlib import PasswordHash

from c10klab.config import Settings
from c10klab.db import now_iso, unix_now
from c10klab.errors import (
    Conflict,
    Forbidden,
    Gone,
    InvalidRequest,
    Message,
    Moment,
    NotFound,
    Phrase,
    TooManyRequests,
    Unauthenticated,
)
from c10klab.people.schemas import ClassOut, SignedOut, StaffOut
from c10klab.people.store import (
    Class,
    NameTaken,
    PeopleStore,
    Person,
    StaffRole,
    Student,
    name_key,
)
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

# --- what is refused, and how it is said ------------------------------------------------------
SHORT_PASSWORD = Phrase("password-too-short", "the password needs at least 8 characters")
INSTRUCTOR_EXISTS = Phrase("instructor-exists", "an instructor named {name!r} already exists")
NO_INSTRUCTOR = Phrase(
    "no-instructor", "no instructor is named {name!r}; `instructor list` names them"
)
SESSION_INVALID = Phrase(
    "session-invalid",
    "your session is not valid (expired or altered): log in again, or join your class again "
    "with its code",
)
NOT_SIGNED_IN = Phrase(
    "not-signed-in",
    "this course runs as a class: join it with the code your instructor shows "
    "(or log in, if you are the instructor)",
)
SESSION_ENDED = Phrase(
    "session-ended", "your session has ended (logged out or expired): log in or join again"
)
SIGNED_OUT_REMOVED = Phrase(
    "signed-out-removed",
    "the instructor removed you from {class_name!r} at {at}: ask them to let you back in",
)
SIGNED_OUT_RESULTS_GONE = Phrase(
    "signed-out-results-gone",
    "the class {class_name!r} ended at {at}, and its results were kept until {until}",
)
READ_ONLY = Phrase(
    "class-ended-read-only",
    "your class has ended: you can read and export your results until {until}, but not run or "
    "change anything",
)
WRONG_LOGIN = Phrase("wrong-login", "wrong name or password")
NO_JOIN_CODE = Phrase(
    "no-join-code",
    "no class has the join code {code!r}: check it with your instructor "
    "(letters and digits, e.g. {example})",
)
NAME_REMOVED = Phrase(
    "name-removed",
    "name: {name!r} was removed from {class_name!r} by its instructor; if that is you, ask them "
    "to let you back in",
)
NAME_TAKEN = Phrase(
    "name-taken",
    "name: someone in {class_name!r} already joined as {name!r}. If that was you on another "
    "device, come back with your personal code; otherwise add an initial or pick another name",
)
NAME_TAKEN_OTHER_CASE = Phrase(
    "name-taken-other-case",
    "name: someone in {class_name!r} already joined as {name!r} (names are the same whatever "
    "their case: {holder!r}). If that was you on another device, come back with your personal "
    "code; otherwise add an initial or pick another name",
)
CLASS_ENDED = Phrase(
    "class-ended", "the class {class_name!r} has ended; its code no longer admits anyone"
)
CLASS_FULL = Phrase(
    "class-full",
    "the class {class_name!r} is full ({most} names have joined it): ask your instructor to "
    "remove names no one uses",
)
NO_PERSONAL_CODE = Phrase(
    "no-personal-code",
    "personal_code: {code!r} is nobody's in {class_name!r}: check it (e.g. {example}), or ask "
    "your instructor for a new one",
)
COME_BACK_REMOVED = Phrase(
    "come-back-removed",
    "the instructor removed you from {class_name!r}: ask them to let you back in",
)
COME_BACK_RESULTS_GONE = Phrase(
    "come-back-results-gone",
    "the class {class_name!r} ended, and its results were kept until {until}",
)
NO_SUCH_STUDENT = Phrase(
    "no-such-student",
    "{class_name!r} has no student {student_id!r}; GET /api/classes/{class_id}/roster lists them",
)
NO_REMOVED_STUDENT = Phrase(
    "no-removed-student",
    "{class_name!r} has no removed student {student_id!r}; "
    "GET /api/classes/{class_id}/roster lists them",
)
READMIT_NAME_TAKEN = Phrase(
    "readmit-name-taken",
    "someone present in the class has this student's name now: ask them to sign out and "
    "remove them first",
)
END_PASSED = Phrase(
    "end-time-passed", "ends_at: {ends_at} has passed; give a time in the future, or none"
)
END_TOO_FAR = Phrase("end-time-too-far", "ends_at: at most {days} days ahead")
STAFF_NO_INSTRUCTOR = Phrase(
    "staff-no-instructor",
    "name: no instructor is named {name!r}; the host's owner adds one with "
    "`python -m c10klab instructor add NAME`",
)
STAFF_IS_OWNER = Phrase("staff-is-owner", "name: {name!r} is the class's own instructor already")

# A limit's 429: `count` attempts in the last `minutes`, at most `most`, `retry` seconds to wait.
BROWSER_LOGINS = Phrase(
    "too-many-logins-from-browser",
    "too many failed logins from this browser ({count} in the last {minutes} minutes, at most "
    "{most}): try again in {retry} s",
)
ACCOUNT_LOGINS = Phrase(
    "too-many-logins-for-account",
    "too many failed logins for this account from browsers it has not signed in from ({count} "
    "in the last {minutes} minutes, at most {most}): sign in from a browser you have signed in "
    "from before, or try again in {retry} s",
)
ADDRESS_LOGINS = Phrase(
    "too-many-logins-from-address",
    "too many failed logins from your address ({count} in the last {minutes} minutes, at most "
    "{most}): try again in {retry} s",
)
JOIN_MISSES = Phrase(
    "too-many-join-misses",
    "too many join codes that match no class from your address ({count} in the last {minutes} "
    "minutes, at most {most}): try again in {retry} s",
)
JOINS = Phrase(
    "too-many-joins-from-address",
    "too many names joined this class from your address ({count} in the last {minutes} "
    "minutes, at most {most}): try again in {retry} s",
)


@lru_cache(maxsize=1)
def _dummy_hash() -> str:
    """Verified against when the name is unknown, so a wrong name takes as long as a wrong
    password and the timing tells nobody which instructors exist."""
    return PASSWORDS.hash(secrets.token_urlsafe(16))


def hash_password(password: str) -> str:
    return PASSWORDS.hash(password)


def add_instructor(people: PeopleStore, name: str, password: str) -> Person:
    if len(password) < 8:
        raise InvalidRequest(SHORT_PASSWORD())
    try:
        return people.add_person("instructor", name.strip(), password_hash=hash_password(password))
    except NameTaken as taken:
        raise InvalidRequest(INSTRUCTOR_EXISTS(name=name.strip())) from taken


def reset_password(people: PeopleStore, name: str, password: str) -> Person:
    """A new password for an instructor who lost theirs (the host's owner runs this): every
    session of theirs ends, so a browser someone else signed in from is out too."""
    if len(password) < 8:
        raise InvalidRequest(SHORT_PASSWORD())
    found = people.instructor_login(name)
    if found is None:
        raise NotFound(NO_INSTRUCTOR(name=name.strip()))
    person = found[0]
    people.set_password_hash(person.id, hash_password(password))
    people.end_sessions_of(person.id)
    return person


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
        raise Unauthenticated(SESSION_INVALID()) from bad
    return raw.decode()


class NotLetIn(Unauthenticated):
    """A session that no longer lets its person in, and why, for the browser to say so."""

    def __init__(self, said: Message, why: SignedOut) -> None:
        super().__init__(said)
        self.why = why


def _utc(text: str) -> datetime:
    return datetime.fromisoformat(text).astimezone(UTC)


def results_until(klass: Class) -> str | None:
    """Until when the students of an ended class may read their results (None: still open)."""
    if klass.ended_at is None:
        return None
    until = _utc(klass.ended_at) + timedelta(days=klass.results_days)
    return until.isoformat(timespec="milliseconds")


def person_for_cookie(people: PeopleStore, settings: Settings, cookie: str | None) -> Person:
    """Who a session cookie lets in. A student whose class ended is let in read-only while its
    results are kept; a removed student, or one whose class's results are gone, is refused
    with the reason (NotLetIn), so their browser can say why they were signed out."""
    if not cookie:
        raise Unauthenticated(NOT_SIGNED_IN())
    owner = people.session_owner(_token_hash(_token(people, settings, cookie)))
    if owner is None:
        raise Unauthenticated(SESSION_ENDED())
    person, klass = owner.person, owner.klass
    class_name = klass.name if klass else ""
    if owner.removed_at is not None:
        raise NotLetIn(
            SIGNED_OUT_REMOVED(class_name=class_name, at=Moment(owner.removed_at)),
            SignedOut(reason="removed", class_name=class_name, at=owner.removed_at),
        )
    until = results_until(klass) if klass else None
    if klass is None or klass.ended_at is None or until is None:
        return person
    if until <= now_iso():
        raise NotLetIn(
            SIGNED_OUT_RESULTS_GONE(
                class_name=class_name, at=Moment(klass.ended_at), until=Moment(until)
            ),
            SignedOut(reason="results-gone", class_name=class_name, at=klass.ended_at, until=until),
        )
    return replace(person, read_only_until=until)


def refuse_read_only(person: Person) -> None:
    """403 for a change asked by a student whose class ended: their results are theirs to
    read until then, but nothing more runs, builds or changes."""
    if person.read_only_until is not None:
        raise Forbidden(READ_ONLY(until=Moment(person.read_only_until)))


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
    """At most `most` attempts of a key within the window, and the 429's sentence: what they
    are, and what the person refused can do besides waiting."""

    most: int
    said: Phrase  # a 429's sentence, with the params _check_limits gives (above)


def _check_limits(people: PeopleStore, settings: Settings, limits: dict[str, Limit]) -> None:
    """429 with Retry-After when a key has reached its limit within the window."""
    window = settings.login_window_s
    counted = people.attempts(list(limits), window)
    for key, limit in limits.items():
        times = counted[key]
        if len(times) >= limit.most:
            retry = max(1, int(times[len(times) - limit.most] + window - unix_now()) + 1)
            said = limit.said(
                count=len(times), minutes=round(window / 60), most=limit.most, retry=retry
            )
            raise TooManyRequests(said, retry)


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
        {f"device:{device}": Limit(logins, BROWSER_LOGINS)}
        if device
        else {
            f"account:{account}": Limit(logins, ACCOUNT_LOGINS),
            f"address:{address}": Limit(settings.login_attempts_per_address, ADDRESS_LOGINS),
        }
    )
    _check_limits(people, settings, limits)
    found = people.instructor_login(name)
    stored_hash = found[1] if found else _dummy_hash()
    if not PASSWORDS.verify(password, stored_hash) or found is None:
        people.record_attempt(list(limits), settings.login_window_s)
        raise Unauthenticated(WRONG_LOGIN())
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


# Personal codes bring a student back on another device: 8 characters of the join codes'
# alphabet, shown XXXX-XXXX. Guessed under the same limit as join codes (20 misses per address
# in 15 minutes, 1,920 a day), one of a class's 300 codes among 31^8 = 8.5e11 is found with
# odds of 1 in 1.5 million a day from one address.
PERSONAL_CODE_LENGTH = 8
PERSONAL_CODE_EXAMPLE = "H4KD-P7WQ"


def _personal_code_hash(people: PeopleStore, class_id: str, code: str) -> str:
    """A personal code as kept: keyed with the site's secret, so that the store alone does not
    let anyone try every code offline."""
    key = people.signing_secret().encode()
    return hmac.new(key, f"{class_id}:{normalize_code(code)}".encode(), hashlib.sha256).hexdigest()


def _draw_personal_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(PERSONAL_CODE_LENGTH))


@dataclass(frozen=True)
class Joined:
    student: Person
    klass: Class
    personal_code: str  # shown once: the student's way back on another device


def _check_join_guess(people: PeopleStore, settings: Settings, address: str) -> str:
    """429 when this address has missed too often; returns the key a miss is counted under."""
    guesses = f"join-miss:{address}"
    _check_limits(people, settings, {guesses: Limit(settings.join_misses_per_address, JOIN_MISSES)})
    return guesses


def _class_for_code(people: PeopleStore, settings: Settings, code: str, guesses: str) -> Class:
    klass = people.class_by_code(normalize_code(code))
    if klass is None:
        people.record_attempt([guesses], settings.login_window_s)
        raise NotFound(NO_JOIN_CODE(code=code.strip(), example=CODE_EXAMPLE))
    return klass


def _is_open(klass: Class) -> bool:
    return klass.ended_at is None and (klass.ends_at is None or klass.ends_at > now_iso())


def _refuse_name(klass: Class, name: str, holder: Student) -> NoReturn:
    if holder.removed_at is not None:
        raise Conflict(NAME_REMOVED(name=holder.name, class_name=klass.name))
    if holder.name == name:
        raise InvalidRequest(NAME_TAKEN(class_name=klass.name, name=name))
    raise InvalidRequest(
        NAME_TAKEN_OTHER_CASE(class_name=klass.name, name=name, holder=holder.name)
    )


def join(people: PeopleStore, settings: Settings, code: str, name: str, address: str) -> Joined:
    """A student joins a class by its code under a name, kept as typed. Limited per address:
    codes that match no class (guessing), and names joined into one class (each name would
    bring its own quota; the class's share of the queue holds whatever the names)."""
    guesses = _check_join_guess(people, settings, address)
    klass = _class_for_code(people, settings, code, guesses)
    if not _is_open(klass):
        raise Gone(CLASS_ENDED(class_name=klass.name))
    joined = f"joined:{klass.id}:{address}"
    _check_limits(people, settings, {joined: Limit(settings.joins_per_address, JOINS)})
    if people.count_students(klass.id) >= settings.max_students_per_class:
        raise Conflict(CLASS_FULL(class_name=klass.name, most=settings.max_students_per_class))
    holder = people.student_named(klass.id, name)
    if holder is not None:
        _refuse_name(klass, name, holder)
    personal = _draw_personal_code()
    try:
        student = people.add_person(
            "student",
            name,
            class_id=klass.id,
            personal_code_hash=_personal_code_hash(people, klass.id, personal),
        )
    except NameTaken as taken:  # joined under the same name a moment ago
        holder = people.student_named(klass.id, name)
        assert holder is not None, taken
        _refuse_name(klass, name, holder)
    people.record_attempt([joined], settings.login_window_s)
    return Joined(student, klass, show_code(personal))


def come_back(
    people: PeopleStore, settings: Settings, code: str, personal_code: str, address: str
) -> tuple[Person, Class]:
    """A student comes back to their class on another device with its join code and their
    personal code: while it is open, and read-only while its results are kept after it ended.
    A wrong personal code counts as a wrong join code (the same guessing)."""
    guesses = _check_join_guess(people, settings, address)
    klass = _class_for_code(people, settings, code, guesses)
    student = people.student_by_code(klass.id, _personal_code_hash(people, klass.id, personal_code))
    if student is None:
        people.record_attempt([guesses], settings.login_window_s)
        raise NotFound(
            NO_PERSONAL_CODE(
                code=personal_code.strip(), class_name=klass.name, example=PERSONAL_CODE_EXAMPLE
            )
        )
    if student.removed_at is not None:
        raise Forbidden(COME_BACK_REMOVED(class_name=klass.name))
    until = results_until(klass)
    if until is not None and until <= now_iso():
        raise Gone(COME_BACK_RESULTS_GONE(class_name=klass.name, until=Moment(until)))
    person = people.get_person(student.id)
    assert person is not None  # people are never deleted
    return person, klass


def new_personal_code(people: PeopleStore, klass: Class, student_id: str) -> str:
    """A new personal code for a student of the class, for their instructor to hand them: the
    old one stops working."""
    code = _draw_personal_code()
    if not people.set_personal_code(
        klass.id, student_id, _personal_code_hash(people, klass.id, code)
    ):
        raise NotFound(no_such_student(klass, student_id))
    return show_code(code)


def readmit(people: PeopleStore, klass: Class, student_id: str) -> None:
    """Let a removed student back in: they come back with their personal code."""
    try:
        if not people.readmit_student(klass.id, student_id):
            raise NotFound(
                NO_REMOVED_STUDENT(class_name=klass.name, student_id=student_id, class_id=klass.id)
            )
    except NameTaken as taken:
        raise Conflict(READMIT_NAME_TAKEN()) from taken


def no_such_student(klass: Class, student_id: str) -> Message:
    """The 404's sentence for a student id that is not the class's."""
    return NO_SUCH_STUDENT(class_name=klass.name, student_id=student_id, class_id=klass.id)


# How far ahead a class may be set to end by itself: a course day, or a fortnight of them.
MAX_CLASS_DAYS = 14


def create_class(
    people: PeopleStore,
    instructor: Person,
    name: str,
    ends_at: datetime | None = None,
    results_days: int = 7,
) -> Class:
    until = None
    if ends_at is not None:
        now = datetime.now(UTC)
        if ends_at <= now:
            raise InvalidRequest(END_PASSED(ends_at=ends_at.isoformat()))
        if ends_at > now + timedelta(days=MAX_CLASS_DAYS):
            raise InvalidRequest(END_TOO_FAR(days=MAX_CLASS_DAYS))
        # Stored as now_iso() writes times, so that the store compares them as text.
        until = ends_at.astimezone(UTC).isoformat(timespec="milliseconds")
    for _ in range(10):  # 31^10 codes: a clash is rare, and another draw settles it
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        klass = people.add_class(name, instructor.id, code, until, results_days)
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
    people: PeopleStore, store: RunStore, klass: Class, asker: Person | None = None
) -> ClassOut:
    """A class as the API shows it, to `asker` (None: the class stream, every member's copy):
    only those who teach it see the join code, and each instructor their role."""
    role = people.staff_role(klass, asker.id) if asker and asker.kind == "instructor" else None
    return ClassOut(
        id=klass.id,
        name=klass.name,
        join_code=show_code(klass.join_code) if role else "",
        created_at=klass.created_at,
        ends_at=klass.ends_at,
        ended_at=klass.ended_at,
        results_days=klass.results_days,
        results_until=results_until(klass),
        paused=store.is_held(klass.id),
        students=people.count_students(klass.id),
        role=role,
    )


def add_staff(people: PeopleStore, klass: Class, name: str, role: StaffRole) -> StaffOut:
    """An instructor account joins the class's staff in `role` (again: their role changes)."""
    found = people.instructor_login(name)
    if found is None:
        raise NotFound(STAFF_NO_INSTRUCTOR(name=name.strip()))
    person = found[0]
    if person.id == klass.instructor_id:
        raise InvalidRequest(STAFF_IS_OWNER(name=person.name))
    people.set_staff(klass.id, person.id, role)
    return StaffOut(id=person.id, name=person.name, role=role)


def staff_list(people: PeopleStore, klass: Class) -> list[StaffOut]:
    """The class's own instructor first, then its staff in the order added."""
    owner = people.names_of([klass.instructor_id]).get(klass.instructor_id, "")
    return [StaffOut(id=klass.instructor_id, name=owner, role="owner")] + [
        StaffOut(id=p.id, name=p.name, role=role) for p, role in people.staff_of(klass.id)
    ]
