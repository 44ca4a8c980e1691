"""Figures in a lesson's prose, bound to the recordings beside it.

A figure that was measured is not typed into the prose: it is a reference to the experiment
block it came from, resolved when the lesson is served and formatted with its unit, so the text
follows its recordings whenever a lesson is recorded again. In the Markdown:

    level-triggered did {{ lt_100.qps }}, {{ percent_above(lt_100.qps, et_100.qps) }} more

A reference is `{{ EXPR }}` or `{{ EXPR | FORMAT }}`. EXPR is a small expression, parsed with
Python's own parser and evaluated over a fixed vocabulary (never `eval`):

- `ID` is an experiment block's `id:`. A run block's figures are its median repetition's
  (`lt_100.qps`, `.p99`, `.cpu`, `.switches_per_request` ...; see POINT_FIELDS and RUN_FIELDS);
  `lt_100.rep(3).qps` is one repetition's; `lt_100.syscalls.read.per_request` a profiled run's.
- A series block is indexed by its point: `idle["c-epoll", 1000].qps`, or `idle[1000].qps` when
  it has one server.
- Derived figures are named functions (FUNCTIONS): `ratio(a, b)`, `percent_below(a, b)`,
  `memory_per_connection(sweep, "c-epoll")`, `cost_per_idle(sweep, "c-epoll")` ... The content
  checker and the lesson service call these same functions: nothing is computed by hand.
- A difference between two throughputs measured in different runs is only stated when it is
  outside what this host's runs scatter by: `ratio`, `percent_above`, `percent_below` and
  `difference` of two such figures (or of the times per request made of them) refuse one whose
  95 % interval holds no difference (c10klab.uncertainty.single_change, with the host noise
  each recording carries). `verdict(a, b)` says what may be said instead, with its interval:
  "4–12 % higher (95 % interval)" or "no difference this host can detect (±19 %)";
  `verdict(rounds)` / `verdict(rounds, "server")` says a comparison in rounds' paired verdict.
  Throughput only: that is what the host's noise is measured on.

FORMAT is `bare` (the number without its unit), a unit to show it in (`ns`, `us`, `ms`, `KiB`,
`MiB`), or a number of decimals (`.0` to `.3`), joined by spaces (`ms .2`).

`given("10 ms")` states a figure that is set, not measured (a timeout, a limit): it is shown as
written, and says so to the checker.
"""

import ast
import dataclasses
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from c10klab.content.markdown import fenced_spans, in_spans
from c10klab.content.schemas import Baseline
from c10klab.sweeps.figures import memory_per_connection as sweep_memory_per_connection
from c10klab.sweeps.figures import point_from_result, with_host_noise
from c10klab.sweeps.schemas import Point, SweepOut
from c10klab.uncertainty import Comparison, HostNoise, compare, single_change

Language = Literal["en", "zh"]
Unit = Literal[
    "requests_per_s",
    "us",
    "bytes",
    "percent",
    "ratio",
    "count",
    "per_request",
    "per_s",
    "text",
    "verdict",
]

REFERENCE = re.compile(r"\{\{(.+?)\}\}", re.DOTALL)


class FigureError(ValueError):
    """A reference that cannot be resolved; the message says what to write instead."""


@dataclass(frozen=True)
class Measured:
    """Where a throughput (or a time made of one) was measured: the run, so that two figures of
    the same run are not taken for independent ones, and its host's run-to-run spread."""

    run: str
    noise: HostNoise | None


@dataclass(frozen=True)
class Quantity:
    value: float
    unit: Unit
    text: str | None = None  # given(...): shown as written
    measured: Measured | None = None
    verdict: Comparison | None = None  # verdict(...): said in words with its interval


@dataclass(frozen=True)
class RunRecording:
    """A run block's recording: the median repetition's figures, every repetition's, and its
    system call profile when it was profiled."""

    id: str
    point: Point
    repetitions: list[Point]
    connections: int
    summary: dict[str, Any]
    aggregate: dict[str, Any]
    syscalls: dict[str, Any] | None

    @property
    def measured(self) -> Measured:
        return Measured(f"`{self.id}`", self.point.host_noise)


@dataclass(frozen=True)
class SeriesRecording:
    id: str
    table: SweepOut


@dataclass(frozen=True)
class SyscallProfile:
    run: str
    profile: dict[str, Any]


