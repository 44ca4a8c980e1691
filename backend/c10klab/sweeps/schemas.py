import math
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    RootModel,
    SerializerFunctionWrapHandler,
    ValidationInfo,
    field_validator,
    model_serializer,
    model_validator,
)
from pydantic_core import PydanticCustomError

from c10klab.results.schemas import SyscallRow
from c10klab.runs.schemas import ExperimentKey, LessonSlug, RunSettings
from c10klab.uncertainty import Comparison, HostNoise, Interval

# "round": the same run again, for comparing servers fairly: with values 1..R every server runs
# once per round, rounds in turn (A, B, A, B ...), so a drift of the machine falls on all alike.
Varied = Literal["connections", "idle_connections", "rate", "payload_bytes", "round"]
MAX_ROUNDS = 10
# A sweep's server entry for a learner's edited server: "variant:" and its id.
VARIANT_ENTRY = "variant:"
PointStatus = Literal["queued", "running", "done", "failed", "cancelled", "skipped"]


def _first_non_finite(value: object, where: str = "") -> tuple[str, float] | None:
    """Where in a JSON value its first NaN or infinite number is (`knobs.depth`), and it."""
    if isinstance(value, float):
        return None if math.isfinite(value) else (where, value)
    if isinstance(value, dict):
        children = [(str(key), child) for key, child in value.items()]
    elif isinstance(value, list):
        children = [(str(index), child) for index, child in enumerate(value)]
    else:
        return None
    for key, child in children:
        found = _first_non_finite(child, f"{where}.{key}" if where else key)
        if found:
            return found
    return None


