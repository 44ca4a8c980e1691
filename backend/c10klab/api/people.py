"""Logging in, joining a class, and the instructor's classes."""

from dataclasses import replace

from fastapi import APIRouter, Request, Response

from c10klab.api.deps import PeopleDep, PersonDep, SessionCookie, SettingsDep, StoreDep
from c10klab.config import Settings
from c10klab.errors import NotFound, Phrase, Unauthenticated
from c10klab.people import service
from c10klab.people.access import OWNER, STAFF, require_instructor, taught_class
from c10klab.people.join_links import join_links, origin_of
from c10klab.people.schemas import (
    ClassBrief,
    ClassCreate,
    ClassOut,
    ClassUpdate,
    ComeBackRequest,
    Joined,
    JoinLinks,
    JoinRequest,
    LoginRequest,
    Me,
    PersonOut,
    StaffOut,
    StaffRequest,
)
from c10klab.people.store import Person

SOLO_NO_LOGINS = Phrase(
    "solo-no-logins",
    "this course runs in solo mode: there are no logins or classes "
    "(start it with C10K_MODE=classroom to host a class)",
)
NOT_STAFF = Phrase(
    "not-staff", "{person_id!r} is not on this class's staff; GET …/staff lists them"
)

router = APIRouter(tags=["people"])


def _require_classroom(settings: Settings) -> None:
    if settings.mode != "classroom":
        raise NotFound(SOLO_NO_LOGINS())


def _set_session(
    response: Response, request: Request, settings: Settings, value: str, max_age: int = -1
) -> None:
    """The session cookie for a session's length, or cleared (max_age 0, empty), with the same
    attributes either way: a deletion without them is flagged by scanners and may miss."""
    response.set_cookie(
        service.COOKIE,
        value,
        max_age=max_age if max_age >= 0 else int(settings.session_hours * 3600),
        httponly=True,
        samesite="strict",
        secure=_secure(request, settings),
        path="/",
    )


def _secure(request: Request, settings: Settings) -> bool:
    return request.url.scheme == "https" or settings.cookie_secure == "always"


def _person_out(person: Person) -> PersonOut:
    return PersonOut(
        id=person.id, kind=person.kind, name=person.name, read_only_until=person.read_only_until
    )


@router.post("/auth/login")
def login(
    body: LoginRequest,
    request: Request,
    response: Response,
    settings: SettingsDep,
    people: PeopleDep,
) -> PersonOut:
    _require_classroom(settings)
    address = request.client.host if request.client else "unknown"
    device = request.cookies.get(service.DEVICE_COOKIE)
    signed_in = service.login(people, settings, body.name, body.password, address, device)
    person = signed_in.person
    _set_session(response, request, settings, service.issue_session(people, settings, person))
    response.set_cookie(  # only logging in reads it
        service.DEVICE_COOKIE,
        signed_in.device_cookie,
        max_age=service.DEVICE_DAYS * 86_400,
        httponly=True,
        samesite="strict",
        secure=_secure(request, settings),
        path="/api/auth/login",
    )
    return _person_out(person)


@router.post("/auth/logout", status_code=204)
def logout(
    request: Request,
    response: Response,
    settings: SettingsDep,
    people: PeopleDep,
    session: SessionCookie = None,
) -> None:
    service.end_session(people, settings, session)
    _set_session(response, request, settings, "", max_age=0)


@router.get("/auth/me")
def me(settings: SettingsDep, people: PeopleDep, session: SessionCookie = None) -> Me:
    """Never 401: a browser asks this first, to know whether to offer login or joining."""
    if settings.mode == "solo":
        return Me(mode="solo", person=PersonOut(id="solo", kind="solo", name="you"))
    try:
        person = service.person_for_cookie(people, settings, session)
    except service.NotLetIn as refused:
        return Me(mode="classroom", person=None, signed_out=refused.why)
    except Unauthenticated:
        return Me(mode="classroom", person=None)
    klass = people.get_class(person.class_id) if person.class_id else None
    brief = ClassBrief(id=klass.id, name=klass.name) if klass else None
    return Me(mode="classroom", person=_person_out(person), class_=brief)


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


@router.post("/classes/join")
def join_class(
    body: JoinRequest,
    request: Request,
    response: Response,
    settings: SettingsDep,
    people: PeopleDep,
) -> Joined:
    """Join a class under a name. The answer carries the student's personal code, shown this
    once: with it they come back on another device (POST /classes/come-back)."""
    _require_classroom(settings)
    joined = service.join(people, settings, body.code, body.name, _client(request))
    cookie = service.issue_session(people, settings, joined.student)
    _set_session(response, request, settings, cookie)
    return Joined(
        mode="classroom",
        person=_person_out(joined.student),
        class_=ClassBrief(id=joined.klass.id, name=joined.klass.name),
        personal_code=joined.personal_code,
    )


