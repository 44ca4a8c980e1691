"""GET /api/health. The API never talks to Docker: it reports what the runner last said in its
heartbeat (engine reachable, images present), and whether that heartbeat is recent."""

import time
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from c10klab.deps import StoreDep

router = APIRouter(tags=["health"])

# The runner writes a heartbeat every few seconds; older than this means it is not running.
HEARTBEAT_STALE_S = 12.0


class DockerHealth(BaseModel):
    reachable: bool
    version: str | None
    error: str | None


class Health(BaseModel):
    status: str
    runner: bool
    docker: DockerHealth
    images: dict[str, bool]
    ready: bool
    reason: str | None
    heartbeat_age_s: float | None = Field(
        description="seconds since the runner last reported; null if it never has"
    )


@router.get("/health")
def health(store: StoreDep) -> Health:
    beat = store.runner_status()
    age = round(time.time() - beat[0], 1) if beat else None
    if beat is None or age is None or age > HEARTBEAT_STALE_S:
        last = f" (last heard of {age:.0f} s ago; queued runs wait for it)" if age else ""
        return Health(
            status="ok",
            runner=False,
            docker=DockerHealth(reachable=False, version=None, error=None),
            images={},
            ready=False,
            reason="the benchmark runner is not running"
            + (last or " (start the course with `make up`)"),
            heartbeat_age_s=age,
        )
    report: dict[str, Any] = beat[1]
    docker = DockerHealth(**report["docker"])
    images: dict[str, bool] = report.get("images", {})
    missing = [tag for tag, present in images.items() if not present]
    reason = None
    if not docker.reachable:
        reason = f"the Docker engine is not reachable: {docker.error}"
    elif missing:
        reason = f"images not built: {', '.join(missing)} (run `make images`)"
    return Health(
        status="ok",
        runner=True,
        docker=docker,
        images=images,
        ready=reason is None,
        reason=reason,
        heartbeat_age_s=age,
    )
