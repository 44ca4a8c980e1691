from typing import Literal

from pydantic import BaseModel, Field

from c10klab.exercises.schemas import Verdict
from c10klab.people.schemas import Ownership
from c10klab.runs.schemas import RunStatus
from c10klab.sweeps.schemas import Varied
from c10klab.variants.schemas import VariantCheck


class RunField(BaseModel):
    """One field of POST /api/runs as the lab's form shows it."""

    name: str = Field(description="the field's name in the run request, e.g. payload_bytes")
    label: str = Field(description="what the form calls it, e.g. Payload")
    help: str = Field(description="one sentence on what it does")
    kind: Literal["int", "float", "bool", "choice"]
    unit: str | None = Field(
        None, description="the unit of one, singular (connection, byte, s, request/s)"
    )
    units: str | None = Field(None, description="the unit of several (connections, bytes)")
    min: float | None = Field(None, description="the least value accepted")
    min_exclusive: bool = Field(False, description="true when `min` itself is refused")
    max: float | None = Field(None, description="the most this host accepts")
    default: float | bool | str
    choices: list[str] | None = Field(None, description="for kind choice: the values")
    sweepable: bool = Field(description="a sweep may vary it")


class LabFields(BaseModel):
    fields: list[RunField]
    max_sweep_points: int = Field(
        description="runs a sweep may have at most (servers times values)"
    )
    max_sweep_servers: int = Field(description="servers a sweep may compare at most")
    max_total_connections: int = Field(
        description="connections + idle_connections a run may have at most on this host (a "
        "server's own `limits.max_connections` bounds only its active connections)"
    )
    profile_max_repetitions: dict[str, int] = Field(
        description="per profile that limits them, the repetitions it allows at most "
        "(syscalls: 1, calls do not vary from run to run as speed does)"
    )


HistoryStatus = RunStatus


class HistoryEdit(BaseModel):
    """One of the learner's edited servers that an entry ran, named as a person would: which
    server it edits, when it was saved, and the exercise it answers, if any."""

    entry: str = Field(
        description="the entry's name for it: a sweep's `variant:<id>` among its `servers`; "
        "a run's server id (the run's `request.variant` is the id)"
    )
    variant: str = Field(description="its id: GET /api/variants/{id}")
    server: str = Field(description="the server it edits")
    saved_at: str = Field(description="when it was saved (POST /api/variants)")
    exercise: str | None = Field(None, description="the exercise it answers, by slug")
    check: VariantCheck = Field(description="how its build and check went")
    owner: Ownership = Field(description="whose it is, as the asker knows them")


class HistoryEntry(BaseModel):
    """A run or a sweep in a learner's history, with enough to find it again; open it for the
    rest (GET /api/runs/{id}, GET /api/sweeps/{id})."""

    kind: Literal["run", "sweep"]
    id: str
    created_at: str
    servers: list[str] = Field(description="the server, or the sweep's servers, in order")
    status: HistoryStatus = Field(
        description="a sweep's: queued until one of its points starts, running until every "
        "point has ended, then done if any point is done, else failed or cancelled"
    )
    lesson: str | None = Field(None, description="the lesson it was run from, if any")
    experiment: str | None = Field(None, description="the lesson's experiment block key")
    request: dict[str, float | int | bool | str | None] = Field(
        description="the run's parameters (a sweep's base), without knobs"
    )
    knobs: dict[str, int | str | bool] = Field(
        default_factory=dict, description="knobs for every server (a sweep's base.knobs)"
    )
    server_knobs: dict[str, dict[str, int | str | bool]] = Field(
        default_factory=dict, description="a sweep's knobs of one server only, by server id"
    )
    vary: Varied | None = Field(None, description="a sweep's varied field")
    values: list[float] | None = Field(None, description="a sweep's values")
    points: int | None = Field(None, description="a sweep's runs")
    points_ended: int | None = Field(None, description="how many of them have ended")
    qps: float | None = Field(None, description="a done, valid run's requests per second")
    p99_us: float | None = Field(None, description="its 99th percentile latency in µs")
    valid: bool | None = Field(None, description="a done run: were its figures valid")
    edits: list[HistoryEdit] = Field(
        default_factory=list,
        description="the learner's edited servers it ran, in the order of `servers`; none for "
        "the original servers only (an edit no longer kept is left out)",
    )
    verdict: Verdict | None = Field(
        None,
        description="a run that checked an answer to an exercise (its edit's `exercise`): "
        "the verdict on that answer",
    )
