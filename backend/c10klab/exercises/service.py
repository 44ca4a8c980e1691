"""Reading exercises, making their starter and solution files, and judging an answer's run."""

import re
import tomllib
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from c10klab.errors import NotFound, Phrase, describe_errors
from c10klab.exercises.schemas import (
    EDITABLE_SHARED_FILES,
    RUN_REASONS,
    Change,
    Criterion,
    ExerciseFile,
    ExerciseOut,
    ExerciseSummary,
    ExerciseTranslation,
    Measured,
    Verdict,
    WrongAnswer,
)
from c10klab.languages import Language, language_dir
from c10klab.results.schemas import FailedData, RunResult
from c10klab.sandboxes.schemas import Catalog

EXERCISES_DIR = "exercises"
NO_EXERCISE = Phrase("no-exercise", "no exercise {slug!r}")


class ExerciseError(Exception):
    """An exercise file that cannot be used, and why (the content check reports it)."""


def exercise_paths(content_dir: Path) -> list[Path]:
    return sorted((content_dir / EXERCISES_DIR).glob("*.toml"))


Model = TypeVar("Model", bound=BaseModel)


def _read_toml(path: Path, model: type[Model]) -> Model:
    try:
        return model.model_validate(tomllib.loads(path.read_text()))
    except tomllib.TOMLDecodeError as bad:
        raise ExerciseError(f"{path.name}: not TOML: {bad}") from bad
    except ValidationError as invalid:
        raise ExerciseError(f"{path.name}: {describe_errors(invalid.errors())}") from invalid


def read_exercise(path: Path) -> ExerciseFile:
    return _read_toml(path, ExerciseFile)


def translation_path(content_dir: Path, language: Language, slug: str) -> Path:
    return language_dir(content_dir, language) / EXERCISES_DIR / f"{slug}.toml"


def read_translation(path: Path) -> ExerciseTranslation:
    return _read_toml(path, ExerciseTranslation)


def in_language(
    exercise: ExerciseFile, slug: str, content_dir: Path, language: Language
) -> tuple[ExerciseFile, Language]:
    """The exercise with its words in `language` where it is translated (and the language they
    are in): English otherwise, as a lesson is."""
    path = translation_path(content_dir, language, slug)
    if language == "en" or not path.is_file():
        return exercise, "en"
    words = read_translation(path)
    criteria = [
        c.model_copy(update={"says": words.says.get(c.id, c.says)}) for c in exercise.criteria
    ]
    translated = exercise.model_copy(
        update={
            "title": words.title,
            "summary": words.summary,
            "statement": words.statement,
            "hints": words.hints,
            "criteria": criteria,
        }
    )
    return translated, language


def find_exercise(content_dir: Path, slug: str) -> ExerciseFile:
    path = content_dir / EXERCISES_DIR / f"{slug}.toml"
    if not slug.replace("-", "").isalnum() or not path.is_file():
        raise NotFound(NO_EXERCISE(slug=slug))
    return read_exercise(path)


def apply_changes(original: str, changes: list[Change], what: str) -> str:
    """The original with each change made in turn; each `find` must occur exactly once."""
    text = original
    for number, change in enumerate(changes, 1):
        found = text.count(change.find)
        if found != 1:
            first = change.find.strip().splitlines()[0]
            raise ExerciseError(
                f"{what} change {number}: its text ({first!r}...) is in the file {found} times, "
                "not once"
            )
        text = text.replace(change.find, change.replace)
    return text


def original_of(exercise: ExerciseFile, catalog: Catalog, sandboxes_dir: Path) -> tuple[str, str]:
    """The file the exercise edits (the server's model file, or the shared module it names):
    its path and its text."""
    server = catalog.get(exercise.server)
    if server is None or server.language != "c":
        raise ExerciseError(f"server {exercise.server!r} is not one of the C servers")
    if exercise.file is not None and exercise.file not in EDITABLE_SHARED_FILES:
        editable = ", ".join(EDITABLE_SHARED_FILES)
        raise ExerciseError(f"file {exercise.file!r}: edit the model file, or one of {editable}")
    path = exercise.file or server.source
    return path, (sandboxes_dir / path).read_text()


def starter_of(exercise: ExerciseFile, catalog: Catalog, sandboxes_dir: Path) -> str:
    _, original = original_of(exercise, catalog, sandboxes_dir)
    return apply_changes(original, exercise.starter, "starter")


# A C function's first line, at the start of a line: a return type and a name, then its
# parameters' parenthesis, and not a declaration (no `;` on the line) or a preprocessor line.
FUNCTION_START = re.compile(
    r"^(?!#)(?!(?:return|if|else|while|for|switch|do)\b)[A-Za-z_][\w \t*]*\b\w+\s*\([^;]*$"
)


def opens_at(starter: str, changes: list[Change]) -> int:
    """The 1-based line of the starter the editor opens at: the start of the function the first
    change lands in, else that change's own line, else the top. (A change's replacement that
    occurs more than once cannot be placed: the top, then.)"""
    planted = changes[0].replace.strip()
    if not planted or starter.count(planted) != 1:
        return 1
    lines = starter[: starter.index(planted)].split("\n")
    for back in range(len(lines) - 1, -1, -1):
        if FUNCTION_START.match(lines[back]):
            return back + 1
    return len(lines)


