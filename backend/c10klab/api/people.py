"""Logging in, joining a class, and the instructor's classes."""

from fastapi import APIRouter, Request, Response

from c10klab.api.deps import PeopleDep, PersonDep, SessionCookie, SettingsDep, StoreDep
from c10klab.config import Settings
from c10klab.errors import NotFound, Unauthenticated
from c10klab.people import service
from c10klab.people.access import require_instructor, taught_class
from c10klab.people.schemas import (
    ClassBrief,
    ClassCreate,
    ClassOut,
    JoinRequest,
    LoginRequest,
    Me,
    PersonOut,
)
from c10klab.people.store import Person

router = APIRouter(tags=["people"])


def _require_classroom(settings: Settings) -> None:
    if settings.mode != "classroom":
        raise NotFound(
            "this course runs in solo mode: there are no logins or classes "
            "(start it with C10K_MODE=classroom to host a class)"
        )


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
    return PersonOut(id=person.id, kind=person.kind, name=person.name)


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
    except Unauthenticated:
        return Me(mode="classroom", person=None)
    klass = people.get_class(person.class_id) if person.class_id else None
    brief = ClassBrief(id=klass.id, name=klass.name) if klass else None
    return Me(mode="classroom", person=_person_out(person), class_=brief)


@router.post("/classes/join")
def join_class(
    body: JoinRequest,
    request: Request,
    response: Response,
    settings: SettingsDep,
    people: PeopleDep,
) -> Me:
    _require_classroom(settings)
    address = request.client.host if request.client else "unknown"
    student, klass = service.join(people, settings, body.code, body.name, address)
    _set_session(response, request, settings, service.issue_session(people, settings, student))
    return Me(
        mode="classroom",
        person=_person_out(student),
        class_=ClassBrief(id=klass.id, name=klass.name),
    )


@router.post("/classes", status_code=201)
def create_class(
    body: ClassCreate, person: PersonDep, settings: SettingsDep, people: PeopleDep, store: StoreDep
) -> ClassOut:
    _require_classroom(settings)
    require_instructor(person)
    klass = service.create_class(people, person, body.name, body.ends_at)
    return service.class_out(people, store, klass)


@router.post("/classes/{class_id}/end")
def end_class(
    class_id: str, person: PersonDep, settings: SettingsDep, people: PeopleDep, store: StoreDep
) -> ClassOut:
    """End a class: its code admits nobody, its students' sessions end, and their runs still
    waiting are cancelled; what ran stays, for the instructor to read."""
    _require_classroom(settings)
    klass = taught_class(people, person, class_id)
    return service.class_out(people, store, service.end_class(people, store, klass))


@router.get("/classes")
def list_classes(
    person: PersonDep, settings: SettingsDep, people: PeopleDep, store: StoreDep
) -> list[ClassOut]:
    _require_classroom(settings)
    require_instructor(person)
    return [service.class_out(people, store, k) for k in people.classes_of(person.id)]
