"""Sweeps: one request that queues a run per (server, value) and reads back a table of points.

A point a server cannot take (c-select at 10,000 connections) is kept in the table as skipped,
with the reason the API gives for such a run, so a sweep over every model shows each model's
limit instead of failing as a whole.
"""

import asyncio
import random
from collections.abc import AsyncIterator
from typing import Any

from fastapi.sse import ServerSentEvent
from pydantic import ValidationError

from c10klab import sse
from c10klab.config import Settings
from c10klab.errors import DomainError, InvalidRequest, NotFound, Phrase, describe_errors
from c10klab.news import News, run_topic
from c10klab.runs.schemas import RunRequest
from c10klab.runs.service import validate_request
from c10klab.runs.store import Admission, Run
from c10klab.sandboxes.schemas import Catalog
from c10klab.sweeps.figures import (
    memory_per_connection,
    point_from_result,
    round_entries,
    round_verdicts,
)
from c10klab.sweeps.schemas import (
    MAX_ROUNDS,
    Point,
    PointEvent,
    SweepDoneEvent,
    SweepOut,
    SweepRequest,
)
from c10klab.sweeps.store import PlannedPoint, Sweep, SweepStore
from c10klab.uncertainty import HostNoise, rounds_for

WHOLE_NUMBER_FIELDS = {"connections", "idle_connections", "payload_bytes"}
FINISHED = {"done", "failed", "cancelled", "skipped"}

NOT_WHOLE = Phrase("sweep-value-not-whole", "values: {vary} takes whole numbers (got {value:g})")
# `problems`: the run's failed checks as errors.describe_errors words them, as INVALID_INPUT.
BAD_BASE = Phrase("sweep-base-invalid", "base (with {vary}={value:g}): {problems}")
BAD_ROUNDS = Phrase(
    "sweep-rounds-numbering",
    "values: rounds are numbered 1, 2, 3 ... up to at most {most} (got {values})",
)
UNKNOWN_SERVERS = Phrase("sweep-unknown-servers", "servers: unknown {unknown}; choose from {known}")
TOO_MANY_POINTS = Phrase(
    "sweep-too-many-points",
    "values: {servers} servers x {values} values = {total} runs; at most {most} per sweep",
)
# `reasons`: why each point is skipped, as the runs' own refusals say it.
NOTHING_RUNS = Phrase("sweep-nothing-runs", "no point of this sweep can run: {reasons}")
NO_SWEEP = Phrase("no-sweep", "no sweep {sweep_id!r}")


# A sweep's server entry, resolved: the catalog server to run, and the edited version of it.
Entry = tuple[str, str | None]


def _run_request(request: SweepRequest, entry: str, runs: Entry, value: float) -> RunRequest:
    if request.vary in WHOLE_NUMBER_FIELDS and value != int(value):
        raise InvalidRequest(NOT_WHOLE(vary=request.vary, value=value))
    varied: float | int = int(value) if request.vary in WHOLE_NUMBER_FIELDS else value
    # A round changes nothing in the run: it is the same run again.
    setting = {} if request.vary == "round" else {request.vary: varied}
    if request.total_connections is not None:
        setting["idle_connections"] = request.total_connections - int(varied)
    server, variant = runs
    # Each point carries where the series came from, so the board and the CSV can group it.
    origin = {"lesson": request.lesson, "experiment": request.experiment}
    try:
        given = request.base.model_dump(exclude_unset=True)
        own = (request.server_knobs or {}).get(entry)
        if own:
            given["knobs"] = given.get("knobs", {}) | own
        made = given | origin | setting | {"server": server, "variant": variant}
        return RunRequest(**made)
    except ValidationError as invalid:
        problems = describe_errors(invalid.errors())
        said = BAD_BASE(vary=request.vary, value=value, problems=problems)
        raise InvalidRequest(said) from invalid


def _check_rounds(request: SweepRequest) -> None:
    if request.vary != "round":
        return
    wanted = [float(n) for n in range(1, len(request.values) + 1)]
    if request.values != wanted or len(request.values) > MAX_ROUNDS:
        values = ", ".join(f"{v:g}" for v in request.values)
        raise InvalidRequest(BAD_ROUNDS(most=MAX_ROUNDS, values=values))


def _in_turn(request: SweepRequest, shuffle: random.Random) -> list[tuple[float, list[str]]]:
    """Each value with its servers in the order they run. In a comparison in rounds the order
    is drawn anew each round: a server always run first would always meet the host as the
    previous run left it (caches, frequency, the engine's clean-up), a bias no number of
    rounds averages out (Google benchmark's random interleaving)."""
    turns = []
    for value in request.values:
        servers = list(request.servers)
        if request.vary == "round":
            shuffle.shuffle(servers)
        turns.append((value, servers))
    return turns


