"""What the runs endpoints take and answer. The request itself (RunRequest, RunSettings and their
ids) lives in c10klab.run_request, where a result's provenance can name it too; its names are
offered here as well."""

from typing import Literal

from pydantic import BaseModel, Field

from c10klab.results.schemas import CheckResult, RunResult
from c10klab.run_request import ExperimentKey as ExperimentKey
from c10klab.run_request import LessonSlug as LessonSlug
from c10klab.run_request import RunRequest as RunRequest
from c10klab.run_request import RunSettings as RunSettings
from c10klab.run_request import VariantId as VariantId

RunStatus = Literal["queued", "running", "done", "failed", "cancelled"]


class RunCreated(BaseModel):
    id: str
    status: RunStatus
    position: int | None = Field(
        description="place in the queue, 1 = next to start; null while its class is paused"
    )
    wait_s: float | None = Field(description="estimated seconds until it starts")
    held: bool = Field(False, description="its class is paused: it waits until it resumes")


class RunOut(BaseModel):
    id: str
    server: str
    status: RunStatus
    request: RunRequest = Field(description="as asked, every default filled in")
    created_at: str
    started_at: str | None
    finished_at: str | None
    position: int | None = Field(description="place in the queue while queued, 1 = next")
    wait_s: float | None = Field(description="estimated seconds until it starts, while queued")
    held: bool = Field(False, description="queued in a paused class: it waits for the resume")
    owner_id: str = Field(description="who queued it ('solo' in solo mode)")
    result: RunResult | None = Field(description="once done: the `done` event's data")
    check: CheckResult | None = Field(
        None, description="a variant's check run, once checked: its `checked` event's data"
    )
    error: str | None


class CancelOut(BaseModel):
    id: str
    status: RunStatus
