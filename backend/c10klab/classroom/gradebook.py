"""A class's assigned exercises and its gradebook: for every student and assigned exercise,
how many answers, whether one passed (and when, against the due time), and how the newest went.

The verdicts are the exercises' own judge's, read from each answer's check run when asked:
nothing is stored twice, so a gradebook can never disagree with the answer it links to."""

import csv
import io
from collections import defaultdict
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path

from c10klab.classroom.export import spreadsheet_safe
from c10klab.classroom.schemas import (
    AssignmentOut,
    AssignRequest,
    Gradebook,
    GradebookRow,
    GradeCell,
)
from c10klab.classroom.store import Assignment, ClassroomStore
from c10klab.errors import InvalidRequest, Phrase
from c10klab.exercises import service as exercises
from c10klab.exercises.schemas import ExerciseFile, Verdict
from c10klab.people.store import PeopleStore
from c10klab.runs.store import RunStore
from c10klab.variants.service import judge_answer
from c10klab.variants.store import Variant, VariantStore

DUE_PASSED = Phrase(
    "due-time-passed", "due_at: {due_at} has passed; give a time in the future, or none"
)

CSV_COLUMNS = [
    "student", "exercise", "title", "due_at", "status", "attempts", "passed_at", "late",
    "last_attempt_at", "failed",
]  # fmt: skip


def assign(
    classroom: ClassroomStore, content_dir: Path, class_id: str, slug: str, body: AssignRequest
) -> AssignmentOut:
    """Assign exercise `slug` to the class (404 for no such exercise; 422 for a due time that
    has passed), or change its due time."""
    exercise = exercises.find_exercise(content_dir, slug)
    due_at = None
    if body.due_at is not None:
        due = body.due_at.astimezone(UTC)
        if due <= datetime.now(UTC):
            raise InvalidRequest(DUE_PASSED(due_at=body.due_at.isoformat()))
        due_at = due.isoformat(timespec="milliseconds")
    return assignment_out(classroom.assign(class_id, slug, due_at), exercise)


def assignment_out(
    assignment: Assignment, exercise: ExerciseFile, mine: GradeCell | None = None
) -> AssignmentOut:
    """The assignment as stored (its class left out), with its exercise's title and lesson."""
    stored = asdict(assignment)
    del stored["class_id"]
    return AssignmentOut(**stored, title=exercise.title, lesson=exercise.lesson, mine=mine)


class Grader:
    """Judges a class's answers to its assignments: each answer's verdict from its check run,
    each exercise read once. One lives for one request: an answer being judged may pass a
    moment later, so nothing is kept longer."""

    def __init__(self, content_dir: Path, runs: RunStore, variants: VariantStore) -> None:
        self.content_dir, self.runs, self.variants = content_dir, runs, variants
        self._exercises: dict[str, ExerciseFile] = {}
        self._verdicts: dict[str, Verdict] = {}

    def exercise(self, slug: str) -> ExerciseFile:
        if slug not in self._exercises:
            self._exercises[slug] = exercises.find_exercise(self.content_dir, slug)
        return self._exercises[slug]

    def verdict(self, answer: Variant) -> Verdict:
        # Answers come from answers_in_class, which selects them by their exercise.
        assert answer.exercise is not None
        if answer.id not in self._verdicts:
            exercise = self.exercise(answer.exercise)
            self._verdicts[answer.id] = judge_answer(exercise, answer, self.runs)
        return self._verdicts[answer.id]

    def cell(self, assignment: Assignment, answers: list[Variant]) -> GradeCell:
        """One student's answers (oldest first) to one assignment."""
        if not answers:
            return GradeCell(
                exercise=assignment.exercise,
                status="none",
                attempts=0,
                passed_at=None,
                late=False,
                last_attempt_at=None,
                last_variant_id=None,
            )
        # Oldest first, up to the first that passed: the answers after it change nothing.
        passed = next((a for a in answers if self.verdict(a).status == "passed"), None)
        newest = answers[-1]
        newest_verdict = None if passed else self.verdict(newest)
        due = assignment.due_at
        return GradeCell(
            exercise=assignment.exercise,
            status=newest_verdict.status if newest_verdict else "passed",
            attempts=len(answers),
            passed_at=passed.created_at if passed else None,
            late=passed is not None and due is not None and passed.created_at > due,
            last_attempt_at=newest.created_at,
            last_variant_id=newest.id,
            failed=newest_verdict.failed if newest_verdict else [],
        )

    def answers_by_student(
        self, class_id: str, assigned: list[Assignment]
    ) -> dict[tuple[str, str], list[Variant]]:
        """The class's answers to its assignments, by (student, exercise), oldest first."""
        found: dict[tuple[str, str], list[Variant]] = defaultdict(list)
        slugs = [a.exercise for a in assigned]
        for answer in self.variants.answers_in_class(class_id, slugs):
            found[(answer.owner_id, answer.exercise or "")].append(answer)
        return found


def assignments_for(
    classroom: ClassroomStore, grader: Grader, class_id: str, student_id: str | None
) -> list[AssignmentOut]:
    """The class's assignments; for a student, with their own answers' cell."""
    assigned = classroom.assignments(class_id)
    answers = grader.answers_by_student(class_id, assigned) if student_id else {}
    return [
        assignment_out(
            a,
            grader.exercise(a.exercise),
            grader.cell(a, answers.get((student_id, a.exercise), [])) if student_id else None,
        )
        for a in assigned
    ]


def gradebook(
    people: PeopleStore, classroom: ClassroomStore, grader: Grader, class_id: str
) -> Gradebook:
    """Every student of the class × every assigned exercise."""
    assigned = classroom.assignments(class_id)
    answers = grader.answers_by_student(class_id, assigned)
    rows = []
    for student in people.students_of(class_id):
        cells = [grader.cell(a, answers.get((student.id, a.exercise), [])) for a in assigned]
        passed = sum(c.status == "passed" for c in cells)
        row = GradebookRow(student_id=student.id, name=student.name, passed=passed, cells=cells)
        rows.append(row)
    return Gradebook(
        assignments=[assignment_out(a, grader.exercise(a.exercise)) for a in assigned],
        students=rows,
    )


def gradebook_csv(book: Gradebook) -> str:
    """The gradebook as CSV, a row per student and exercise (a spreadsheet pivots it)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    titles = {a.exercise: (a.title, a.due_at) for a in book.assignments}
    for row in book.students:
        for cell in row.cells:
            title, due_at = titles[cell.exercise]
            writer.writerow(
                [
                    spreadsheet_safe(row.name),
                    cell.exercise,
                    title,
                    due_at or "",
                    cell.status,
                    cell.attempts,
                    cell.passed_at or "",
                    "yes" if cell.late else "",
                    cell.last_attempt_at or "",
                    " ".join(cell.failed),
                ]
            )
    return out.getvalue()