@dataclass(frozen=True)
class SyscallRow:
    run: str
    row: dict[str, Any]


@dataclass(frozen=True)
class Unreadable:
    """A recording no figure can be read from, and why: a reference naming it says so."""

    id: str
    reason: str


Recording = RunRecording | SeriesRecording | Unreadable


def read_recording(experiment_id: str, baseline: Baseline) -> Recording:
    """A lesson block's recording as figures can be read from it."""
    table = baseline.result.table
    if table is not None:
        points = [with_host_noise(p, baseline.host_noise) for p in table.points]
        return SeriesRecording(id=experiment_id, table=table.model_copy(update={"points": points}))
    events = baseline.result.events or []
    done = next((e.root for e in reversed(events) if e.root.type == "done"), None)
    if done is None:
        return Unreadable(experiment_id, f"the recording of `{experiment_id}` has no finished run")
    data = done.model_dump(mode="json")["data"]
    request = data["provenance"]["request"]
    base = {"server": request["server"], "value": 0, "run_id": None}
    point = with_host_noise(point_from_result(base, data), baseline.host_noise)
    repetitions = [
        with_host_noise(point_from_result(base, rep), point.host_noise)
        for rep in data.get("repetitions") or []
    ]
    return RunRecording(
        id=experiment_id,
        point=point,
        repetitions=repetitions,
        connections=request["connections"],
        summary=data["summary"],
        aggregate=data.get("aggregate") or {},
        syscalls=data.get("syscalls"),
    )


# --- what a reference may name ---------------------------------------------------------------

# A run's or a point's figures, read from the median repetition (sweeps.schemas.Point).
POINT_FIELDS: dict[str, tuple[Callable[[Point], float | None], Unit]] = {
    "qps": (lambda p: p.qps, "requests_per_s"),
    "p50": (lambda p: p.p50_us, "us"),
    "p99": (lambda p: p.p99_us, "us"),
    "cpu": (lambda p: p.cpu_percent, "percent"),
    "rss": (lambda p: p.rss_bytes, "bytes"),
    "threads": (lambda p: p.threads, "count"),
    "errors": (lambda p: p.errors, "count"),
    "idle_dropped": (lambda p: p.idle_dropped, "count"),
    "idle_dropped_connections": (lambda p: p.idle_dropped_connections, "count"),
    "calls_per_request": (lambda p: p.calls_per_request, "per_request"),
    "spread": (lambda p: None if p.spread is None else p.spread * 100, "percent"),
    "switches_per_s": (lambda p: _switches(p), "per_s"),
    "switches_per_request": (
        lambda p: None if _switches(p) is None or not p.qps else _switches(p) / p.qps,  # type: ignore[operator]
        "per_request",
    ),
}

# A run's figures that a sweep's point does not carry.
RUN_FIELDS: dict[str, tuple[Callable[[RunRecording], float | None], Unit]] = {
    "p90": (lambda r: r.summary["latency_us"]["p90"], "us"),
    "p999": (lambda r: r.summary["latency_us"]["p999"], "us"),
    "mean_latency": (lambda r: r.summary["latency_us"]["mean"], "us"),
    "max_latency": (lambda r: r.summary["latency_us"]["max"], "us"),
    "qps_min": (lambda r: (r.aggregate.get("qps") or {}).get("min"), "requests_per_s"),
    "qps_max": (lambda r: (r.aggregate.get("qps") or {}).get("max"), "requests_per_s"),
    "requests": (lambda r: r.summary["requests"], "count"),
    "connections_refused": (lambda r: r.summary.get("connect_failures"), "count"),
}


def _switches(p: Point) -> float | None:
    if p.voluntary_ctxt_switches_per_s is None or p.nonvoluntary_ctxt_switches_per_s is None:
        return None
    return p.voluntary_ctxt_switches_per_s + p.nonvoluntary_ctxt_switches_per_s


def _quantity(value: float | None, unit: Unit, what: str) -> Quantity:
    if value is None or not math.isfinite(value):
        raise FigureError(f"{what} was not measured in its recording")
    return Quantity(float(value), unit)


# The figures that are throughputs: what a host's run-to-run noise is measured on.
THROUGHPUTS = {"qps", "qps_min", "qps_max"}


