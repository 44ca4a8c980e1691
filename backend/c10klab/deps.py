"""Typed dependencies shared by the routers."""

import re
import secrets
from dataclasses import replace
from typing import Annotated

from fastapi import Cookie, Depends, Request, Response

from c10klab.classroom.feed import ClassHub
from c10klab.classroom.store import ClassroomStore
from c10klab.config import Settings
from c10klab.errors import Unauthenticated
from c10klab.people.service import COOKIE, person_for_cookie
from c10klab.people.store import SOLO, PeopleStore, Person
from c10klab.runners.store import RunnerStore
from c10klab.runs.news import RunNews
from c10klab.runs.store import RunStore
from c10klab.sweeps.store import SweepStore
from c10klab.variants.store import VariantStore


def get_app_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_store(request: Request) -> RunStore:
    store: RunStore = request.app.state.store
    return store


def get_sweeps(request: Request) -> SweepStore:
    sweeps: SweepStore = request.app.state.sweeps
    return sweeps


def get_runners(request: Request) -> RunnerStore:
    runners: RunnerStore = request.app.state.runners
    return runners


def get_news(request: Request) -> RunNews:
    news: RunNews = request.app.state.news
    return news


def get_people(request: Request) -> PeopleStore:
    people: PeopleStore = request.app.state.people
    return people


def get_classroom(request: Request) -> ClassroomStore:
    classroom: ClassroomStore = request.app.state.classroom
    return classroom


def get_variants(request: Request) -> VariantStore:
    variants: VariantStore = request.app.state.variants
    return variants


def get_hub(request: Request) -> ClassHub:
    hub: ClassHub = request.app.state.class_hub
    return hub


SettingsDep = Annotated[Settings, Depends(get_app_settings)]
StoreDep = Annotated[RunStore, Depends(get_store)]
SweepsDep = Annotated[SweepStore, Depends(get_sweeps)]
RunnersDep = Annotated[RunnerStore, Depends(get_runners)]
NewsDep = Annotated[RunNews, Depends(get_news)]
PeopleDep = Annotated[PeopleStore, Depends(get_people)]
ClassroomDep = Annotated[ClassroomStore, Depends(get_classroom)]
HubDep = Annotated[ClassHub, Depends(get_hub)]
VariantsDep = Annotated[VariantStore, Depends(get_variants)]
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


def current_person(
    settings: SettingsDep,
    people: PeopleDep,
    response: Response,
    session: SessionCookie = None,
    browser: BrowserCookie = None,
) -> Person:
    """Who is asking: solo mode's one person (at one browser), or the owner of a valid session
    (else 401)."""
    if settings.mode == "solo":
        return replace(SOLO, browser=solo_browser(response, browser))
    return person_for_cookie(people, settings, session)


PersonDep = Annotated[Person, Depends(current_person)]


def maybe_person(
    settings: SettingsDep,
    people: PeopleDep,
    response: Response,
    session: SessionCookie = None,
    browser: BrowserCookie = None,
) -> Person | None:
    """Who is asking, or None for nobody signed in: for public pages that show more to some."""
    try:
        return current_person(settings, people, response, session, browser)
    except Unauthenticated:
        return None


MaybePersonDep = Annotated[Person | None, Depends(maybe_person)]
