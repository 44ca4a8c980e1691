"""What the classroom's endpoints take and answer (docs/ARCHITECTURE.md, "The classroom")."""

from typing import Annotated, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, RootModel, StringConstraints

from c10klab.languages import Language
from c10klab.people.schemas import ClassOut
from c10klab.results.schemas import (
    BuildEvent,
    CheckedEvent,
    CheckEvent,
    DoneEvent,
    FailedEvent,
    ProgressEvent,
    QueuedEvent,
    RepetitionEvent,
    RequeuedEvent,
    ServerStatsEvent,
    StartedEvent,
)
from c10klab.runs.schemas import ExperimentKey, LessonSlug, RunStatus
from c10klab.sweeps.schemas import SweepOut
from c10klab.uncertainty import Comparison


class HandOut(BaseModel):
    lesson: str | None
    lesson_title: str | None
    experiment: str | None
    experiment_title: str | None
    raised_at: str


class RosterEntry(BaseModel):
    id: str
    name: str
    joined_at: str
    online: bool = Field(description="a class stream of theirs is open")
    last_seen_at: str | None
    lesson: str | None = Field(description="the lesson they are on, by slug")
    lessons_read: int
    runs: int
    removed_at: str | None = Field(
        None, description="removed by the instructor: back only when they let them in"
    )
    hand: HandOut | None = Field(None, description="their raised hand, if it is up")


class QueueEntry(BaseModel):
    id: str
    owner_id: str
    owner_name: str
    server: str
    status: RunStatus
    position: int | None
    wait_s: float | None
    held: bool
    lesson: str | None
    experiment: str | None
    sweep_id: str | None
    created_at: str
    started_at: str | None
    finished_at: str | None
    qps: float | None


class ClassQueue(BaseModel):
    paused: bool
    runs: list[QueueEntry]


class PresentRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    lesson: LessonSlug = Field(description="the lesson it belongs to")
    experiment: ExperimentKey | None = Field(None, description="the experiment block's key")
    title: str | None = Field(None, max_length=200, description="defaults to the block's title")
    run_id: str | None = Field(None, max_length=64, description="a run to show live")
    sweep_id: str | None = Field(None, max_length=64, description="or a sweep")


class PersonBrief(BaseModel):
    id: str
    name: str


class PresentationOut(BaseModel):
    lesson: str
    lesson_title: str
    experiment: str | None
    title: str
    titles: dict[Language, str] = Field(
        description="the title in each of the course's languages (one stream reaches readers "
        "of each): the block's own, or the lesson's, or the instructor's as given"
    )
    lesson_titles: dict[Language, str] = Field(description="the lesson's, in each language")
    run_id: str | None
    sweep_id: str | None
    spotlight: PersonBrief | None = Field(description="the student whose run or sweep it is")
    started_at: str


class Progress(BaseModel):
    read: list[str] = Field(description="the slugs of the lessons read, in the order read")
    current: str | None = Field(description="the lesson the person is on")


class CurrentLesson(BaseModel):
    model_config = ConfigDict(extra="forbid")

    lesson: LessonSlug


class Spread(BaseModel):
    median: float
    min: float
    max: float
    count: int


class BoardPoint(BaseModel):
    server: str
    value: float
    qps: float | None
    p99_us: float | None
    valid: bool | None


class BoardResult(BaseModel):
    person_id: str | None = Field(description="null for the recorded reference")
    name: str
    run_id: str | None
    sweep_id: str | None
    server: str | None
    qps: float | None
    p50_us: float | None
    p99_us: float | None
    valid: bool | None
    stable: bool | None
    finished_at: str | None
    points: list[BoardPoint] | None = Field(description="a series' points")
    verdict: Comparison | None = Field(
        None,
        description="a student's single run against the recorded reference: its QPS change "
        "with the interval its runner's run-to-run spread allows (null for the reference, a "
        "series, or a run without figures to compare)",
    )


class PointSpread(BaseModel):
    server: str
    value: float
    qps: Spread


class BoardSpread(BaseModel):
    """Over the results that count: valid, and measured undisturbed (the course's verdicts:
    an unstable result is left out as an invalid one is)."""

    qps: Spread | None
    p99_us: Spread | None
    points: list[PointSpread] = []
    left_out: int = Field(
        0, description="results (a series: points) left out: invalid, or unstable while measured"
    )


class BoardExperiment(BaseModel):
    lesson: str
    lesson_title: str
    experiment: str
    title: str
    kind: Literal["run", "series"]
    vary: str | None
    reference: BoardResult | None
    results: list[BoardResult]
    spread: BoardSpread
    not_run: list[PersonBrief] = Field(
        [], description="the class's students with no finished result of it yet"
    )


class Board(BaseModel):
    experiments: list[BoardExperiment]


# --- the class stream (GET /api/classes/{id}/events): frames without ids ------------------


class ClassEvent(BaseModel):
    type: Literal["class"]
    data: ClassOut


class PresentationEvent(BaseModel):
    type: Literal["presentation"]
    data: PresentationOut | None


class Relayed(BaseModel):
    """Where a relayed event comes from: the presented run, and the event's number in it."""

    run_id: str
    seq: int


# One class per event of the run stream (c10klab.results.schemas.RunEvent): its `type` and
# `data`, with the run and the number they were relayed with beside them.
class RelayedQueuedEvent(Relayed, QueuedEvent): ...