def solution_of(exercise: ExerciseFile, catalog: Catalog, sandboxes_dir: Path) -> str:
    _, original = original_of(exercise, catalog, sandboxes_dir)
    return apply_changes(original, exercise.solution, "solution")


def wrong_answer_of(
    exercise: ExerciseFile, wrong: WrongAnswer, catalog: Catalog, sandboxes_dir: Path
) -> str:
    """The whole file of a wrong answer: the solution with the mistake made."""
    solution = solution_of(exercise, catalog, sandboxes_dir)
    return apply_changes(solution, wrong.changes, f"wrong answer {wrong.name!r}:")


def summaries(content_dir: Path, language: Language = "en") -> list[ExerciseSummary]:
    found = []
    for path in exercise_paths(content_dir):
        exercise, said_in = in_language(read_exercise(path), path.stem, content_dir, language)
        found.append(
            ExerciseSummary(
                slug=path.stem,
                title=exercise.title,
                lesson=exercise.lesson,
                server=exercise.server,
                summary=exercise.summary,
                language=said_in,
            )
        )
    return found


def exercise_out(
    slug: str,
    exercise: ExerciseFile,
    catalog: Catalog,
    sandboxes_dir: Path,
    content_dir: Path,
    language: Language = "en",
) -> ExerciseOut:
    file, _ = original_of(exercise, catalog, sandboxes_dir)
    starter = starter_of(exercise, catalog, sandboxes_dir)
    words, said_in = in_language(exercise, slug, content_dir, language)
    return ExerciseOut(
        slug=slug,
        title=words.title,
        lesson=exercise.lesson,
        server=exercise.server,
        summary=words.summary,
        language=said_in,
        file=file,
        statement=words.statement,
        hints=words.hints,
        starter=starter,
        opens_at=opens_at(starter, exercise.starter),
        run=exercise.run,
        criteria=words.criteria,
    )


# --- judging an answer ----------------------------------------------------------------------------


@dataclass(frozen=True)
class AnswerRun:
    """An answer's check run as the judge reads it: its status, and its figures once done or
    its `failed` event's data (the compiler's messages, the correctness check that failed)."""

    status: str
    result: RunResult | None = None
    failure: FailedData | None = None
    error: str | None = None


def _syscalls_per_request(result: RunResult, syscall: str) -> tuple[float | None, str]:
    counted = result.syscalls
    if counted is None:
        return None, "the run counted no system calls"
    if counted.refused:
        return None, f"this host could not count system calls: {counted.refused}"
    for row in counted.rows:
        if row.syscall == syscall:
            return row.per_request, ""
    return 0.0, ""  # not called at all


def _measured(criterion: Criterion, value: float | None, ok: bool, why: str = "") -> Measured:
    says = f"{criterion.says} ({why})" if why else criterion.says
    limit = None if criterion.kind == "clean_exit" else criterion.value
    return Measured(id=criterion.id, says=says, ok=ok, value=value, limit=limit)


def measure(criterion: Criterion, result: RunResult) -> Measured:
    """What the run shows of one criterion: the count, and whether it is within the limit."""
    server = result.server
    if criterion.kind == "errors_at_most":
        errors = float(result.summary.error_total)
        return _measured(criterion, errors, errors <= criterion.value)
    if criterion.kind == "clean_exit":
        code = server.exit_code if server else None
        return _measured(criterion, code, code == 0)
    if criterion.kind == "pids_at_most":
        # Docker's count of the container's processes and threads (zombies included): the
        # server's own code cannot change it.
        peak = server.pids_peak if server else None
        if peak is None:
            return _measured(criterion, None, False, "Docker reported no process count")
        return _measured(criterion, peak, peak <= criterion.value)
    calls, why = _syscalls_per_request(result, criterion.syscall or "")
    if calls is None:
        return _measured(criterion, None, False, why)
    if criterion.kind == "calls_per_request_at_least":  # the call the lesson is about is made
        return _measured(criterion, calls, calls >= criterion.value)
    return _measured(criterion, calls, calls <= criterion.value)


def refusals(result: RunResult) -> list[tuple[str, str]]:
    """Why a run whose criteria all hold still cannot pass, by name: connections the server
    never served (its counts describe the clients it did serve), or figures of a failing
    server (lesson 10's trap: a count over the lucky requests looks clean)."""
    starved = result.summary.starved or 0
    if starved:
        return [
            (
                "starved",
                f"{starved} connection{'s' if starved != 1 else ''} got no reply during the "
                "whole run: the server served fewer clients at once than it was given",
            )
        ]
    if not result.valid:
        return [("invalid", f"the run cannot be judged: {result.invalid_reason}")]
    return []


def disturbed(result: RunResult) -> list[tuple[str, str]]:
    """Beside a criterion not met: whether the host disturbed the run. Counts per request move
    with timing (a busy server takes more requests per wake-up), so a count missed on a
    disturbed run may not be the answer's fault: the learner is told to check again."""
    if result.stable is not False:
        return []
    cause = result.unstable_reason or "something else ran on its CPUs"
    return [("unstable", f"the host disturbed this run ({cause}): check the answer again")]


