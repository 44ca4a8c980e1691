"""Reading exercises, making their starter and solution files, and judging an answer's run."""

import tomllib
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from c10klab.errors import NotFound, describe_errors
from c10klab.exercises.schemas import (
    Change,
    Criterion,
    ExerciseFile,
    ExerciseOut,
    ExerciseSummary,
    Measured,
    Verdict,
)
from c10klab.sandboxes.schemas import Catalog

EXERCISES_DIR = "exercises"


class ExerciseError(Exception):
    """An exercise file that cannot be used, and why (the content check reports it)."""


def exercise_paths(content_dir: Path) -> list[Path]:
    return sorted((content_dir / EXERCISES_DIR).glob("*.toml"))


def read_exercise(path: Path) -> ExerciseFile:
    try:
        return ExerciseFile.model_validate(tomllib.loads(path.read_text()))
    except tomllib.TOMLDecodeError as bad:
        raise ExerciseError(f"{path.name}: not TOML: {bad}") from bad
    except ValidationError as invalid:
        raise ExerciseError(f"{path.name}: {describe_errors(invalid.errors())}") from invalid


def find_exercise(content_dir: Path, slug: str) -> ExerciseFile:
    path = content_dir / EXERCISES_DIR / f"{slug}.toml"
    if not slug.replace("-", "").isalnum() or not path.is_file():
        raise NotFound(f"no exercise {slug!r}")
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
    """The model file the exercise edits: its path and its text."""
    server = catalog.get(exercise.server)
    if server is None or server.language != "c":
        raise ExerciseError(f"server {exercise.server!r} is not one of the C servers")
    return server.source, (sandboxes_dir / server.source).read_text()


def starter_of(exercise: ExerciseFile, catalog: Catalog, sandboxes_dir: Path) -> str:
    _, original = original_of(exercise, catalog, sandboxes_dir)
    return apply_changes(original, exercise.starter, "starter")


def solution_of(exercise: ExerciseFile, catalog: Catalog, sandboxes_dir: Path) -> str:
    _, original = original_of(exercise, catalog, sandboxes_dir)
    return apply_changes(original, exercise.solution, "solution")


def summaries(content_dir: Path) -> list[ExerciseSummary]:
    found = []
    for path in exercise_paths(content_dir):
        exercise = read_exercise(path)
        found.append(
            ExerciseSummary(
                slug=path.stem,
                title=exercise.title,
                lesson=exercise.lesson,
                server=exercise.server,
                summary=exercise.summary,
            )
        )
    return found


def exercise_out(
    slug: str, exercise: ExerciseFile, catalog: Catalog, sandboxes_dir: Path
) -> ExerciseOut:
    file, _ = original_of(exercise, catalog, sandboxes_dir)
    return ExerciseOut(
        slug=slug,
        title=exercise.title,
        lesson=exercise.lesson,
        server=exercise.server,
        summary=exercise.summary,
        file=file,
        statement=exercise.statement,
        hints=exercise.hints,
        starter=starter_of(exercise, catalog, sandboxes_dir),
        run=exercise.run,
        criteria=exercise.criteria,
    )


# --- judging an answer ----------------------------------------------------------------------------


def _syscalls_per_request(result: dict[str, Any], syscall: str) -> tuple[float | None, str]:
    counted = result.get("syscalls") or {}
    if counted.get("refused"):
        return None, f"this host could not count system calls: {counted['refused']}"
    for row in counted.get("rows") or []:
        if row.get("syscall") == syscall:
            return float(row["per_request"]), ""
    return 0.0, ""  # not called at all


def measure(criterion: Criterion, result: dict[str, Any]) -> Measured:
    summary = result.get("summary") or {}
    server = result.get("server") or {}
    if criterion.kind == "errors_at_most":
        errors = float(summary.get("error_total", 0))
        return Measured(
            says=criterion.says, ok=errors <= criterion.value, value=errors, limit=criterion.value
        )
    if criterion.kind == "clean_exit":
        code = server.get("exit_code")
        return Measured(says=criterion.says, ok=code == 0, value=code, limit=0)
    calls, why = _syscalls_per_request(result, criterion.syscall or "")
    if calls is None:
        return Measured(says=f"{criterion.says} ({why})", ok=False, value=None)
    return Measured(
        says=criterion.says, ok=calls <= criterion.value, value=calls, limit=criterion.value
    )


def judge(
    exercise: ExerciseFile, status: str, result: dict[str, Any] | None, error: str | None
) -> Verdict:
    """The verdict on an answer whose check run is in `status`, with its result or error."""
    if status in ("queued", "running"):
        return Verdict(status="pending")
    if status != "done" or result is None:
        return Verdict(status="failed", reasons=[error or f"the check run was {status}"])
    measured = [measure(c, result) for c in exercise.criteria]
    reasons = [m.says for m in measured if not m.ok]
    return Verdict(status="failed" if reasons else "passed", reasons=reasons, measured=measured)


# --- the content check ----------------------------------------------------------------------------


def check_exercise(path: Path, catalog: Catalog, sandboxes_dir: Path, lessons: set[str]) -> str:
    """Why this exercise cannot be used, or "": it reads, names a lesson and a C server, its
    starter and solution apply to the server's file and differ, and a count it judges is one
    its run makes (whether the server takes its run is the caller's check)."""
    problem = ""
    try:
        exercise = read_exercise(path)
        counts = [c for c in exercise.criteria if c.kind == "calls_per_request_at_most"]
        if exercise.lesson not in lessons:
            problem = f"no lesson {exercise.lesson!r}"
        elif starter_of(exercise, catalog, sandboxes_dir) == solution_of(
            exercise, catalog, sandboxes_dir
        ):
            problem = "the starter is the solution"
        elif any(not c.syscall for c in counts):
            problem = "a calls_per_request_at_most criterion names no syscall"
        elif counts and exercise.run.profile != "syscalls":
            problem = 'counting system calls needs profile = "syscalls" in [run]'
    except ExerciseError as bad:
        problem = str(bad).removeprefix(f"{path.name}: ")
    return f"exercises/{path.name}: {problem}" if problem else ""