class RelayedRequeuedEvent(Relayed, RequeuedEvent): ...


class RelayedStartedEvent(Relayed, StartedEvent): ...


class RelayedProgressEvent(Relayed, ProgressEvent): ...


class RelayedServerStatsEvent(Relayed, ServerStatsEvent): ...


class RelayedRepetitionEvent(Relayed, RepetitionEvent): ...


class RelayedBuildEvent(Relayed, BuildEvent): ...


class RelayedCheckEvent(Relayed, CheckEvent): ...


class RelayedDoneEvent(Relayed, DoneEvent): ...


class RelayedCheckedEvent(Relayed, CheckedEvent): ...


class RelayedFailedEvent(Relayed, FailedEvent): ...


class RelayedRunEvent(
    RootModel[
        Annotated[
            RelayedQueuedEvent
            | RelayedRequeuedEvent
            | RelayedStartedEvent
            | RelayedProgressEvent
            | RelayedServerStatsEvent
            | RelayedRepetitionEvent
            | RelayedBuildEvent
            | RelayedCheckEvent
            | RelayedDoneEvent
            | RelayedCheckedEvent
            | RelayedFailedEvent,
            Field(discriminator="type"),
        ]
    ]
):
    """One event of the presented run: `run_id` and `seq`, and the run stream's `type` and
    `data` for it, checked as that stream checks them."""


class RunEventEvent(BaseModel):
    type: Literal["run_event"]
    data: RelayedRunEvent


class SweepTableEvent(BaseModel):
    type: Literal["sweep"]
    data: SweepOut


# --- live-class tools --------------------------------------------------------------------


class HandRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    lesson: LessonSlug | None = Field(None, description="the lesson the student is stuck on")
    experiment: ExperimentKey | None = Field(
        None, description="the experiment block (its key, as GET /api/lessons/{slug} lists it)"
    )


class TimerRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    minutes: float = Field(gt=0, le=180, description="how long from now, up to three hours")
    label: str = Field("", max_length=80, description="what it is for, e.g. 'Exercise 2'")


class TimerOut(BaseModel):
    label: str
    started_at: str
    ends_at: str


class AnnouncementRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=280)]


class AnnouncementOut(BaseModel):
    id: str
    text: str
    at: str


class QuestionRef(BaseModel):
    lesson: str
    question: int


class Live(BaseModel):
    """What a live class shows every student: the timer, the newest announcements (newest
    first) and the questions whose answers the instructor revealed."""

    timer: TimerOut | None
    announcements: list[AnnouncementOut]
    revealed: list[QuestionRef]


class LiveEvent(BaseModel):
    type: Literal["live"]
    data: Live


class AnswerRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    answer: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=2000)]


class GivenAnswer(BaseModel):
    student_id: str
    name: str
    answer: str
    at: str


class QuestionOut(BaseModel):
    question: int = Field(description="its number in the lesson's Check yourself, from 1")
    revealed: bool
    mine: str | None = Field(None, description="a student's own answer")
    answers: list[GivenAnswer] = Field(
        [], description="the instructor's view: every student's answer, oldest first"
    )


class LessonQuestions(BaseModel):
    lesson: str
    questions: list[QuestionOut]


class Ended(BaseModel):
    pass


class EndedEvent(BaseModel):
    type: Literal["ended"]
    data: Ended


class ClassStreamEvent(
    RootModel[
        Annotated[
            ClassEvent
            | PresentationEvent
            | RunEventEvent
            | SweepTableEvent
            | LiveEvent
            | EndedEvent,
            Field(discriminator="type"),
        ]
    ]
):
    """One frame of a class's stream. No ids: a reconnecting stream starts over."""


# --- assignments and the gradebook ---------------------------------------------------------

GradeStatus = Literal["none", "pending", "passed", "failed"]


class AssignRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    due_at: AwareDatetime | None = Field(
        None, description="when answers are due, with its time zone; null: no due time"
    )


class GradeCell(BaseModel):
    """One student's answers to one assigned exercise."""

    exercise: str
    status: GradeStatus = Field(
        description="passed if any answer passed; else the newest answer's verdict (pending "
        "while its check runs); none without an answer"
    )
    attempts: int = Field(description="answers submitted")
    passed_at: str | None = Field(description="when the first answer that passed was submitted")
    late: bool = Field(description="it passed only after the due time")
    last_attempt_at: str | None
    last_variant_id: str | None = Field(
        description="the newest answer: GET /api/variants/{id} shows its source and its check"
    )
    failed: list[str] = Field(
        [], description="why the newest answer failed, by name (a criterion, build, check:…)"
    )


class AssignmentOut(BaseModel):
    exercise: str = Field(description="the exercise's slug")
    title: str
    lesson: str
    due_at: str | None
    assigned_at: str
    mine: GradeCell | None = Field(
        None, description="a student's own answers to it; null for the instructor"
    )


class GradebookRow(BaseModel):
    student_id: str
    name: str
    passed: int = Field(description="assigned exercises passed")
    cells: list[GradeCell] = Field(description="one per assignment, in the assignments' order")


class Gradebook(BaseModel):
    """Students × assigned exercises: who did which, how often, and how it went."""

    assignments: list[AssignmentOut]
    students: list[GradebookRow]
