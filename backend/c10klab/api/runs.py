"""The runs domain: queueing benchmark runs and streaming their events. Every call acts for
the person asking (deps.current_person): a student sees their own runs and their class's,
and cancels only their own."""

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from fastapi.sse import EventSourceResponse, ServerSentEvent

from c10klab.api.deps import NewsDep, PeopleDep, PersonDep, SettingsDep, StoreDep, VariantsDep
from c10klab.content.service import validate_origin
from c10klab.people.access import admission_for, require_canceller, require_viewer, scope_for
from c10klab.people.store import PeopleStore, Person
from c10klab.results.schemas import RunEvent
from c10klab.runs import service
from c10klab.runs.schemas import CancelOut, RunCreated, RunOut, RunRequest
from c10klab.runs.store import Run, RunStore
from c10klab.sandboxes.service import load_catalog
from c10klab.sse import ResumeDep, stream_doc
from c10klab.variants.service import require_own_variant

router = APIRouter(prefix="/runs", tags=["runs"])


def visible_run(store: RunStore, people: PeopleStore, person: Person, run_id: str) -> Run:
    """The run, if it exists (404) and the person may see it (403)."""
    run = service.get_run(store, run_id)
    require_viewer(people, person, run.owner_id, run.class_id, "run")
    return run


def viewed_run(run_id: str, person: PersonDep, store: StoreDep, people: PeopleDep) -> Run:
    """visible_run as a dependency: a stream's 404 or 403 must come before the stream starts."""
    return visible_run(store, people, person, run_id)


def cancellable_run(store: RunStore, people: PeopleStore, person: Person, run_id: str) -> Run:
    """The run, if it exists (404) and the person may cancel it (403)."""
    run = service.get_run(store, run_id)
    require_canceller(people, person, run.owner_id, run.class_id, "run")
    return run


@router.post("", status_code=202)
def create_run(
    request: RunRequest,
    person: PersonDep,
    settings: SettingsDep,
    store: StoreDep,
    variants: VariantsDep,
) -> RunCreated:
    validate_origin(request.lesson, request.experiment, settings)
    if request.variant is not None:
        require_own_variant(variants, person, request.variant, request.server)
    run, place = service.create_run(
        request,
        load_catalog(settings.sandboxes_dir),
        settings,
        store,
        admission_for(person, settings),
    )
    return RunCreated(
        id=run.id, status="queued", position=place.position, wait_s=place.wait_s, held=place.held
    )


@router.get("")
def list_runs(
    person: PersonDep,
    store: StoreDep,
    people: PeopleDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> list[RunOut]:
    """The newest runs the person may see: their own, and an instructor's classes'."""
    runs = store.list_runs(scope_for(people, person), limit)
    return [service.run_out(store, run) for run in runs]


@router.get("/{run_id}")
def get_run(run_id: str, person: PersonDep, store: StoreDep, people: PeopleDep) -> RunOut:
    return service.run_out(store, visible_run(store, people, person, run_id))


@router.delete("/{run_id}")
def cancel_run(run_id: str, person: PersonDep, store: StoreDep, people: PeopleDep) -> CancelOut:
    run = cancellable_run(store, people, person, run_id)
    status = store.request_cancel(run.id) or run.status
    return CancelOut(id=run.id, status=status)


@router.get(
    "/{run_id}/events",
    response_class=EventSourceResponse,
    responses=stream_doc(RunEvent, "the run's events after the resume point, until it ends"),
)
async def run_events(
    run: Annotated[Run, Depends(viewed_run)], store: StoreDep, news: NewsDep, resume: ResumeDep
) -> AsyncIterator[ServerSentEvent]:
    """Server-Sent Events: every event of the run after the resume point (`Last-Event-ID` or
    `?last_event_id`), until `done` or `failed`."""
    async for event in service.stream_events(store, news, run.id, resume):
        yield event
