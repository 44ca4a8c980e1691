"""What a run is asked to do: POST /api/runs's body, as one model from the API to the runner.

It lives apart from the domains because three of them name it: runs queues it, the runner runs
it (c10klab.runner reads its fields, never string keys), and results records it in a result's
provenance. c10klab.runs.schemas offers the same names.
"""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

# What the load generator speaks to a server: its echo, or HTTP/1.1 with keep-alive.
Protocol = Literal["echo", "http"]

# Where a run comes from: a lesson's slug and one of its experiment blocks' keys (the first 12
# hex digits of the SHA-256 of what the block asks for: content.experiments.request_key, the
# same in every language). The class board and CSV group by them.
LessonSlug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{0,79}$")]
ExperimentKey = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{12}$")]
VariantId = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{32}$")]
# A server's knobs by name, as the catalog lists them: --trigger et is {"trigger": "et"}.
Knobs = dict[str, int | str | bool]


class RunSettings(BaseModel):
    """Every run parameter but the server: a run's settings, and a sweep's `base`. Limits that
    depend on the server or the host's settings are checked in service.validate_request, where
    the catalog and settings are known. No number may be NaN or infinite (JSON has neither, but
    Python's parser reads NaN, Infinity and 1e400): Infinity passes a `ge` bound, and neither
    could be sent back as JSON."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    connections: int = Field(100, ge=1, description="active connections, one request in flight")
    payload_bytes: int = Field(64, ge=1, description="echo request size in bytes")
    duration_s: float = Field(10, gt=0, description="measured seconds")
    warmup_s: float = Field(2, ge=0, description="seconds of load before measuring starts")
    protocol: Protocol = Field(
        "echo",
        description="echo: the payload sent back as is; http: a GET answered with the payload as "
        "its body, one request per keep-alive round trip",
    )
    knobs: Knobs = Field({}, description="server knobs by name, as listed in the catalog")
    rate: float = Field(
        0,
        ge=0,
        le=10_000_000,
        description="open loop: requests/s for the whole run, sent at their intended times "
        "(latency counted from then); 0 = closed loop, one request in flight per connection",
    )
    idle_connections: int = Field(
        0, ge=0, description="extra connections that stay open and never send"
    )
    new_connection_per_request: bool = Field(
        False, description="open a fresh connection for every request (short connections)"
    )
    ramp_s: float = Field(0, ge=0, description="seconds over which the connections are opened")
    repetitions: int = Field(
        1, ge=1, description="independent repetitions; the result reports median and spread"
    )
    profile: Literal["throughput", "syscalls", "cpu", "offcpu"] = Field(
        "throughput",
        description="syscalls: also count the server's system calls at full speed (perf's "
        "tracepoints, in a container beside it) and return them per request; cpu: also sample "
        "the server's call stacks, user and kernel, over the measured phase (a flame graph, "
        "and the shares of user code, system calls, softirq and idle); offcpu: also record "
        "where its threads left the CPU and for how long (blocked or waiting for a CPU). The "
        "speed figures stand as in any run, with what profiling costs in them: compare a "
        "profiled run only with runs profiled the same way",
    )


class RunRequest(RunSettings):
    """What a learner may ask for: POST /api/runs's body, and a lesson's run block."""

    server: str = Field(description="a server id from GET /api/servers, e.g. c-epoll")
    lesson: LessonSlug | None = Field(None, description="the lesson the experiment is in")
    experiment: ExperimentKey | None = Field(
        None, description="the experiment block's key, as GET /api/lessons/{slug} lists it"
    )
    variant: VariantId | None = Field(
        None,
        description="run this edited version of `server` (one of yours, from POST "
        "/api/variants) instead of the original; it is built and checked first",
    )
    check_only: bool = Field(
        False,
        description="with `variant`: only build it and check that it answers correctly; "
        "no measurement (the run ends with a `checked` event)",
    )
