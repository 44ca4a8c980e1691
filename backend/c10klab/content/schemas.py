from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from c10klab.results.schemas import Provenance, RunEvent
from c10klab.runs.schemas import RunRequest
from c10klab.sweeps.schemas import SweepOut, SweepRequest


class FrontMatter(BaseModel):
    """The YAML header every lesson starts with."""

    model_config = ConfigDict(extra="forbid")

    title: str = Field(min_length=1)
    summary: str = Field(min_length=1)
    minutes: int = Field(ge=1, le=240)
    order: int = Field(ge=1)
    prerequisites: list[str] = []


class LessonSummary(BaseModel):
    slug: str
    title: str
    summary: str
    minutes: int
    order: int


class LessonLink(BaseModel):
    slug: str
    title: str


class Diagram(BaseModel):
    """A ```mermaid block drawn once by `make diagrams` (content/diagrams/), so browsers need no
    Mermaid for it: `source` is the block's text, trimmed; `svg` the drawing of exactly that."""

    source: str
    svg: str


class ExperimentRef(BaseModel):
    """An ```experiment block of a lesson: `key` (the first 12 hex digits of the SHA-256 of
    its trimmed text) is what a run or sweep sends as `experiment` to say where it came from."""

    key: str
    source: str
    title: str | None
    kind: Literal["run", "series"]
    run: RunRequest | None = Field(None, description="a run block: the POST /api/runs body")
    sweep: SweepRequest | None = Field(
        None, description="a series block: the POST /api/sweeps body"
    )
    error: str | None = Field(None, description="why the block is neither (being edited)")


class Lesson(LessonSummary):
    prerequisites: list[str]
    markdown: str
    experiments: list[ExperimentRef] = []
    # Blocks without a drawing (a lesson being edited) are missing; the browser draws those.
    diagrams: list[Diagram] = []
    prev: LessonLink | None
    next: LessonLink | None


class RecordedResult(BaseModel):
    """A run block's recording: its events as its stream sent them; a series block's: its
    sweep's table as GET /api/sweeps/{id} gave it."""

    events: list[RunEvent] | None = None
    table: SweepOut | None = None


class Baseline(BaseModel):
    """A reference result for one experiment block, recorded by `make record-baselines`
    through the real runner. `block` is the block's exact text: edit the block and its
    baseline no longer applies until it is recorded again."""

    block: str
    kind: Literal["run", "series"]
    recorded_at: str
    provenance: Provenance
    result: RecordedResult


class LessonBaselines(BaseModel):
    lesson: str
    experiments: list[Baseline] = []


class GlossaryFrontMatter(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: str = Field(min_length=1)
    summary: str = Field(min_length=1)


class Glossary(GlossaryFrontMatter):
    """content/glossary.md: one `### term` section per term, linked from lessons as
    `../glossary.md#term`."""

    markdown: str
    terms: list[str]
    diagrams: list[Diagram] = []
