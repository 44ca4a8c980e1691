"""The API application: /api routers, OpenAPI at /docs, and the built frontend at /."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI

from c10klab.config import Settings, get_settings
from c10klab.content.router import router as content_router
from c10klab.errors import install_error_handlers
from c10klab.health.router import router as health_router
from c10klab.runs.router import router as runs_router
from c10klab.sandboxes.router import router as sandboxes_router
from c10klab.store import Store
from c10klab.sweeps.router import router as sweeps_router
from c10klab.web import mount_frontend


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.settings = settings
        app.state.store = Store(settings.db_path)
        yield

    app = FastAPI(title="C10K Lab", version="0.1.0", lifespan=lifespan)
    install_error_handlers(app)
    api = APIRouter(prefix="/api")
    for router in (health_router, content_router, sandboxes_router, runs_router, sweeps_router):
        api.include_router(router)
    app.include_router(api)
    mount_frontend(app, settings.frontend_dist)
    return app
