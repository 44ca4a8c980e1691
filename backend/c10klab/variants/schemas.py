from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from c10klab.exercises.schemas import Verdict
from c10klab.people.schemas import Ownership
from c10klab.runs.schemas import RunCreated, RunStatus

ExerciseSlug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{0,79}$")]

# An edited model file may be this long: the largest C server (io-uring.c) is 40 KiB.
MAX_SOURCE_BYTES = 64 * 1024
# The body that carries one, as JSON: escaping can make a byte six (\u00e9), so its route
# takes eight times the file (http_guards' `x-body-limit`), every other route 64 KiB.
MAX_SOURCE_BODY_BYTES = 8 * MAX_SOURCE_BYTES


class VariantRequest(BaseModel):
    """POST /api/variants's body: one edited model file of a C server."""

    model_config = ConfigDict(extra="forbid")

    server: str = Field(description="the C server whose model file this edits, e.g. c-epoll")
    source: str = Field(
        description="the whole edited file (the server's `source` in GET /api/servers; for an "
        f"exercise, the exercise's `file`), at most {MAX_SOURCE_BYTES // 1024} KiB"
    )
    exercise: ExerciseSlug | None = Field(
        None,
        description="an answer to this exercise (GET /api/exercises): its run is the "
        "exercise's check, measured and judged (the variant's `verdict`)",
    )


class VariantCheck(BaseModel):
    """How a variant's check run went (an answer's: the exercise's run, measured), so a list
    can say "failed to compile" or "checked" without opening each run."""

    status: RunStatus = Field(description="its check run's status")
    failed: str | None = Field(
        None,
        description="a failed check run's reason by name: build (it did not compile), "
        "check:<name> (it answered that correctness check wrongly), or run",
    )
    reason: str | None = Field(None, description="a failed check run's reason, in full")


class VariantOut(BaseModel):
    id: str
    server: str = Field(description="the server it is a variant of")
    file: str = Field(
        description="the file it edits: the model file, e.g. servers/c/epoll.c, or the shared "
        "module its exercise names, e.g. servers/c/protocol.c"
    )
    source: str
    source_sha256: str
    created_at: str
    owner_id: str
    owner: Ownership = Field(description="whose it is, as the asker knows them")
    check_run_id: str = Field(
        description="the run that builds and checks it: follow GET /api/runs/{id}/events"
    )
    exercise: str | None = Field(description="the exercise it answers, if any")
    verdict: Verdict | None = Field(description="an exercise's answer: how its check went")
    check: VariantCheck = Field(description="how its check run went: built, checked, or not")


class VariantCreated(BaseModel):
    id: str
    check: RunCreated = Field(description="the run that builds and checks it, as queued")
