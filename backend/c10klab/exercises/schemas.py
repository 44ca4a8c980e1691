"""Exercises: a statement, starter code (a server's model file with a gap or a bug), a check
(a run of the learner's variant, judged by criteria), hints, and a solution shown on request.
Written in content/exercises/<slug>.toml; the starter and the solution are kept as changes to
the model file (find this text, exactly once; put this instead), so they follow the server as
it evolves and the content check says when one no longer applies.

Beside them, the wrong answers that prove the check (as nbgrader's instructors run the wrong
submissions they expect): the mistakes a learner makes, each kept as changes to the solution
and the reason its check must fail with. `make test-exercises` builds and checks every one."""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from c10klab.languages import Language
from c10klab.runs.schemas import LessonSlug, RunSettings

# The shared C modules an exercise may have a learner edit instead of a server's model file:
# the two every C server is built with (the Makefile's COMPILE).
EDITABLE_SHARED_FILES = ("servers/c/protocol.c", "servers/c/runtime.c")

# A criterion's or a wrong answer's name: lowercase words with dashes.
Name = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{0,59}$")]

# Why a check fails besides its criteria: the answer did not compile (`build`), a correctness
# check of the load generator failed (`check:<its name>`, e.g. check:echo-half-close), the run
# failed otherwise (`run`), or it ran but cannot be judged: connections the server never served
# (`starved`), or figures that describe a failing server (`invalid`). Beside a criterion not
# met, `unstable` says the host disturbed the run (a wrong answer never fails for that alone).
RUN_REASONS = ("build", "check", "run", "starved", "invalid")


class Change(BaseModel):
    model_config = ConfigDict(extra="forbid")

    find: str = Field(min_length=1, description="text found exactly once in the original")
    replace: str


class Criterion(BaseModel):
    """One thing the check's run must show. `says` is what it means, in the learner's words.
    Every kind is an exact count of this run (errors, the exit code, the container's peak of
    processes, system calls per request): no host noise moves them, so no interval applies."""

    model_config = ConfigDict(extra="forbid")

    id: Name = Field(description="names it in a verdict and in a wrong answer's `fails`")
    kind: Literal[
        "errors_at_most",
        "calls_per_request_at_most",
        "calls_per_request_at_least",
        "clean_exit",
        "pids_at_most",
    ]
    value: float = 0
    syscall: str | None = Field(None, description="calls_per_request_*: which call")
    says: str = Field(min_length=1)


class WrongAnswer(BaseModel):
    """A mistake a learner makes, as changes to the solution, and the reason its check must
    fail with: a criterion's id, or one of RUN_REASONS."""

    model_config = ConfigDict(extra="forbid")

    name: Name
    mistake: str = Field(min_length=1, description="the mistake, in the learner's words")
    changes: list[Change] = Field(min_length=1)
    fails: str = Field(min_length=1)


class ExerciseFile(BaseModel):
    """content/exercises/<slug>.toml, as written."""

    model_config = ConfigDict(extra="forbid")

    title: str = Field(min_length=1)
    lesson: LessonSlug
    server: str
    summary: str = Field(min_length=1, description="one sentence for the list")
    file: str | None = Field(
        None,
        description="the server's file the learner edits when it is not its model file: a "
        "shared C module compiled into it (EDITABLE_SHARED_FILES), e.g. servers/c/protocol.c",
    )
    statement: str = Field(min_length=1, description="Markdown")
    hints: list[str] = Field(min_length=1)
    starter: list[Change] = Field(min_length=1)
    solution: list[Change] = Field(
        [], description="changes to the original; none: the original is a solution"
    )
    run: RunSettings = Field(description="the run that checks an answer (of its variant)")
    criteria: list[Criterion] = Field(min_length=1)
    wrong: list[WrongAnswer] = Field(min_length=1, description="the mistakes its check catches")


class ExerciseTranslation(BaseModel):
    """content/<language>/exercises/<slug>.toml: an exercise's words in another language, each
    criterion's `says` by its id. The starter, the run, the criteria and the wrong answers are
    the English file's: a translation cannot change what is checked."""

    model_config = ConfigDict(extra="forbid")

    title: str = Field(min_length=1)
    summary: str = Field(min_length=1)
    statement: str = Field(min_length=1)
    hints: list[str] = Field(min_length=1)
    says: dict[str, str] = Field(description="each criterion's `says`, by its id")


class ExerciseSummary(BaseModel):
    slug: str
    title: str
    lesson: str
    server: str
    summary: str
    language: Language = Field(
        "en", description="the language its words are in: the one asked for, or English"
    )


class ExerciseOut(ExerciseSummary):
    file: str = Field(
        description="the file the learner edits: the server's model file, e.g. "
        "servers/c/epoll.c, or a shared module, e.g. servers/c/protocol.c"
    )
    statement: str
    hints: list[str]
    starter: str = Field(description="the whole starter file")
    opens_at: int = Field(
        ge=1,
        description="the starter's line the editor opens at: the start of the function its "
        "first change is in (where the learner has work to do), not the file's header",
    )
    run: RunSettings
    criteria: list[Criterion]


class SolutionOut(BaseModel):
    slug: str
    source: str = Field(description="the whole file of a solution")


class Measured(BaseModel):
    id: str = Field(description="the criterion's")
    says: str
    ok: bool
    value: float | None = Field(description="what the run measured; null if it could not")
    limit: float | None = None


class Verdict(BaseModel):
    """An answer to an exercise: pending while its run is under way, then passed or not,
    with every criterion's measurement and the reasons it failed."""

    status: Literal["pending", "passed", "failed"]
    reasons: list[str] = []
    failed: list[str] = Field(
        [],
        description="why, by name: the criteria not met (and unstable, when the host disturbed "
        "the run), or build, check:<name>, run, starved, invalid",
    )
    measured: list[Measured] = []