@router.post("/classes/come-back")
def come_back(
    body: ComeBackRequest,
    request: Request,
    response: Response,
    settings: SettingsDep,
    people: PeopleDep,
) -> Me:
    """Come back to one's class on another device (or after signing out): its join code and
    one's personal code. After the class ended, read-only while its results are kept."""
    _require_classroom(settings)
    student, klass = service.come_back(
        people, settings, body.code, body.personal_code, _client(request)
    )
    _set_session(response, request, settings, service.issue_session(people, settings, student))
    until = service.results_until(klass)
    shown = replace(student, read_only_until=until) if until else student
    return Me(
        mode="classroom",
        person=_person_out(shown),
        class_=ClassBrief(id=klass.id, name=klass.name),
    )


@router.post("/classes", status_code=201)
def create_class(
    body: ClassCreate, person: PersonDep, settings: SettingsDep, people: PeopleDep, store: StoreDep
) -> ClassOut:
    _require_classroom(settings)
    require_instructor(person)
    klass = service.create_class(people, person, body.name, body.ends_at, body.results_days)
    return service.class_out(people, store, klass, person)


@router.patch("/classes/{class_id}")
def update_class(
    class_id: str,
    body: ClassUpdate,
    person: PersonDep,
    settings: SettingsDep,
    people: PeopleDep,
    store: StoreDep,
) -> ClassOut:
    """Change how long the class's students may read their results after it ends (an ended
    class too: a shorter time takes their access away sooner)."""
    _require_classroom(settings)
    taught_class(people, person, class_id)
    klass = people.set_results_days(class_id, body.results_days)
    assert klass is not None  # it was just read, and classes are never deleted
    return service.class_out(people, store, klass, person)


@router.get("/classes/{class_id}/staff")
def class_staff(
    class_id: str, person: PersonDep, settings: SettingsDep, people: PeopleDep
) -> list[StaffOut]:
    """Who teaches the class: its own instructor, then its co-teachers and assistants."""
    _require_classroom(settings)
    return service.staff_list(people, taught_class(people, person, class_id, STAFF))


@router.put("/classes/{class_id}/staff")
def add_class_staff(
    class_id: str, body: StaffRequest, person: PersonDep, settings: SettingsDep, people: PeopleDep
) -> StaffOut:
    """The class's own instructor adds an instructor account as a co-teacher or a teaching
    assistant (again: changes their role)."""
    _require_classroom(settings)
    klass = taught_class(people, person, class_id, OWNER)
    return service.add_staff(people, klass, body.name, body.role)


@router.delete("/classes/{class_id}/staff/{person_id}", status_code=204)
def remove_class_staff(
    class_id: str, person_id: str, person: PersonDep, settings: SettingsDep, people: PeopleDep
) -> None:
    _require_classroom(settings)
    klass = taught_class(people, person, class_id, OWNER)
    if not people.remove_staff(klass.id, person_id):
        raise NotFound(NOT_STAFF(person_id=person_id))


@router.get("/classes/{class_id}/join-links")
def class_join_links(
    class_id: str, request: Request, person: PersonDep, settings: SettingsDep, people: PeopleDep
) -> JoinLinks:
    """Where students can open the class, first the one to show: the public address if the
    host's owner set one, else the address this browser used unless it names the host itself,
    then the host's network addresses; with a warning when none could work off the host."""
    _require_classroom(settings)
    klass = taught_class(people, person, class_id, STAFF)
    origin = origin_of(request.url.scheme, request.headers.get("host", "localhost"))
    return join_links(settings, origin, service.show_code(klass.join_code))


@router.post("/classes/{class_id}/end")
def end_class(
    class_id: str, person: PersonDep, settings: SettingsDep, people: PeopleDep, store: StoreDep
) -> ClassOut:
    """End a class: its code admits nobody, its students' sessions end, and their runs still
    waiting are cancelled; what ran stays, for the instructor to read."""
    _require_classroom(settings)
    klass = taught_class(people, person, class_id)
    return service.class_out(people, store, service.end_class(people, store, klass), person)


@router.get("/classes")
def list_classes(
    person: PersonDep, settings: SettingsDep, people: PeopleDep, store: StoreDep
) -> list[ClassOut]:
    _require_classroom(settings)
    require_instructor(person)
    return [service.class_out(people, store, k, person) for k in people.classes_of(person.id)]