def plan_points(
    request: SweepRequest,
    catalog: Catalog,
    settings: Settings,
    variants: dict[str, Entry] | None = None,
    shuffle: random.Random | None = None,
) -> list[PlannedPoint]:
    """Every (server, value) in the order they run, value by value, with its run or why it is
    skipped. `variants` resolves the `variant:<id>` entries (the router checks they are the
    asker's); `shuffle` draws the order of each round (a fixed seed in tests)."""
    _check_rounds(request)
    entries = {s: variants[s] if variants and s in variants else (s, None) for s in request.servers}
    unknown = [s for s, (server, _) in entries.items() if catalog.get(server) is None]
    if unknown:
        known = ", ".join(s.id for s in catalog.servers)
        raise InvalidRequest(UNKNOWN_SERVERS(unknown=", ".join(unknown), known=known))
    total = len(request.servers) * len(request.values)
    if total > settings.max_sweep_points:
        raise InvalidRequest(
            TOO_MANY_POINTS(
                servers=len(request.servers),
                values=len(request.values),
                total=total,
                most=settings.max_sweep_points,
            )
        )
    points: list[PlannedPoint] = []
    for value, servers in _in_turn(request, shuffle or random.Random()):
        for server in servers:
            run = _run_request(request, server, entries[server], value)
            try:
                validate_request(run, catalog, settings)
            except DomainError as refused:
                points.append((server, value, None, refused.message))
                continue
            points.append((server, value, run, ""))
    if all(run is None for _, _, run, _ in points):
        reasons = "; ".join(sorted({why for *_, why in points}))
        raise InvalidRequest(NOTHING_RUNS(reasons=reasons))
    return points


def planned_rounds(request: SweepRequest, noise: HostNoise | None) -> SweepRequest:
    """A comparison asked `within` a width, cut to the rounds this host's noise says it needs."""
    if request.within is None or request.vary != "round":
        return request
    needed = rounds_for(request.within, noise, len(request.values))
    return request.model_copy(update={"values": request.values[:needed]})


def create_sweep(
    request: SweepRequest,
    catalog: Catalog,
    settings: Settings,
    sweeps: SweepStore,
    admission: Admission | None = None,
    variants: dict[str, Entry] | None = None,
    noise: HostNoise | None = None,
) -> Sweep:
    """Plan and queue a sweep; admission (every point against the person's and the site's
    limits) happens in the store's transaction that queues them. `noise`: the runners' host
    noise, for a comparison asked `within` a width."""
    _check_rounds(request)
    request = planned_rounds(request, noise)
    points = plan_points(request, catalog, settings, variants)
    admission = admission or Admission(queued_site=settings.max_queued_runs)
    return sweeps.create_sweep(request.model_dump(exclude_none=True), points, admission)


def get_sweep(sweeps: SweepStore, sweep_id: str) -> Sweep:
    sweep = sweeps.get_sweep(sweep_id)
    if sweep is None:
        raise NotFound(NO_SWEEP(sweep_id=sweep_id))
    return sweep


def point_of(stored: dict[str, Any], run: Run | None) -> Point:
    """A stored point with its run's figures: the median repetition's, as the run shows them."""
    base = {"server": stored["server"], "value": stored["value"], "run_id": stored["run_id"]}
    if run is None:
        return Point(**base, status="skipped", reason=stored["skipped"])
    result = run.result or {}
    # a build-and-check run ends done with the check's outcome, no figures
    if run.status != "done" or "summary" not in result:
        return Point(**base, status=run.status, reason=run.error)
    return point_from_result(base, result)


def run_figures(run: Run) -> Point:
    """One run's headline figures, read as a sweep point's are (the median repetition's)."""
    return point_of({"server": run.server, "value": 0, "run_id": run.id}, run)


def read_point(sweeps: SweepStore, stored: dict[str, Any]) -> Point:
    return point_of(stored, sweeps.runs.get_run(stored["run_id"]) if stored["run_id"] else None)


def sweep_out(sweeps: SweepStore, sweep: Sweep) -> SweepOut:
    points = [read_point(sweeps, p) for p in sweep.points]
    request = SweepRequest.model_validate(sweep.request)
    rounds = len(request.values) if request.vary == "round" else 0
    return SweepOut(
        id=sweep.id,
        request=request,
        created_at=sweep.created_at,
        finished=all(p.status in FINISHED for p in points),
        points=points,
        memory_per_connection=memory_per_connection(points, request.vary),
        entries=round_entries(points, request.servers, rounds) if rounds else [],
        verdicts=round_verdicts(points, request.servers, rounds) if rounds else [],
    )


def cancel_sweep(sweeps: SweepStore, sweep: Sweep) -> int:
    """Cancel every point not finished yet; returns how many were asked to stop."""
    asked = 0
    for stored in sweep.points:
        if stored["run_id"] and sweeps.runs.request_cancel(stored["run_id"]) in (
            "cancelled",
            "running",
        ):
            asked += 1
    return asked


async def stream_points(
    sweeps: SweepStore, news: News, sweep: Sweep, after_seq: int
) -> AsyncIterator[ServerSentEvent]:
    """SSE: a `point` event per point in order as it finishes (id = its position, from 1),
    then `done` with the whole table (id = points + 1). Resumes after `after_seq`, as a run's
    stream does (c10klab.sse). Waiting for a point is waiting for news of its run
    (c10klab/news.py)."""
    yield sse.RETRY
    seq = min(after_seq, len(sweep.points))
    while seq < len(sweep.points):
        stored = sweep.points[seq]
        async with news.subscription(run_topic(stored["run_id"] or "")) as woken:
            while True:
                woken.clear()
                point = await asyncio.to_thread(read_point, sweeps, stored)
                if point.status in FINISHED:
                    break
                await news.wait(woken)
        seq += 1
        yield sse.frame(seq, PointEvent(type="point", data=point))
    table = await asyncio.to_thread(sweep_out, sweeps, sweep)
    yield sse.frame(len(sweep.points) + 1, SweepDoneEvent(type="done", data=table))
