"""Queueing runs, reading them back, and turning their stored events into an SSE stream."""

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

from fastapi.sse import ServerSentEvent
from pydantic import ValidationError

from c10klab import sse
from c10klab.config import Settings
from c10klab.errors import InvalidRequest, NotFound
from c10klab.news import News, run_topic
from c10klab.results.schemas import CheckResult, RunEvent, RunResult
from c10klab.runs.schemas import RunOut, RunRequest
from c10klab.runs.store import (
    NOT_QUEUED,
    TERMINAL_EVENTS,
    Admission,
    Event,
    Place,
    Run,
    RunStore,
)
from c10klab.sandboxes.schemas import Catalog, Knob

log = logging.getLogger("c10klab.runs")


def _check_knob(server_id: str, knob: Knob, value: int | str | bool) -> None:
    where = f"knobs.{knob.name}"
    if knob.type == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidRequest(f"{where}: must be a whole number (got {value!r})")
        too_small = knob.min is not None and value < knob.min
        too_large = knob.max is not None and value > knob.max
        if too_small or too_large:
            raise InvalidRequest(
                f"{where}: {server_id} accepts {knob.min}..{knob.max} (got {value})"
            )
    elif knob.type == "enum":
        if value not in (knob.values or []):
            raise InvalidRequest(
                f"{where}: must be one of {', '.join(knob.values or [])} (got {value!r})"
            )
    elif not isinstance(value, bool):
        raise InvalidRequest(f"{where}: must be true or false (got {value!r})")


def _shown(value: float) -> str:
    """A number as a refusal shows it: a whole number in full, a fraction without trailing 0s."""
    return str(value) if isinstance(value, int) else f"{value:g}"


def _at_most(field: str, value: float, limit: float, unit: str = "") -> None:
    """Refuse a request field past this host's limit for it, saying the limit."""
    if value > limit:
        raise InvalidRequest(f"{field}: at most {_shown(limit)}{unit} (got {_shown(value)})")


def validate_request(request: RunRequest, catalog: Catalog, settings: Settings) -> None:
    """Refuse what the catalog or the host's limits do not allow, saying what would be allowed.
    (Whether its `lesson` and `experiment` name a lesson's block is the content domain's to
    say: content.service.validate_origin, called where a request comes in.)"""
    server = catalog.get(request.server)
    if server is None:
        known = ", ".join(s.id for s in catalog.servers)
        raise InvalidRequest(f"server: unknown server {request.server!r}; choose one of {known}")
    max_connections = min(settings.max_connections, server.limits.max_connections)
    if request.connections > max_connections:
        raise InvalidRequest(
            f"connections: {server.id} can be run with at most {max_connections} connections "
            f"here (got {request.connections})"
        )
    # Idle connections may go past the server's own limit (they cost it only a descriptor
    # and a watch each): that is how a lesson shows c-select refusing fds past FD_SETSIZE.
    if request.connections + request.idle_connections > settings.max_connections:
        raise InvalidRequest(
            f"idle_connections: connections + idle_connections may be at most "
            f"{settings.max_connections} here (got {request.connections} + "
            f"{request.idle_connections})"
        )
    _at_most("repetitions", request.repetitions, settings.max_repetitions)
    _at_most("ramp_s", request.ramp_s, settings.max_warmup_s, " s")
    if request.profile == "syscalls" and request.repetitions > 1:
        raise InvalidRequest(
            "repetitions: a syscall profile counts calls, which do not vary like speed does; "
            "ask for 1 repetition"
        )
    _at_most("payload_bytes", request.payload_bytes, settings.max_payload_bytes)
    if request.duration_s > settings.max_duration_s:
        raise InvalidRequest(
            f"duration_s: at most {settings.max_duration_s:g} s on this host "
            f"(got {request.duration_s:g}); run it several times instead"
        )
    _at_most("warmup_s", request.warmup_s, settings.max_warmup_s, " s")
    if request.protocol not in server.protocols:
        raise InvalidRequest(
            f"protocol: {server.id} speaks {', '.join(server.protocols)} (got {request.protocol})"
        )
    if request.check_only and request.variant is None:
        raise InvalidRequest("check_only: give the `variant` to check")
    if request.variant is not None and server.language != "c":
        raise InvalidRequest(f"variant: only the C servers can be edited, not {server.id}")
    knobs = {k.name: k for k in server.knobs}
    for name, value in request.knobs.items():
        if name not in knobs:
            allowed = ", ".join(knobs) or "none"
            raise InvalidRequest(f"knobs.{name}: {server.id} has no such knob (it has: {allowed})")
        _check_knob(server.id, knobs[name], value)