def _point_field(point: Point, name: str, what: str) -> Quantity:
    """`what` names the point, and its run: two figures with the same `what` are one run's."""
    if name not in POINT_FIELDS:
        known = ", ".join(sorted(POINT_FIELDS))
        raise FigureError(f"{what} has no figure `{name}`; a point has: {known}")
    read, unit = POINT_FIELDS[name]
    return _from_run(
        _quantity(read(point), unit, f"{what}.{name}"), name, Measured(what, point.host_noise)
    )


def _from_run(quantity: Quantity, name: str, measured: Measured) -> Quantity:
    """A throughput carries the run it was measured in; any other figure stands alone."""
    return dataclasses.replace(quantity, measured=measured) if name in THROUGHPUTS else quantity


def _valid_points(series: SeriesRecording, server: str) -> list[Point]:
    points = [p for p in series.table.points if p.server == server]
    if not points:
        servers = ", ".join(dict.fromkeys(p.server for p in series.table.points))
        raise FigureError(f"`{series.id}` has no server {server!r}; it has {servers}")
    return sorted((p for p in points if p.valid and p.qps), key=lambda p: p.value)


# --- derived figures: named, shared by the checker and the lesson service ---------------------


def _same_unit(a: Quantity, b: Quantity, name: str) -> None:
    if a.unit != b.unit:
        raise FigureError(f"{name}() compares {a.unit} with {b.unit}")


def single_runs_change(a: Quantity, b: Quantity) -> Comparison | None:
    """a against b as a verdict, when both were measured (throughputs, or times made of them)
    in different runs: the interval their hosts' run-to-run noise puts on the ratio. None when
    they are not two runs' measurements; too_few when neither host's noise is known."""
    if a.measured is None or b.measured is None or a.measured.run == b.measured.run:
        return None
    change = single_change(a.value, b.value, a.measured.noise, b.measured.noise)
    return compare(a.measured.run, b.measured.run, "qps", change)


def _stated(a: Quantity, b: Quantity, name: str) -> None:
    """Refuse a difference between two runs' throughputs that their noise cannot tell from
    none: the prose would teach an effect the measurement does not show."""
    found = single_runs_change(a, b)
    if found is None or found.call in ("higher", "lower"):
        return
    if found.change is None:
        raise FigureError(
            f"{name}() compares {found.subject} with {found.reference}, whose recordings "
            "carry no host noise: record them again (make record-baselines)"
        )
    interval = found.change
    raise FigureError(
        f"{name}() states a difference between {found.subject} and {found.reference} "
        f"({interval.estimate:+.1%}) whose 95 % interval ({interval.low:+.1%} to "
        f"{interval.high:+.1%}) holds none: this host cannot tell them apart. Say so with "
        "{{ verdict(a, b) }}, or measure them in rounds (vary: round) and use verdict(rounds)"
    )


def ratio(a: Quantity, b: Quantity) -> Quantity:
    """How many times a is b ("1.08×")."""
    _same_unit(a, b, "ratio")
    _stated(a, b, "ratio")
    return Quantity(a.value / b.value, "ratio")


def percent_below(a: Quantity, b: Quantity) -> Quantity:
    """How far a is below b, in percent of b ("8 % below")."""
    _same_unit(a, b, "percent_below")
    _stated(a, b, "percent_below")
    return Quantity((b.value - a.value) / b.value * 100, "percent")


def percent_above(a: Quantity, b: Quantity) -> Quantity:
    """How far a is above b, in percent of b."""
    _same_unit(a, b, "percent_above")
    _stated(a, b, "percent_above")
    return Quantity((a.value - b.value) / b.value * 100, "percent")


def difference(a: Quantity, b: Quantity) -> Quantity:
    _same_unit(a, b, "difference")
    _stated(a, b, "difference")
    return Quantity(a.value - b.value, a.unit)


def verdict(a: Quantity | SeriesRecording, b: Quantity | str | None = None) -> Quantity:
    """What may be said of a against b, in words with its interval. Two runs' throughputs:
    their single-run verdict. A comparison in rounds (`vary: round`): its paired QPS verdict of
    server `b` (by default the second entry) against the first."""
    if isinstance(a, SeriesRecording):
        return _rounds_verdict(a, b if isinstance(b, str) else None)
    if not isinstance(b, Quantity):
        raise FigureError("verdict() takes two throughputs, or a comparison in rounds")
    _same_unit(a, b, "verdict")
    found = single_runs_change(a, b)
    if found is None:
        raise FigureError(
            "verdict() takes two throughputs measured in different runs (.qps, or "
            "time_per_request of one)"
        )
    if found.change is None:
        raise FigureError("verdict(): the recordings carry no host noise; record them again")
    return Quantity(found.change.estimate, "verdict", verdict=found)


