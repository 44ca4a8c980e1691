from typing import Annotated

from fastapi import APIRouter, Header, Query
from fastapi.responses import StreamingResponse

from c10klab.deps import SettingsDep, StoreDep
from c10klab.runs import service
from c10klab.runs.schemas import CancelOut, RunCreated, RunOut, RunRequest
from c10klab.sandboxes.service import load_catalog

router = APIRouter(prefix="/runs", tags=["runs"])


@router.post("", status_code=202)
def create_run(request: RunRequest, settings: SettingsDep, store: StoreDep) -> RunCreated:
    run, position = service.create_run(
        request, load_catalog(settings.sandboxes_dir), settings, store
    )
    return RunCreated(id=run.id, status="queued", position=position)


@router.get("")
def list_runs(store: StoreDep, limit: Annotated[int, Query(ge=1, le=500)] = 50) -> list[RunOut]:
    return [service.run_out(store, run) for run in store.list_runs(limit)]


@router.get("/{run_id}")
def get_run(run_id: str, store: StoreDep) -> RunOut:
    return service.run_out(store, service.get_run(store, run_id))


@router.delete("/{run_id}")
def cancel_run(run_id: str, store: StoreDep) -> CancelOut:
    run = service.get_run(store, run_id)
    status = store.request_cancel(run.id) or run.status
    return CancelOut(id=run.id, status=status)


@router.get("/{run_id}/events")
def run_events(
    run_id: str,
    store: StoreDep,
    last_event_id: Annotated[str | None, Header()] = None,
    after: Annotated[int | None, Query(alias="last_event_id", ge=0)] = None,
) -> StreamingResponse:
    service.get_run(store, run_id)
    return StreamingResponse(
        service.stream_events(store, run_id, service.resume_after(last_event_id, after)),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
