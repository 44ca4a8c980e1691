"""GET /api/health. The API never talks to Docker: it reports what each runner host last said
in its heartbeat (engine reachable, images present, what it is running), and whether that
heartbeat is recent. The course can run when at least one live runner is ready."""

from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field

from c10klab.api.deps import RunnersDep
from c10klab.hosts.store import RunnerHost, sharing_cpus
from c10klab.uncertainty import HostNoise

router = APIRouter(tags=["health"])


class DockerHealth(BaseModel):
    reachable: bool
    version: str | None
    error: str | None


class RunnerHealth(BaseModel):
    id: str
    host: str
    server_cpus: str
    loadgen_cpus: str
    engine: str | None = Field(description="the Docker engine's version, if reachable")
    state: Literal["idle", "running", "stopped", "lost"]
    run_id: str | None
    ready: bool
    reason: str | None
    heartbeat_age_s: float
    shares_cpus_with: list[str] = Field(
        description="live runners on the same host pinned to some of the same CPUs"
    )
    noise: HostNoise | None = Field(
        description="its host's run-to-run spread, as it last measured it; null until then"
    )


class Health(BaseModel):
    status: str
    runner: bool = Field(description="at least one runner is alive")
    docker: DockerHealth
    images: dict[str, bool]
    ready: bool
    reason: str | None
    heartbeat_age_s: float | None = Field(
        description="seconds since a runner last reported; null if none ever has"
    )
    runners: list[RunnerHealth]
    noise: HostNoise | None = Field(
        None, description="the run-to-run spread of the runner shown (the ready one's)"
    )


def why_not_ready(runner: RunnerHost) -> str | None:
    docker = DockerHealth(**runner.docker) if runner.docker else None
    missing = [tag for tag, present in runner.images.items() if not present]
    if docker is None or not docker.reachable:
        return f"the Docker engine is not reachable: {docker.error if docker else 'unknown'}"
    if missing:
        return f"images not built: {', '.join(missing)} (run `make images`)"
    return None


def runner_health(runner: RunnerHost, everyone: list[RunnerHost]) -> RunnerHealth:
    state = runner.state if runner.alive or runner.state == "stopped" else "lost"
    reason = why_not_ready(runner) if runner.alive else None
    return RunnerHealth(
        id=runner.id,
        host=runner.host,
        server_cpus=runner.server_cpus,
        loadgen_cpus=runner.loadgen_cpus,
        engine=runner.docker.get("version") if runner.docker.get("reachable") else None,
        state=state,  # idle | running | stopped, as the runner says, or lost
        run_id=runner.run_id if runner.alive else None,
        ready=runner.alive and reason is None,
        reason=reason,
        heartbeat_age_s=round(runner.age_s(), 1),
        shares_cpus_with=sharing_cpus(runner, everyone) if runner.alive else [],
        noise=runner.noise,
    )


@router.get("/health")
def health(runners: RunnersDep) -> Health:
    hosts = runners.hosts()  # the latest heard from first
    listed = [runner_health(r, hosts) for r in hosts]
    alive = [r for r in hosts if r.alive]
    age = round(hosts[0].age_s(), 1) if hosts else None
    if not alive:
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
            runners=listed,
        )
    # The engine and images shown are a ready runner's if there is one, else the freshest's.
    best = next((r for r in alive if why_not_ready(r) is None), alive[0])
    reason = why_not_ready(best)
    return Health(
        status="ok",
        runner=True,
        docker=DockerHealth(**best.docker),
        images=best.images,
        ready=reason is None,
        reason=reason,
        heartbeat_age_s=round(best.age_s(), 1),
        runners=listed,
        noise=best.noise,
    )