def _rounds_verdict(series: SeriesRecording, server: str | None) -> Quantity:
    if series.table.request.vary != "round":
        raise FigureError(f"`{series.id}` is not a comparison in rounds (vary: round)")
    found = [
        v
        for v in series.table.verdicts
        if v.metric == "qps" and (server is None or v.subject == server)
    ]
    if not found:
        subjects = ", ".join(v.subject for v in series.table.verdicts if v.metric == "qps")
        raise FigureError(f"`{series.id}` has no QPS verdict for {server}; it has {subjects}")
    if found[0].change is None:
        raise FigureError(f"`{series.id}` has too few undisturbed rounds for a verdict")
    return Quantity(found[0].change.estimate, "verdict", verdict=found[0])


def time_per_request(qps: Quantity) -> Quantity:
    """The server's time per request when it is busy all the time: 1 / throughput."""
    if qps.unit != "requests_per_s":
        raise FigureError("time_per_request() takes a throughput (a .qps)")
    return Quantity(1e6 / qps.value, "us", measured=qps.measured)


def closed_loop_latency(run: RunRecording) -> Quantity:
    """Little's law for a closed loop: connections ÷ throughput is the time each connection
    takes per round trip, the server's latency plus the client's own turnaround. The measured
    latency leaves the turnaround out, so it comes in below this."""
    if not isinstance(run, RunRecording) or not run.point.qps:
        raise FigureError("closed_loop_latency() takes a run block with a throughput")
    return Quantity(run.connections / run.point.qps * 1e6, "us", measured=run.measured)


def memory_per_connection(series: SeriesRecording, server: str) -> Quantity:
    """Resident memory per extra connection: the sweep's own slope (sweeps.service)."""
    slopes = sweep_memory_per_connection(series.table.points, series.table.request.vary)
    if server not in slopes:
        raise FigureError(f"`{series.id}` varies {series.table.request.vary}, not connections")
    return _quantity(slopes[server], "bytes", f"memory_per_connection({series.id}, {server})")


def _valid_point_at(
    series: SeriesRecording, server: str, points: list[Point], value: float
) -> Point:
    found = next((p for p in points if p.value == value), None)
    if found is None:
        values = [f"{p.value:g}" for p in points]
        raise FigureError(
            f"`{series.id}` has no valid point for {server} at {value:g}; its valid points: "
            f"{values}"
        )
    return found


def cost_per_idle(
    series: SeriesRecording, server: str, start: float | None = None, end: float | None = None
) -> Quantity:
    """What one more idle connection adds to each request's time: the slope of 1/throughput
    against the idle count, between the points at `start` and `end` idle connections (by
    default the smallest and largest valid point). The slope of one stretch of the sweep says
    nothing of another: where the cost per idle connection grows with their number, name the
    stretch (`cost_per_idle(sweep, "c-poll", 4000, 16000)`)."""
    if series.table.request.vary != "idle_connections":
        raise FigureError(
            f"cost_per_idle() needs a sweep of idle_connections; `{series.id}` is not"
        )
    points = _valid_points(series, server)
    if len(points) < 2 or points[-1].value == points[0].value:
        raise FigureError(f"`{series.id}` has fewer than two valid points for {server}")
    low = points[0] if start is None else _valid_point_at(series, server, points, start)
    high = points[-1] if end is None else _valid_point_at(series, server, points, end)
    if high.value <= low.value:
        raise FigureError(
            f"cost_per_idle() needs its end ({high.value:g}) above its start ({low.value:g})"
        )
    rise = 1e6 / high.qps - 1e6 / low.qps  # type: ignore[operator]
    return Quantity(rise / (high.value - low.value), "us")


def lowest(*values: Quantity) -> Quantity:
    for v in values[1:]:
        _same_unit(values[0], v, "lowest")
    return min(values, key=lambda q: q.value)


