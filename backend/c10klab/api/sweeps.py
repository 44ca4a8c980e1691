"""Sweeps: a run per (server, value) queued as one request. Like runs, every call acts for the
person asking: a student sees their own sweeps and their class's, and cancels only their own."""

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.sse import EventSourceResponse, ServerSentEvent

from c10klab.api.deps import (
    NewsDep,
    PeopleDep,
    PersonDep,
    RunnersDep,
    SettingsDep,
    SweepsDep,
    VariantsDep,
)
from c10klab.content.service import validate_origin
from c10klab.hosts.store import RunnerStore
from c10klab.people.access import admission_for, require_canceller, require_viewer
from c10klab.people.store import PeopleStore, Person
from c10klab.sandboxes.service import load_catalog
from c10klab.sse import ResumeDep, stream_doc
from c10klab.sweeps import service
from c10klab.sweeps.schemas import VARIANT_ENTRY, SweepCreated, SweepEvent, SweepOut, SweepRequest
from c10klab.sweeps.store import Sweep, SweepStore
from c10klab.uncertainty import HostNoise
from c10klab.variants.service import require_own_variant
from c10klab.variants.store import VariantStore

router = APIRouter(prefix="/sweeps", tags=["sweeps"])


def visible_sweep(sweeps: SweepStore, people: PeopleStore, person: Person, sweep_id: str) -> Sweep:
    """The sweep, if it exists (404) and the person may see it (403)."""
    sweep = service.get_sweep(sweeps, sweep_id)
    require_viewer(people, person, sweep.owner_id, sweep.class_id, "sweep")
    return sweep


def cancellable_sweep(
    sweeps: SweepStore, people: PeopleStore, person: Person, sweep_id: str
) -> Sweep:
    """The sweep, if it exists (404) and the person may cancel it (403)."""
    sweep = service.get_sweep(sweeps, sweep_id)
    require_canceller(people, person, sweep.owner_id, sweep.class_id, "sweep")
    return sweep


def own_variants(
    request: SweepRequest, variants: VariantStore, person: Person
) -> dict[str, service.Entry]:
    """The `variant:<id>` entries as (server, variant id), each the asker's own (403) and
    existing (422)."""
    resolved: dict[str, service.Entry] = {}
    for entry in request.servers:
        if entry.startswith(VARIANT_ENTRY):
            variant_id = entry.removeprefix(VARIANT_ENTRY)
            variant = require_own_variant(variants, person, variant_id, server=None)
            resolved[entry] = (variant.server, variant.id)
    return resolved


def noisiest_host(runners: RunnerStore) -> HostNoise | None:
    """The largest run-to-run spread among the live runners that know theirs: a comparison's
    rounds may run on any of them, so it is planned for the noisiest."""
    known = [r.noise for r in runners.hosts() if r.alive and r.noise is not None]
    return max(known, key=lambda n: n.sigma) if known else None


@router.post("", status_code=202)
def create_sweep(
    request: SweepRequest,
    person: PersonDep,
    settings: SettingsDep,
    sweeps: SweepsDep,
    variants: VariantsDep,
    runners: RunnersDep,
) -> SweepCreated:
    validate_origin(request.lesson, request.experiment, settings)
    sweep = service.create_sweep(
        request,
        load_catalog(settings.sandboxes_dir),
        settings,
        sweeps,
        admission_for(person, settings),
        own_variants(request, variants, person),
        noisiest_host(runners) if request.within is not None else None,
    )
    skipped = sum(1 for p in sweep.points if p["run_id"] is None)
    return SweepCreated(id=sweep.id, points=len(sweep.points), skipped=skipped)


@router.get("/{sweep_id}")
def get_sweep(sweep_id: str, person: PersonDep, sweeps: SweepsDep, people: PeopleDep) -> SweepOut:
    return service.sweep_out(sweeps, visible_sweep(sweeps, people, person, sweep_id))


@router.delete("/{sweep_id}")
def cancel_sweep(
    sweep_id: str, person: PersonDep, sweeps: SweepsDep, people: PeopleDep
) -> SweepOut:
    sweep = cancellable_sweep(sweeps, people, person, sweep_id)
    service.cancel_sweep(sweeps, sweep)
    return service.sweep_out(sweeps, sweep)


def viewed_sweep(sweep_id: str, person: PersonDep, sweeps: SweepsDep, people: PeopleDep) -> Sweep:
    """visible_sweep as a dependency: a stream's 404 or 403 must come before it starts."""
    return visible_sweep(sweeps, people, person, sweep_id)


@router.get(
    "/{sweep_id}/events",
    response_class=EventSourceResponse,
    responses=stream_doc(SweepEvent, "each point as it finishes, in order, then the table"),
)
async def sweep_events(
    sweep: Annotated[Sweep, Depends(viewed_sweep)],
    sweeps: SweepsDep,
    news: NewsDep,
    resume: ResumeDep,
) -> AsyncIterator[ServerSentEvent]:
    """Server-Sent Events: `point` as each point finishes, then `done` with the table;
    resumes after `Last-Event-ID` or `?last_event_id` like a run's stream."""
    async for event in service.stream_points(sweeps, news, sweep, resume):
        yield event