class SweepBase(RunSettings):
    """A sweep's `base`: the run settings its points share, kept as given. Sent back (GET
    /api/sweeps/{id}, a lesson's parsed series) it holds only what was given, not the defaults
    each run fills in, so it is accepted again as it is (a varied field among the defaults
    would not be); its schema is the same both ways."""

    model_config = ConfigDict(json_schema_mode_override="validation")

    # No return annotation on purpose: pydantic then describes the output with the model's
    # own schema (an annotated one would replace it).
    @model_serializer(mode="wrap")
    def _as_given(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        dumped = handler(self)
        return {k: v for k, v in dumped.items() if k in self.model_fields_set}


class SweepRequest(BaseModel):
    """One or more servers, each run once per value of one parameter. As in RunRequest, no
    number may be NaN or infinite, `base` included: its fields become each point's RunRequest
    only later, and the request is stored and sent back as JSON."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    servers: list[str] = Field(
        min_length=1,
        max_length=12,
        description="server ids, or `variant:<id>` for one of your edited servers (POST "
        "/api/variants, checked)",
    )
    vary: Varied = Field(
        description="the run parameter that takes each of `values` in turn; `round` repeats "
        "the same run, values 1..R, each round running every server in turn"
    )
    values: list[float] = Field(min_length=1, description="the values, in order")
    base: SweepBase = Field(
        default_factory=SweepBase,
        description="every other run parameter, as in POST /api/runs (without server and the "
        "varied one)",
    )
    total_connections: int | None = Field(
        None,
        ge=1,
        description="with vary: connections, hold active plus idle connections at this total: "
        "each point's idle_connections is the total less its connections. How epoll's cost "
        "follows the ready descriptors when the descriptors watched stay the same",
    )
    server_knobs: dict[str, dict[str, int | str | bool]] | None = Field(
        None,
        description="knobs of one server only, by server id (one of `servers`): added to "
        "base.knobs for that server's points, and taking the place of any of the same name; "
        "for comparing servers whose knobs differ",
    )
    within: float | None = Field(
        None,
        gt=0,
        le=0.5,
        description="with vary: round, run only as many of the rounds in `values` as this "
        "host's run-to-run spread says the QPS verdict needs to be about ±within wide (0.05 = "
        "±5 %), at least 3; all of them while the spread is unknown",
    )
    lesson: LessonSlug | None = Field(None, description="the lesson the series is in")
    experiment: ExperimentKey | None = Field(
        None, description="the series block's key, as GET /api/lessons/{slug} lists it"
    )

    @model_validator(mode="after")
    def _total_holds_every_point(self) -> "SweepRequest":
        if self.total_connections is None:
            return self
        if self.vary != "connections":
            raise PydanticCustomError(
                "total_needs_connections",
                "total_connections needs vary: connections (it sets each point's idle "
                "connections to the total less its connections)",
            )
        if "idle_connections" in self.base.model_fields_set:
            raise PydanticCustomError(
                "total_sets_idle",
                "total_connections sets idle_connections itself; leave it out of base",
            )
        over = [v for v in self.values if v > self.total_connections]
        if over:
            raise PydanticCustomError(
                "over_total",
                "values: {values} more connections than total_connections ({total})",
                {"values": ", ".join(f"{v:g}" for v in over), "total": self.total_connections},
            )
        return self

    @model_validator(mode="after")
    def _within_needs_rounds(self) -> "SweepRequest":
        if self.within is not None and self.vary != "round":
            raise PydanticCustomError(
                "within_needs_rounds",
                "within needs vary: round (it says how many rounds to run)",
            )
        return self

    @model_validator(mode="after")
    def _knobs_of_its_servers(self) -> "SweepRequest":
        strangers = sorted(set(self.server_knobs or {}) - set(self.servers))
        if strangers:
            raise PydanticCustomError(
                "not_in_servers",
                "server_knobs: {servers} not among `servers`",
                {"servers": ", ".join(strangers)},
            )
        return self

    @field_validator("base", mode="before")
    @classmethod
    def _base_as_sent(cls, base: object, info: ValidationInfo) -> object:
        """Before `base` is read as run settings: no non-finite number anywhere in it (said
        with where it is), and none of the fields the sweep sets itself."""
        found = _first_non_finite(base)
        if found:
            field, value = found
            raise PydanticCustomError(
                "finite_number",
                "{field} must be a finite number",
                {"field": field, "value": value},
            )
        if isinstance(base, dict):
            for taken in ("server", info.data.get("vary"), "lesson", "experiment"):
                if taken in base:
                    raise PydanticCustomError(
                        "set_by_sweep",
                        "`{field}` is set by the sweep itself; leave it out of base",
                        {"field": taken},
                    )
        return base


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
    stable: bool | None = Field(
        None, description="false when something disturbed the run while it was measured"
    )
    unstable_reason: str | None = None
    client_bound: bool | None = Field(
        None,
        description="true when the load generator's CPUs were saturated and the server's were "
        "not: the figures measure the client",
    )
    qps: float | None = None
    spread: float | None = Field(None, description="(max - min) / median QPS of repetitions")
    qps_interval: Interval | None = Field(
        None,
        description="the QPS's interval: the median of its repetitions' with its interval when "
        "it was repeated, else where a second run would land by its host's noise (null while "
        "that is unknown)",
    )
    p99_interval: Interval | None = Field(
        None,
        description="the p99's interval over its repetitions; null for a single run (the "
        "hosts' noise is measured on QPS only)",
    )
    noisy: bool | None = None
    p50_us: float | None = None
    p99_us: float | None = None
    errors: int | None = None
    cpu_percent: float | None = None
    rss_bytes: int | None = Field(None, description="the server's mean resident memory")
    threads: int | None = None
    voluntary_ctxt_switches_per_s: float | None = None
    nonvoluntary_ctxt_switches_per_s: float | None = None
    idle_dropped: int | None = Field(
        None, description="idle connections dropped, reconnects dropped again included"
    )
    idle_dropped_connections: int | None = Field(
        None, description="distinct idle connections dropped (null in older runs)"
    )
    calls_per_request: float | None = None
    syscalls: list[SyscallRow] | None = Field(
        None, description="a profiled run's system calls per request, call by call"
    )
    host_noise: HostNoise | None = Field(
        None,
        description="its runner's run-to-run spread when it ran: how far a second run could "
        "land (null while unknown, and in recordings made before runners measured it)",
    )


class EntryFigures(BaseModel):
    """One server entry of a comparison in rounds: its figures over the rounds that measured
    it undisturbed, each a median with its interval."""

    server: str
    qps: Interval | None
    p99_us: Interval | None


class SweepOut(BaseModel):
    id: str
    request: SweepRequest
    created_at: str
    finished: bool
    points: list[Point]
    memory_per_connection: dict[str, float | None] = Field(
        description="per server, bytes of resident memory per extra connection (slope between "
        "the smallest and largest valid point); only when connections or idle_connections vary"
    )
    entries: list[EntryFigures] = Field(
        [], description="with vary: round, each server entry's median figures with intervals"
    )
    verdicts: list[Comparison] = Field(
        [],
        description="with vary: round, each server entry after the first against the first "
        "(QPS, then p99), pair by pair over the rounds that measured both undisturbed",
    )


class PointEvent(BaseModel):
    type: Literal["point"]
    data: Point


class SweepDoneEvent(BaseModel):
    type: Literal["done"]
    data: SweepOut


class SweepEvent(RootModel[Annotated[PointEvent | SweepDoneEvent, Field(discriminator="type")]]):
    """One event of a sweep's stream: `point` as each point finishes, in order (id = its
    position from 1), then `done` with the table (id = points + 1)."""