def highest(*values: Quantity) -> Quantity:
    for v in values[1:]:
        _same_unit(values[0], v, "highest")
    return max(values, key=lambda q: q.value)


def given(text: str) -> Quantity:
    """A figure that is set, not measured (a timeout, a limit, a request size)."""
    return Quantity(math.nan, "text", text=text)


FUNCTIONS: dict[str, Callable[..., Quantity]] = {
    f.__name__: f
    for f in (
        ratio,
        percent_below,
        percent_above,
        difference,
        time_per_request,
        closed_loop_latency,
        memory_per_connection,
        cost_per_idle,
        lowest,
        highest,
        given,
        verdict,
    )
}


# --- evaluating a reference ------------------------------------------------------------------


@dataclass
class _Evaluator:
    recordings: dict[str, Recording]
    experiments: set[str] = field(default_factory=set)  # the blocks a reference read

    def eval(self, node: ast.expr) -> Any:
        match node:
            case ast.Constant(value=str() | int() | float() as value) if not isinstance(
                value, bool
            ):
                return value
            case ast.Name(id=name):
                return self.recording(name)
            case ast.Attribute(value=inner, attr=attr):
                return self.attribute(self.eval(inner), attr)
            case ast.Subscript(value=inner, slice=index):
                return self.point(self.eval(inner), index)
            case ast.Call(func=ast.Attribute(value=inner, attr="rep"), args=[arg], keywords=[]):
                return self.repetition(self.eval(inner), self.eval(arg))
            case ast.Call(func=ast.Name(id=name), args=args, keywords=[]):
                if name not in FUNCTIONS:
                    raise FigureError(f"no function {name}(); there are {', '.join(FUNCTIONS)}")
                try:
                    return FUNCTIONS[name](*(self.eval(a) for a in args))
                except TypeError as exc:
                    raise FigureError(f"{name}(): {exc}") from exc
        raise FigureError(f"`{ast.unparse(node)}` is not a figure (see content/figures.py)")

    def recording(self, name: str) -> Recording:
        if name not in self.recordings:
            known = ", ".join(sorted(self.recordings)) or "none"
            raise FigureError(f"no recorded experiment `{name}` in this lesson (ids: {known})")
        self.experiments.add(name)
        recording = self.recordings[name]
        if isinstance(recording, Unreadable):
            raise FigureError(recording.reason)
        return recording

    def attribute(self, value: Any, attr: str) -> Any:
        if isinstance(value, RunRecording):
            if attr == "syscalls":
                if not value.syscalls or not value.syscalls.get("rows"):
                    raise FigureError(f"`{value.id}` was not recorded with profile: syscalls")
                return SyscallProfile(value.id, value.syscalls)
            if attr in RUN_FIELDS:
                read, unit = RUN_FIELDS[attr]
                quantity = _quantity(read(value), unit, f"{value.id}.{attr}")
                return _from_run(quantity, attr, value.measured)
            return _point_field(value.point, attr, f"`{value.id}`")
        if isinstance(value, PointOf):
            point, where = value.point, value.run
            if attr == "syscalls":
                if not point.syscalls:
                    raise FigureError(f"{where} was not recorded with profile: syscalls")
                rows = [r.model_dump() for r in point.syscalls]
                profile = {"rows": rows, "calls_per_request": point.calls_per_request}
                return SyscallProfile(where, profile)
            return _point_field(point, attr, where)
        if isinstance(value, SyscallProfile):
            if attr == "per_request":
                return _quantity(value.profile.get("calls_per_request"), "per_request", attr)
            row = next((r for r in value.profile["rows"] if r["syscall"] == attr), None)
            if row is None:
                raise FigureError(f"`{value.run}` made no {attr} call in its recording")
            return SyscallRow(value.run, row)
        if isinstance(value, SyscallRow):
            units: dict[str, Unit] = {
                "per_request": "per_request",
                "calls": "count",
                "errors": "count",
            }
            if attr not in units:
                raise FigureError(
                    f"a system call row has per_request, calls and errors, not {attr}"
                )
            return _quantity(value.row.get(attr), units[attr], f"{value.row['syscall']}.{attr}")
        if isinstance(value, SeriesRecording):
            raise FigureError(f"`{value.id}` is a series: pick its point, e.g. {value.id}[1000]")
        raise FigureError(f"`.{attr}` of something that has no figures")

    def point(self, value: Any, index: ast.expr) -> "PointOf":
        if not isinstance(value, SeriesRecording):
            raise FigureError('only a series block has points: ID[value] or ID["server", value]')
        parts = index.elts if isinstance(index, ast.Tuple) else [index]
        keys = [self.eval(p) for p in parts]
        servers = list(dict.fromkeys(p.server for p in value.table.points))
        if len(keys) == 1 and len(servers) == 1:
            keys = [servers[0], *keys]
        if len(keys) != 2 or not isinstance(keys[0], str):
            raise FigureError(
                f'`{value.id}` has servers {servers}: write {value.id}["server", value]'
            )
        server, at = keys
        match = next((p for p in value.table.points if p.server == server and p.value == at), None)
        if match is None:
            values = [f"{p.value:g}" for p in value.table.points if p.server == server]
            raise FigureError(f"`{value.id}` has no point ({server}, {at}); its values: {values}")
        return PointOf(match, f'`{value.id}["{server}", {at:g}]`')

    def repetition(self, value: Any, number: Any) -> "PointOf":
        if not isinstance(value, RunRecording) or not isinstance(number, int):
            raise FigureError("rep(N) takes a run block and a repetition number from 1")
        if not 1 <= number <= len(value.repetitions):
            raise FigureError(f"`{value.id}` has {len(value.repetitions)} repetition(s)")
        # A repetition's server is the run's: it is not measured apart from the run
        return PointOf(value.repetitions[number - 1], value.measured.run)