def failure_name(failure: FailedData | None) -> str:
    """A failed run's reason by name: build, check:<the check>, or run."""
    if failure is not None and failure.diagnostics is not None:
        return "build"
    if failure is not None and failure.check is not None and failure.check.failed is not None:
        return f"check:{failure.check.failed.check}"
    return "run"


def judge(exercise: ExerciseFile, run: AnswerRun) -> Verdict:
    """The verdict on an answer: pending while its run is under way; then every criterion's
    measurement, and passed only if all hold and the run can be judged at all."""
    if run.status in ("queued", "running"):
        return Verdict(status="pending")
    if run.status != "done" or run.result is None:
        reason = (run.failure.reason if run.failure else None) or run.error
        return Verdict(
            status="failed",
            reasons=[reason or f"the check run was {run.status}"],
            failed=[failure_name(run.failure)],
        )
    measured = [measure(c, run.result) for c in exercise.criteria]
    unmet = [(m.id, m.says) for m in measured if not m.ok]
    # The criteria say what is wrong in the learner's terms; a refusal only when they hold.
    why = unmet + disturbed(run.result) if unmet else refusals(run.result)
    return Verdict(
        status="failed" if why else "passed",
        reasons=[says for _, says in why],
        failed=[name for name, _ in why],
        measured=measured,
    )


# --- the content check ----------------------------------------------------------------------------


def check_exercise(
    path: Path,
    catalog: Catalog,
    sandboxes_dir: Path,
    lessons: set[str],
    counted_syscalls: Collection[str],
) -> str:
    """Why this exercise cannot be used, or "": it reads, names a lesson and a C server, its
    starter and solution apply to the server's file and differ, a count it judges is one its
    run makes, and every wrong answer applies to the solution and fails for a reason the judge
    can give (whether each really fails so is `make test-exercises`'s check)."""
    problem = ""
    try:
        exercise = read_exercise(path)
        solution = solution_of(exercise, catalog, sandboxes_dir)
        counts = [c for c in exercise.criteria if c.kind.startswith("calls_per_request")]
        if exercise.lesson not in lessons:
            problem = f"no lesson {exercise.lesson!r}"
        elif starter_of(exercise, catalog, sandboxes_dir) == solution:
            problem = "the starter is the solution"
        elif any(c.syscall not in counted_syscalls for c in counts):
            problem = (
                "a calls_per_request criterion names no syscall the counter counts "
                "(runner/measure.py's NAMED_SYSCALLS)"
            )
        elif counts and exercise.run.profile != "syscalls":
            problem = 'counting system calls needs profile = "syscalls" in [run]'
        else:
            problem = _wrong_answers_problem(exercise, solution, catalog, sandboxes_dir)
    except ExerciseError as bad:
        problem = str(bad).removeprefix(f"{path.name}: ")
    return f"exercises/{path.name}: {problem}" if problem else ""


def translation_problem(path: Path, content_dir: Path, language: Language) -> str:
    """Why exercise `path`'s translation into `language` cannot be used, or "": it exists,
    reads, and has a hint for each English hint and a `says` for each criterion, no more."""
    slug = path.stem
    where = translation_path(content_dir, language, slug)
    name = f"{language}/exercises/{slug}.toml"
    if not where.is_file():
        return f"{name}: missing: every exercise is translated (copy the English words there)"
    try:
        exercise, words = read_exercise(path), read_translation(where)
    except ExerciseError as bad:
        return f"{name}: {bad}".replace(f"{where.name}: ", "", 1)
    ids = {c.id for c in exercise.criteria}
    if len(words.hints) != len(exercise.hints):
        return f"{name}: {len(words.hints)} hints for the English {len(exercise.hints)}"
    if set(words.says) != ids:
        missing, extra = sorted(ids - set(words.says)), sorted(set(words.says) - ids)
        return f"{name}: [says] must name each criterion once: missing {missing}, unknown {extra}"
    return ""


def _wrong_answers_problem(
    exercise: ExerciseFile, solution: str, catalog: Catalog, sandboxes_dir: Path
) -> str:
    criteria = [c.id for c in exercise.criteria]
    names = [w.name for w in exercise.wrong]
    for label, ids in (("criterion id", criteria), ("wrong answer name", names)):
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            return f"the {label} {twice[0]!r} is used twice"
    for wrong in exercise.wrong:
        if wrong.fails not in (*criteria, *RUN_REASONS) and not wrong.fails.startswith("check:"):
            return (
                f"wrong answer {wrong.name!r} fails with {wrong.fails!r}: name one of its "
                f"criteria ({', '.join(criteria)}), check:<a correctness check> or one of "
                f"{', '.join(r for r in RUN_REASONS if r != 'check')}"
            )
        if wrong_answer_of(exercise, wrong, catalog, sandboxes_dir) == solution:
            return f"wrong answer {wrong.name!r} is the solution"
    return ""