def create_run(
    request: RunRequest,
    catalog: Catalog,
    settings: Settings,
    store: RunStore,
    admission: Admission | None = None,
) -> tuple[Run, Place]:
    """Validate and queue a run; admission (the person's and the site's limits) happens in
    the store's transaction that queues it."""
    validate_request(request, catalog, settings)
    admission = admission or Admission(queued_site=settings.max_queued_runs)
    return store.create_run(request, admission)


def get_run(store: RunStore, run_id: str) -> Run:
    run = store.get_run(run_id)
    if run is None:
        raise NotFound(f"no run {run_id!r}")
    return run


def run_out(store: RunStore, run: Run) -> RunOut:
    place = store.queue_place(run) or NOT_QUEUED
    checking = run.request.check_only  # a variant's check: no figures
    return RunOut(
        id=run.id,
        server=run.server,
        status=run.status,
        request=run.request,
        created_at=run.created_at,
        started_at=run.started_at,
        finished_at=run.finished_at,
        position=place.position,
        wait_s=place.wait_s,
        held=place.held,
        owner_id=run.owner_id,
        result=None if checking else RunResult.model_validate(run.result) if run.result else None,
        check=CheckResult.model_validate(run.result) if checking and run.result else None,
        error=run.error,
    )


def parse_sse(text: str) -> list[dict[str, Any]]:
    """The frames of a finished stream (c10klab.sse), as {"id", "event", "data"};
    the `retry:` preamble carries no event and is skipped. For clients in Python: the
    baseline recorder and the tests."""
    frames = []
    for block in text.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "event" in fields:
            frames.append(
                {
                    "id": int(fields["id"]),
                    "event": fields["event"],
                    "data": json.loads(fields["data"]),
                }
            )
    return frames


def _has_ended(store: RunStore, run_id: str) -> bool:
    run = store.get_run(run_id)
    return run is None or run.status in ("done", "failed", "cancelled")


def _checked_frame(run_id: str, event: Event) -> ServerSentEvent:
    """An event as its SSE frame, checked against the contract. One the contract does not
    describe is a runner's bug: logged, and sent as stored (the browser's check names it)
    rather than ending the stream half-way."""
    try:
        typed = RunEvent.model_validate({"type": event.type, "data": event.data})
    except ValidationError as mismatch:
        log.error("run %s: event %s does not match the contract: %s", run_id, event.seq, mismatch)
        return ServerSentEvent(event=event.type, id=str(event.seq), data=event.data)
    return sse.frame(event.seq, typed.root)


async def stream_events(
    store: RunStore, news: News, run_id: str, after_seq: int
) -> AsyncIterator[ServerSentEvent]:
    """Every event of the run after `after_seq`, checked against the contract (RunEvent),
    until `done` or `failed`. A client resuming after the last event of a run that has ended
    gets an empty stream. Keep-alive comments are FastAPI's (c10klab.sse)."""
    yield sse.RETRY
    first = True
    async with news.subscription(run_topic(run_id)) as woken:
        while True:
            woken.clear()  # news from here on wakes the wait below
            events = await asyncio.to_thread(store.events_after, run_id, after_seq)
            if first and not events and await asyncio.to_thread(_has_ended, store, run_id):
                return  # its last event, written with its end, is behind the resume point
            first = False
            for event in events:
                yield _checked_frame(run_id, event)
                after_seq = event.seq
                if event.type in TERMINAL_EVENTS:
                    return
            if not events:
                await news.wait(woken)
