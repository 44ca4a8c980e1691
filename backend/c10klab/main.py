"""The API application: /api routers, OpenAPI at /docs, and the built frontend at /."""

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import cache, partial

from fastapi import APIRouter, FastAPI
from fastapi.middleware.gzip import GZipMiddleware
from starlette.routing import BaseRoute

from c10klab.api.classroom import router as classroom_router
from c10klab.api.content import router as content_router
from c10klab.api.exercises import router as exercises_router
from c10klab.api.health import router as health_router
from c10klab.api.lab import router as lab_router
from c10klab.api.people import router as people_router
from c10klab.api.runs import router as runs_router
from c10klab.api.sandboxes import router as sandboxes_router
from c10klab.api.sweeps import router as sweeps_router
from c10klab.api.variants import router as variants_router
from c10klab.classroom import live
from c10klab.classroom.feed import ClassHub
from c10klab.classroom.service import StateReader
from c10klab.classroom.store import ClassroomStore
from c10klab.client_address import install_client_address, trusted_proxies
from c10klab.config import Settings, get_settings
from c10klab.cross_site import CrossSiteGuard, HostGuard
from c10klab.errors import install_error_handlers
from c10klab.hosts.store import RunnerStore
from c10klab.http_guards import install_request_guards
from c10klab.news import News
from c10klab.openapi import document as describe_api
from c10klab.people import service as people_service
from c10klab.people.store import PeopleStore
from c10klab.runs.store import RunStore
from c10klab.sweeps.store import SweepStore
from c10klab.variants.store import VariantStore
from c10klab.web import mount_frontend

log = logging.getLogger("c10klab.api")

# How often the API looks for runs whose runner stopped renewing its lease (and for classes
# whose planned end has come).
LEASE_CHECK_S = 2.0


def expire_leases(store: RunStore) -> None:
    """End the runs of a runner that died: a run whose lease ran out is failed with the
    reason, which also ends its event stream. The API does it, not the runner, because the
    runner may not come back."""
    for run_id in store.expire_leases():
        log.warning("run %s failed: its runner's lease ran out", run_id)


def end_due_classes(people: PeopleStore, store: RunStore) -> None:
    """End the classes whose planned end has come, as their instructor would."""
    for klass in people.classes_due_to_end():
        people_service.end_class(people, store, klass)
        log.info("class %s ended at its planned time", klass.id)


async def housekeeping_forever(people: PeopleStore, store: RunStore) -> None:
    chores = (partial(expire_leases, store), partial(end_due_classes, people, store))
    while True:
        for chore in chores:
            try:
                await asyncio.to_thread(chore)
            except Exception:  # a locked or missing store must not end the loop
                log.exception("%s failed", chore.func.__name__)
        await asyncio.sleep(LEASE_CHECK_S)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.settings = settings
        app.state.store = RunStore(settings.store)
        app.state.sweeps = SweepStore(settings.store)
        app.state.runners = RunnerStore(settings.store)
        app.state.news = News(settings.database_url, run_seqs=app.state.store.latest_seqs)
        await app.state.news.start()
        app.state.people = PeopleStore(settings.store)
        app.state.classroom = ClassroomStore(settings.store)
        app.state.variants = VariantStore(settings.store)
        app.state.class_hub = ClassHub(
            StateReader(
                app.state.people,
                app.state.sweeps,
                app.state.classroom,
                settings.content_dir,
                live=live.live,
            ),
            app.state.classroom,
            app.state.news,
        )
        chores = asyncio.create_task(housekeeping_forever(app.state.people, app.state.store))
        yield
        await app.state.class_hub.close()
        await app.state.news.close()
        chores.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await chores

    app = FastAPI(title="C10K Lab", version="0.1.0", lifespan=lifespan)
    # /openapi.json with each event stream's events spelt out (c10klab.openapi).
    app.openapi = partial(describe_api, app)  # type: ignore[method-assign]
    install_error_handlers(app)
    install_request_guards(app)
    app.add_middleware(CrossSiteGuard, allowed_origins=settings.allowed_origins)
    # outside the other guards: a request for a host name not served meets nothing else
    app.add_middleware(HostGuard, served=settings.served_hosts)
    # JSON answers (a lesson with its drawn diagrams is ~50 kB) go gzipped to browsers that
    # take it; event streams and the frontend's pre-compressed files pass untouched.
    app.add_middleware(GZipMiddleware, minimum_size=1024)
    install_client_address(app, trusted_proxies(settings.trusted_proxies))
    app.router.routes.extend(api_routes())
    mount_frontend(app, settings.frontend_dist)
    return app


@cache
def api_routes() -> tuple[BaseRoute, ...]:
    """The API's routes under /api, built once per process and mounted by every app it makes.
    Building them analyses each endpoint's parameters and dependencies into pydantic adapters,
    about 0.1 s for the whole API, and a route keeps nothing of an app (what a request needs it
    finds in `request.app.state`); the tests make hundreds of apps. (So no app's
    `dependency_overrides` reach them: the course uses none.)"""
    api = APIRouter(prefix="/api")
    routers = (health_router, content_router, sandboxes_router, people_router, runs_router)
    domains = (sweeps_router, classroom_router, lab_router, variants_router, exercises_router)
    for router in (*routers, *domains):
        api.include_router(router)
    return tuple(api.routes)
