"""Typed dependencies shared by the routes: the settings and stores the app made as it
started, and who is calling."""

import re
import secrets
from collections.abc import Callable
from dataclasses import replace
from typing import Annotated, TypeVar

from fastapi import Cookie, Depends, Request, Response

from c10klab.classroom.feed import ClassHub
from c10klab.classroom.store import ClassroomStore
from c10klab.config import Settings
from c10klab.errors import Unauthenticated
from c10klab.hosts.store import RunnerStore
from c10klab.news import News
from c10klab.people.service import COOKIE, person_for_cookie, refuse_read_only
from c10klab.people.store import SOLO, PeopleStore, Person
from c10klab.runs.store import RunStore
from c10klab.sweeps.store import SweepStore
from c10klab.variants.store import VariantStore

T = TypeVar("T")


def _made_at_start(attribute: str, kind: type[T]) -> Callable[[Request], T]:
    """A dependency handing a route the `kind` the app made as it started (`app.state`)."""

    def made(request: Request) -> T:
        found = getattr(request.app.state, attribute)
        if not isinstance(found, kind):
            raise TypeError(f"app.state.{attribute} is not a {kind.__name__}")
        return found

    return made


SettingsDep = Annotated[Settings, Depends(_made_at_start("settings", Settings))]
StoreDep = Annotated[RunStore, Depends(_made_at_start("store", RunStore))]
SweepsDep = Annotated[SweepStore, Depends(_made_at_start("sweeps", SweepStore))]
RunnersDep = Annotated[RunnerStore, Depends(_made_at_start("runners", RunnerStore))]
NewsDep = Annotated[News, Depends(_made_at_start("news", News))]
PeopleDep = Annotated[PeopleStore, Depends(_made_at_start("people", PeopleStore))]
ClassroomDep = Annotated[ClassroomStore, Depends(_made_at_start("classroom", ClassroomStore))]
HubDep = Annotated[ClassHub, Depends(_made_at_start("class_hub", ClassHub))]
VariantsDep = Annotated[VariantStore, Depends(_made_at_start("variants", VariantStore))]
SessionCookie = Annotated[str | None, Cookie(alias=COOKIE, include_in_schema=False)]

# Solo mode tells browsers apart by a random id in a cookie, so that each keeps its own history
# on a shared host. It names no one and grants nothing: in solo mode everyone sees everything.
BROWSER_COOKIE = "c10k_browser"
BROWSER_ID = re.compile(r"^[0-9a-f]{32}$")
BrowserCookie = Annotated[str | None, Cookie(alias=BROWSER_COOKIE, include_in_schema=False)]


def solo_browser(response: Response, browser: str | None) -> str:
    """This browser's id, minted (and sent back as a cookie) on its first call."""
    if browser is not None and BROWSER_ID.match(browser):
        return browser
    browser = secrets.token_hex(16)
    response.set_cookie(
        BROWSER_COOKIE,
        browser,
        max_age=5 * 365 * 24 * 3600,
        httponly=True,
        samesite="lax",
        path="/",
    )
    return browser


def _who_asks(
    settings: SettingsDep,
    people: PeopleDep,
    response: Response,
    session: SessionCookie = None,
    browser: BrowserCookie = None,
) -> Person | Unauthenticated:
    """Who is asking: solo mode's one person (at one browser), or the owner of a valid session;
    else why nobody is. Read once a request for both dependencies below: one refuses nobody
    with a 401, the other lets them in."""
    if settings.mode == "solo":
        return replace(SOLO, browser=solo_browser(response, browser))
    try:
        return person_for_cookie(people, settings, session)
    except Unauthenticated as nobody:
        return nobody


WhoAsks = Annotated[Person | Unauthenticated, Depends(_who_asks)]


# What a student of an ended class may still ask that is not a read: to sign out.
READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
ALWAYS_ALLOWED = frozenset({"/api/auth/logout"})


def current_person(who: WhoAsks, request: Request) -> Person:
    """Who is asking (else 401). A student whose class ended reads and changes nothing (403),
    wherever the route: one rule here, not one per route."""
    if isinstance(who, Unauthenticated):
        raise who
    if request.method not in READ_METHODS and request.url.path not in ALWAYS_ALLOWED:
        refuse_read_only(who)
    return who


PersonDep = Annotated[Person, Depends(current_person)]


def maybe_person(who: WhoAsks) -> Person | None:
    """Who is asking, or None for nobody signed in: for public pages that show more to some."""
    return None if isinstance(who, Unauthenticated) else who


MaybePersonDep = Annotated[Person | None, Depends(maybe_person)]
