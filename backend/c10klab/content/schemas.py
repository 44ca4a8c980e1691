from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

from c10klab.content.experiments import parse_block, request_key
from c10klab.languages import Language as Language
from c10klab.results.schemas import Provenance, RunEvent, Stacks
from c10klab.runs.schemas import RunRequest
from c10klab.sweeps.schemas import SweepOut, SweepRequest
from c10klab.uncertainty import HostNoise


class FrontMatter(BaseModel):
    """The YAML header every lesson starts with."""

    model_config = ConfigDict(extra="forbid")

    title: str = Field(min_length=1)
    summary: str = Field(min_length=1)
    minutes: int = Field(ge=1, le=240)
    order: int = Field(ge=0)  # 0: the lesson before the course
    prerequisites: list[str] = []


class LessonSummary(BaseModel):
    slug: str
    language: Language = Field(
        description="the language this text is in: the one asked for, or English while the "
        "lesson has no translation"
    )
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
    """An ```experiment block of a lesson. `key` stands for what the block asks the runner for
    (content.experiments.request_key), so it is the same in every language: a run or sweep
    sends it as `experiment` to say where it came from, the class board groups by it, and the
    block's recording in GET .../baselines has it too. (A block that does not parse is keyed
    by its text.)"""

    key: str
    id: str | None = Field(None, description="the block's `id:`, named by the prose's figures")
    source: str
    title: str | None
    kind: Literal["run", "series"]
    run: RunRequest | None = Field(None, description="a run block: the POST /api/runs body")
    sweep: SweepRequest | None = Field(
        None, description="a series block: the POST /api/sweeps body"
    )
    error: str | None = Field(None, description="why the block is neither (being edited)")


class Figure(BaseModel):
    """One figure reference of the prose (`{{ expression }}`), as it was resolved against the
    lesson's recordings; `markdown` has `text` in its place."""

    expression: str
    text: str | None = Field(description="the figure with its unit; None when it did not resolve")
    value: float | None
    unit: str | None
    experiments: list[str] = Field(description="the ids of the blocks it was read from")
    error: str | None = None


class Lesson(LessonSummary):
    prerequisites: list[str]
    markdown: str = Field(description="the lesson's Markdown, its figure references resolved")
    figures: list[Figure] = []
    experiments: list[ExperimentRef] = []
    # Blocks without a drawing (a lesson being edited) are missing; the browser draws those.
    diagrams: list[Diagram] = []
    prev: LessonLink | None
    next: LessonLink | None


class RecordedResult(BaseModel):
    """A run block's recording: its events as its stream sent them; a series block's: its
    sweep's table as GET /api/sweeps/{id} gave it, and for a profiled series (cpu, offcpu)
    each finished point's profile by its run id (the recording's runs are not in a course's
    store: the page draws their flame graphs from these)."""

    events: list[RunEvent] | None = None
    table: SweepOut | None = None
    profiles: dict[str, Stacks] | None = None


class Baseline(BaseModel):
    """A reference result for one experiment block, recorded by `make record-baselines`
    through the real runner. `block` is the block's text when it was recorded; the recording
    belongs to what that block asks for (`request_key`): change the request and it no longer
    applies until it is recorded again; change the title or id, or translate it, and it does."""

    block: str
    kind: Literal["run", "series"]
    recorded_at: str
    provenance: Provenance
    result: RecordedResult
    host_noise: HostNoise | None = Field(
        None,
        description="the recording host's run-to-run spread, for the runs of a recording made "
        "before runners measured theirs (a run that carries its own keeps it): lessons state a "
        "difference between two recorded throughputs only outside it",
    )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def key(self) -> str | None:
        """What the recorded block asked for (content.experiments.request_key): the lesson's
        block with this key shows this recording, whatever its title or language."""
        try:
            return request_key(parse_block(self.block))
        except ValueError:
            return None


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

    language: Language
    markdown: str
    terms: list[str]
    diagrams: list[Diagram] = []