@dataclass(frozen=True)
class PointOf:
    """A point read from a recording, and the run it was measured in (how the prose names
    it): one run's figures are not independent of each other."""

    point: Point
    run: str


@dataclass(frozen=True)
class Reference:
    """One `{{ ... }}` of the prose: where it is, what it says, and what it resolved to."""

    start: int
    end: int
    expression: str
    format: str
    text: str | None
    value: float | None
    unit: Unit | None
    experiments: tuple[str, ...]
    error: str | None


def split_reference(inner: str) -> tuple[str, str]:
    expression, _, fmt = inner.partition("|")
    return expression.strip(), fmt.strip()


def resolve(inner: str, recordings: dict[str, Recording], language: Language) -> Reference:
    """A reference's text between the braces, resolved (or why not: `error`)."""
    expression, fmt = split_reference(inner)
    evaluator = _Evaluator(recordings)
    try:
        try:
            tree = ast.parse(expression, mode="eval")
        except SyntaxError as exc:
            raise FigureError(f"`{expression}` does not parse: {exc.msg}") from exc
        value = evaluator.eval(tree.body)
        if not isinstance(value, Quantity):
            raise FigureError(f"`{expression}` names no figure: end it with a field like .qps")
        text = format_quantity(value, fmt, language)
    except FigureError as exc:
        return Reference(0, 0, expression, fmt, None, None, None, (), str(exc))
    number = None if value.unit in ("text", "verdict") else value.value
    return Reference(
        0, 0, expression, fmt, text, number, value.unit, tuple(sorted(evaluator.experiments)), None
    )


def find_references(
    markdown: str, recordings: dict[str, Recording], language: Language
) -> list[Reference]:
    """Every reference in the prose (not in fenced blocks), in order, each resolved or with
    its error."""
    fences = fenced_spans(markdown)
    return [
        dataclasses.replace(resolve(m.group(1), recordings, language), start=m.start(), end=m.end())
        for m in REFERENCE.finditer(markdown)
        if not in_spans(m.start(), fences)
    ]


def render(markdown: str, references: list[Reference]) -> str:
    """The prose with each reference replaced by its figure; one that does not resolve shows
    as such (the content checker keeps those out of the course)."""
    out, at = [], 0
    for ref in references:
        out.append(markdown[at : ref.start])
        out.append(ref.text if ref.text is not None else f"[figure unavailable: {ref.error}]")
        at = ref.end
    out.append(markdown[at:])
    return "".join(out)


# --- formatting ------------------------------------------------------------------------------

