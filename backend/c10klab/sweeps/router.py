from typing import Annotated

from fastapi import APIRouter, Header, Query
from fastapi.responses import StreamingResponse

from c10klab.deps import SettingsDep, StoreDep
from c10klab.runs.service import resume_after
from c10klab.sandboxes.service import load_catalog
from c10klab.sweeps import service
from c10klab.sweeps.schemas import SweepCreated, SweepOut, SweepRequest

router = APIRouter(prefix="/sweeps", tags=["sweeps"])


@router.post("", status_code=202)
def create_sweep(request: SweepRequest, settings: SettingsDep, store: StoreDep) -> SweepCreated:
    sweep = service.create_sweep(request, load_catalog(settings.sandboxes_dir), settings, store)
    skipped = sum(1 for p in sweep.points if p["run_id"] is None)
    return SweepCreated(id=sweep.id, points=len(sweep.points), skipped=skipped)


@router.get("/{sweep_id}")
def get_sweep(sweep_id: str, store: StoreDep) -> SweepOut:
    return service.sweep_out(store, service.get_sweep(store, sweep_id))


@router.delete("/{sweep_id}")
def cancel_sweep(sweep_id: str, store: StoreDep) -> SweepOut:
    sweep = service.get_sweep(store, sweep_id)
    service.cancel_sweep(store, sweep)
    return service.sweep_out(store, sweep)


@router.get("/{sweep_id}/events")
def sweep_events(
    sweep_id: str,
    store: StoreDep,
    last_event_id: Annotated[str | None, Header()] = None,
    after: Annotated[int | None, Query(alias="last_event_id", ge=0)] = None,
) -> StreamingResponse:
    sweep = service.get_sweep(store, sweep_id)
    resume = resume_after(last_event_id, after)
    return StreamingResponse(
        service.stream_points(store, sweep, min(resume, len(sweep.points))),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
