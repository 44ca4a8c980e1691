from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Varied = Literal["connections", "idle_connections", "rate", "payload_bytes"]
PointStatus = Literal["queued", "running", "done", "failed", "cancelled", "skipped"]


class SweepRequest(BaseModel):
    """One or more servers, each run once per value of one parameter."""

    model_config = ConfigDict(extra="forbid")

    servers: list[str] = Field(min_length=1, max_length=12, description="server ids")
    vary: Varied = Field(description="the run parameter that takes each of `values` in turn")
    values: list[float] = Field(min_length=1, description="the values, in order")
    base: dict[str, Any] = Field(
        default_factory=dict,
        description="every other run parameter, as in POST /api/runs (without server and the "
        "varied one)",
    )


class SweepCreated(BaseModel):
    id: str
    points: int
    skipped: int


class Point(BaseModel):
    """One (server, value) of a sweep, with its run's headline figures once it has them."""

    server: str
    value: float
    run_id: str | None
    status: PointStatus
    reason: str | None = Field(description="why it was skipped, failed or is invalid")
    valid: bool | None = None
    qps: float | None = None
    spread: float | None = Field(None, description="(max - min) / median QPS of repetitions")
    noisy: bool | None = None
    p50_us: float | None = None
    p99_us: float | None = None
    errors: int | None = None
    cpu_percent: float | None = None
    rss_bytes: int | None = Field(None, description="the server's mean resident memory")
    threads: int | None = None
    voluntary_ctxt_switches_per_s: float | None = None
    nonvoluntary_ctxt_switches_per_s: float | None = None
    idle_dropped: int | None = None
    calls_per_request: float | None = None


class SweepOut(BaseModel):
    id: str
    request: dict[str, Any]
    created_at: str
    finished: bool
    points: list[Point]
    memory_per_connection: dict[str, float | None] = Field(
        description="per server, bytes of resident memory per extra connection (slope between "
        "the smallest and largest valid point); only when connections or idle_connections vary"
    )