UNIT_WORDS: dict[Language, dict[str, str]] = {
    "en": {
        "requests_per_s": "{n} requests/s",
        "per_s": "{n}/s",
        "percent": "{n} %",
        "bytes": "{n} bytes",
    },
    "zh": {
        "requests_per_s": "每秒 {n} 个请求",
        "per_s": "每秒 {n} 次",
        "percent": "{n}%",
        "bytes": "{n} 字节",
    },
}
FORMATS = re.compile(r"^(bare|ns|us|ms|s|KiB|MiB|GiB|\.[0-3])$")


def default_decimals(unit: str, value: float) -> int:
    """Enough decimals to say a measured value without pretending to more: about three
    significant figures, whole numbers for counts and rates."""
    magnitude = abs(value)
    if unit in ("count", "requests_per_s", "per_s"):
        return 0
    if unit == "percent":
        return 0 if magnitude >= 1 else 1
    if unit == "per_request" and magnitude < 0.1:
        return 3
    if magnitude >= 100 or magnitude == 0:
        return 0
    return 1 if magnitude >= 10 else 2


# The scales a time (held in µs) or a size (held in bytes) is shown in, smallest first: the
# largest whose factor the value reaches is picked unless the reference names one.
TIME_SCALES = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
SIZE_SCALES = {"KiB": 1024.0, "MiB": 1024.0**2, "GiB": 1024.0**3}
SCALE_SUFFIX = {"ns": " ns", "us": " µs", "ms": " ms", "s": " s"}


def _scaled(value: float, unit: Unit, scale: str | None) -> tuple[float, str]:
    """The value in its scale and the scale's suffix ("" when the unit has no scales)."""
    scales = TIME_SCALES if unit == "us" else SIZE_SCALES if unit == "bytes" else {}
    if scale and scale not in scales:
        raise FigureError(f"{scale} does not apply to a figure in {unit}")
    if not scales or (unit == "bytes" and not scale and abs(value) < 1024):
        return value, ""
    if not scale:
        fitting = [name for name, factor in scales.items() if abs(value) >= factor]
        scale = fitting[-1] if fitting else next(iter(scales))
    return value / scales[scale], SCALE_SUFFIX.get(scale, f" {scale}")


VERDICT_WORDS: dict[Language, dict[str, str]] = {
    "en": {
        "higher": "{low}–{high} % higher (95 % interval)",
        "lower": "{low}–{high} % lower (95 % interval)",
        "no_difference": "no difference this host can detect (±{half} %)",
    },
    "zh": {
        "higher": "高 {low}%–{high}%（95% 区间）",
        "lower": "低 {low}%–{high}%（95% 区间）",
        "no_difference": "本机测不出差别（±{half}%）",
    },
}


def verdict_words(found: Comparison, language: Language) -> str:
    """A verdict as the prose says it: the change's interval, or how wide the interval that
    held no difference was."""
    if found.change is None:
        raise FigureError("a verdict without an interval cannot be said")
    low, high = sorted((abs(found.change.low) * 100, abs(found.change.high) * 100))
    half = max(low, high)

    def number(value: float) -> str:
        return f"{value:.{default_decimals('percent', value)}f}"

    template = VERDICT_WORDS[language][found.call]
    return template.format(low=number(low), high=number(high), half=number(half))


def format_quantity(q: Quantity, fmt: str, language: Language) -> str:
    """A figure with its unit, in the lesson's language; FORMAT as the module says."""
    if q.unit == "text":
        return q.text or ""
    if q.verdict is not None:
        if fmt:
            raise FigureError("a verdict takes no format: it is said in words")
        return verdict_words(q.verdict, language)
    options = fmt.split()
    bad = [o for o in options if not FORMATS.match(o)]
    if bad:
        raise FigureError(
            f"unknown format {bad[0]!r}: use bare, a unit (ns us ms s KiB MiB GiB) or .0-.3"
        )
    decimals = next((int(o[1]) for o in options if o.startswith(".")), None)
    scale = next((o for o in options if o != "bare" and not o.startswith(".")), None)
    value, suffix = _scaled(q.value, q.unit, scale)
    if decimals is None:
        decimals = default_decimals("scaled" if suffix else q.unit, value)
    number = f"{value:,.{decimals}f}"
    if "bare" in options:
        return number
    if q.unit == "ratio":
        return f"{number}×"
    if suffix:
        return number + suffix
    template = UNIT_WORDS[language].get(q.unit)
    return template.format(n=number) if template else number
