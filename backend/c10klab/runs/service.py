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
from c10klab.errors import InvalidRequest, NotFound, Phrase
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

KNOB_NOT_WHOLE = Phrase("knob-not-whole", "{field}: must be a whole number (got {value!r})")
KNOB_OUT_OF_RANGE = Phrase("knob-out-of-range", "{field}: {server} accepts {accepts} (got {value})")
KNOB_NOT_CHOICE = Phrase("knob-not-choice", "{field}: must be one of {choices} (got {value!r})")
KNOB_NOT_BOOL = Phrase("knob-not-bool", "{field}: must be true or false (got {value!r})")
# `unit` is "" or " s": a symbol, the same in every language.
PAST_HOST_LIMIT = Phrase("past-host-limit", "{field}: at most {limit}{unit} (got {value})")
UNKNOWN_SERVER = Phrase(
    "unknown-server", "server: unknown server {server!r}; choose one of {known}"
)
TOO_MANY_CONNECTIONS = Phrase(
    "too-many-connections",
    "connections: {server} can be run with at most {most} connections here (got {got})",
)
TOO_MANY_IDLE = Phrase(
    "too-many-idle-connections",
    "idle_connections: connections + idle_connections may be at most {most} here "
    "(got {connections} + {idle})",
)
# The most repetitions a profile allows, where it limits them: a syscall profile counts calls,
# which do not vary from run to run as speed does. GET /api/lab/fields sends it to the form.
PROFILE_MOST_REPETITIONS: dict[str, int] = {"syscalls": 1}
PROFILE_ONE_REPETITION = Phrase(
    "syscall-profile-one-repetition",
    "repetitions: a syscall profile counts calls, which do not vary like speed does; "
    "ask for 1 repetition",
)
TOO_LONG = Phrase(
    "duration-too-long",
    "duration_s: at most {most:g} s on this host (got {got:g}); run it several times instead",
)
WRONG_PROTOCOL = Phrase("wrong-protocol", "protocol: {server} speaks {protocols} (got {protocol})")
CHECK_WITHOUT_VARIANT = Phrase("check-without-variant", "check_only: give the `variant` to check")
VARIANT_NOT_EDITABLE = Phrase(
    "variant-not-editable", "variant: only the C servers can be edited, not {server}"
)
NO_SUCH_KNOB = Phrase("no-such-knob", "knobs.{name}: {server} has no such knob (it has: {knobs})")
NO_KNOBS = Phrase("no-knobs", "knobs.{name}: {server} has no such knob (it has: none)")
NO_RUN = Phrase("no-run", "no run {run_id!r}")


def _check_knob(server_id: str, knob: Knob, value: int | str | bool) -> None:
    where = f"knobs.{knob.name}"
    if knob.type == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidRequest(KNOB_NOT_WHOLE(field=where, value=value))
        too_small = knob.min is not None and value < knob.min
        too_large = knob.max is not None and value > knob.max
        if too_small or too_large:
            accepts = f"{knob.min}..{knob.max}"
            raise InvalidRequest(
                KNOB_OUT_OF_RANGE(field=where, server=server_id, accepts=accepts, value=value)
            )
    elif knob.type == "enum":
        if value not in (knob.values or []):
            choices = ", ".join(knob.values or [])
            raise InvalidRequest(KNOB_NOT_CHOICE(field=where, choices=choices, value=value))
    elif not isinstance(value, bool):
        raise InvalidRequest(KNOB_NOT_BOOL(field=where, value=value))


def _shown(value: float) -> str:
    """A number as a refusal shows it: a whole number in full, a fraction without trailing 0s."""
    return str(value) if isinstance(value, int) else f"{value:g}"


def _at_most(field: str, value: float, limit: float, unit: str = "") -> None:
    """Refuse a request field past this host's limit for it, saying the limit."""
    if value > limit:
        said = PAST_HOST_LIMIT(field=field, limit=_shown(limit), unit=unit, value=_shown(value))
        raise InvalidRequest(said)


def validate_request(request: RunRequest, catalog: Catalog, settings: Settings) -> None:
    """Refuse what the catalog or the host's limits do not allow, saying what would be allowed.
    (Whether its `lesson` and `experiment` name a lesson's block is the content domain's to
    say: content.service.validate_origin, called where a request comes in.)"""
    server = catalog.get(request.server)
    if server is None:
        known = ", ".join(s.id for s in catalog.servers)
        raise InvalidRequest(UNKNOWN_SERVER(server=request.server, known=known))
    max_connections = min(settings.max_connections, server.limits.max_connections)
    if request.connections > max_connections:
        raise InvalidRequest(
            TOO_MANY_CONNECTIONS(server=server.id, most=max_connections, got=request.connections)
        )
    # Idle connections may go past the server's own limit (they cost it only a descriptor
    # and a watch each): that is how a lesson shows c-select refusing fds past FD_SETSIZE.
    if request.connections + request.idle_connections > settings.max_connections:
        raise InvalidRequest(
            TOO_MANY_IDLE(
                most=settings.max_connections,
                connections=request.connections,
                idle=request.idle_connections,
            )
        )
    _at_most("repetitions", request.repetitions, settings.max_repetitions)
    _at_most("ramp_s", request.ramp_s, settings.max_warmup_s, " s")
    if request.repetitions > PROFILE_MOST_REPETITIONS.get(request.profile, request.repetitions):
        raise InvalidRequest(PROFILE_ONE_REPETITION())
    _at_most("payload_bytes", request.payload_bytes, settings.max_payload_bytes)
    if request.duration_s > settings.max_duration_s:
        raise InvalidRequest(TOO_LONG(most=settings.max_duration_s, got=request.duration_s))
    _at_most("warmup_s", request.warmup_s, settings.max_warmup_s, " s")
    if request.protocol not in server.protocols:
        protocols = ", ".join(server.protocols)
        raise InvalidRequest(
            WRONG_PROTOCOL(server=server.id, protocols=protocols, protocol=request.protocol)
        )
    if request.check_only and request.variant is None:
        raise InvalidRequest(CHECK_WITHOUT_VARIANT())
    if request.variant is not None and server.language != "c":
        raise InvalidRequest(VARIANT_NOT_EDITABLE(server=server.id))
    knobs = {k.name: k for k in server.knobs}
    for name, value in request.knobs.items():
        if name not in knobs:
            has = ", ".join(knobs)
            raise InvalidRequest(
                NO_SUCH_KNOB(name=name, server=server.id, knobs=has)
                if has
                else NO_KNOBS(name=name, server=server.id)
            )
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
        raise NotFound(NO_RUN(run_id=run_id))
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
