"""The JSON lines the load generator and the observer print, one object a line, each tagged with
its `type` (sandboxes/loadgen/src/output.rs and observe.rs; schema/output.schema.json), read
into models: what the runner takes from them, checked as it is read.

A line that is not one of these (a stray warning, a line cut short, a figure of the wrong kind)
is not read at all: a summary that lacks a figure is no summary, and the run fails saying so
rather than with a KeyError half-way through its bookkeeping. What the runner does not read
(the summary's echo of its configuration) is left out.
"""

import json
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from c10klab.results.schemas import (
    CheckFailure,
    Latency,
    ProcessProfile,
    ProcessSample,
    Summary,
)


class Line(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class PhaseLine(Line):
    """Readiness verified (`ready`), or a phase of the load begins."""

    type: Literal["phase"]
    phase: Literal["ready", "warmup", "measure"]


class ProgressLine(Line):
    """One progress interval, merged over the load generator's threads."""

    type: Literal["progress"]
    phase: Literal["warmup", "measure"]
    interval_s: float | None = None
    requests: int
    qps: float
    errors: int
    latency_us: Latency
    idle_dropped: int = 0
    latency_actual_us: Latency | None = None  # open loop only
    send_lag_us: Latency | None = None  # open loop only
    procs: ProcessSample | None = None  # --sample-procs only


class SummaryLine(Summary):
    """The measure phase's summary: the result's figures (results.schemas.Summary), and what
    the runner reads besides: the engine that ran, and the load generator's version."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    type: Literal["summary"]
    engine: str | None = None
    engine_note: str | None = Field(None, description="why the engine is not the one asked for")
    version: str | None = None

    def figures(self, procs: ProcessProfile | None) -> Summary:
        """The summary as a result shows it: without what only the runner reads, and with the
        server's processes as the observer counted them (not the load generator's own)."""
        kept = {name: getattr(self, name) for name in Summary.model_fields}
        return Summary(**(kept | {"procs": procs}))


class ErrorLine(Line):
    """A fatal error: the load generator exits after it."""

    type: Literal["error"]
    kind: str
    message: str


class CheckLine(Line):
    """`--check`'s only line: whether a server answered every check correctly."""

    type: Literal["check"]
    ok: bool
    passed: list[str] = []
    failed: CheckFailure | None = None


class ServerProcesses(ProcessSample):
    """The server's processes as the observer counts them: every figure present."""

    processes: int
    threads: int
    rss_bytes: int
    voluntary_ctxt_switches: int
    nonvoluntary_ctxt_switches: int


class NetCounters(BaseModel):
    """Bytes and packets all the interfaces of the server's network namespace carried so far."""

    model_config = ConfigDict(frozen=True)

    rx_bytes: int
    rx_packets: int
    tx_bytes: int
    tx_packets: int


class ObserveLine(Line):
    """The observer's line, one a second and a last one when it is stopped."""

    type: Literal["observe"]
    interval_s: float
    final: bool
    procs: ServerProcesses | None  # null when none of the server's user was found
    net: NetCounters | None  # null when /proc/net/dev could not be read
    cpu_s: float  # the observer's own CPU time so far


AnyLine = Annotated[
    PhaseLine | ProgressLine | SummaryLine | ErrorLine | CheckLine | ObserveLine,
    Field(discriminator="type"),
]
_ANY_LINE: TypeAdapter[AnyLine] = TypeAdapter(AnyLine)


def parse_line(text: str) -> AnyLine | None:
    """One line as its model, or None for anything else (blank, stray text, an object that is
    none of the lines above)."""
    text = text.strip()
    if not text.startswith("{"):
        return None
    try:
        return _ANY_LINE.validate_python(json.loads(text))
    except (ValueError, ValidationError):  # JSONDecodeError is a ValueError
        return None
