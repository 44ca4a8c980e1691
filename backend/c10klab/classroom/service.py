"""What an instructor and a class see: the roster, the class's queue, what is presented, the
state the class stream follows, and every student's lessons read."""

from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import get_args

from c10klab.classroom.feed import ClassState
from c10klab.classroom.schemas import (
    HandOut,
    Live,
    PersonBrief,
    PresentationOut,
    PresentRequest,
    Progress,
    QueueEntry,
    RosterEntry,
)
from c10klab.classroom.store import ClassroomStore, Hand, Presentation
from c10klab.content.service import NO_LESSON, find_experiment, load_lessons, read_experiments
from c10klab.db import now_iso
from c10klab.errors import InvalidRequest, NotFound, Phrase
from c10klab.languages import Language
from c10klab.people import service as people_service
from c10klab.people.store import Class, PeopleStore
from c10klab.runs.store import NOT_QUEUED, OfClass, Run, RunStore
from c10klab.sweeps.service import run_figures, sweep_out
from c10klab.sweeps.store import SweepStore

PRESENT_NO_RUN = Phrase("present-no-run", "run_id: no run {run_id!r}")
PRESENT_NO_SWEEP = Phrase("present-no-sweep", "sweep_id: no sweep {sweep_id!r}")
PRESENT_NOT_OURS = Phrase(
    "present-not-ours", "you can present your own runs and those of this class only"
)
PRESENT_BOTH = Phrase("present-both", "present a run or a sweep, not both")
NO_CLASS = Phrase("no-class", "no class {class_id!r}")


@dataclass(frozen=True)
class CourseTitles:
    """Every lesson's title by slug, and every experiment block's by (lesson, key): read in
    one pass over the lessons, for a listing that names many."""

    lessons: dict[str, str]
    experiments: dict[tuple[str, str], str]


def course_titles(content_dir: Path, language: Language = "en") -> CourseTitles:
    lessons = load_lessons(content_dir, language)
    return CourseTitles(
        lessons={lesson.slug: lesson.meta.title for lesson in lessons},
        experiments={
            (lesson.slug, block.key): block.title or ""
            for lesson in lessons
            for block in read_experiments(lesson.markdown)
        },
    )


def shown_title(course: CourseTitles, lesson: str, experiment: str | None) -> str:
    """What a presentation is titled by when the instructor gives no title: its block's
    title, or its lesson's when the block has none (or it is a lesson alone); a lesson no longer
    in the course, by its slug."""
    block = course.experiments.get((lesson, experiment or ""))
    return block or course.lessons.get(lesson, lesson)


def require_lesson(content_dir: Path, slug: str) -> None:
    if slug not in course_titles(content_dir).lessons:
        raise NotFound(NO_LESSON(slug=slug))


# --- the roster and the queue ---------------------------------------------------------------


def run_counts(runs: list[Run]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for run in runs:
        counts[run.owner_id] = counts.get(run.owner_id, 0) + 1
    return counts


def roster(
    people: PeopleStore,
    store: RunStore,
    classroom: ClassroomStore,
    content_dir: Path,
    class_id: str,
    language: Language = "en",
) -> list[RosterEntry]:
    students = people.students_of(class_id) + people.students_of(class_id, removed=True)
    ids = [s.id for s in students]
    where = classroom.whereabouts(ids)
    read = classroom.count_read(ids)
    runs = run_counts(store.class_runs(class_id))
    hands = classroom.hands(class_id)
    # The course's titles are read once for the roster's hands, only when one is up.
    titles = course_titles(content_dir, language) if hands else None
    entries = []
    for student in students:
        seen = where.get(student.id)
        hand = hands.get(student.id)
        entries.append(
            RosterEntry(
                id=student.id,
                name=student.name,
                joined_at=student.joined_at,
                online=seen.online if seen else False,
                last_seen_at=seen.seen_at if seen else None,
                lesson=seen.lesson if seen else None,
                lessons_read=read.get(student.id, 0),
                runs=runs.get(student.id, 0),
                removed_at=student.removed_at,
                hand=hand_out(titles, hand) if titles and hand and not student.removed_at else None,
            )
        )
    return entries


def hand_out(titles: CourseTitles, hand: Hand) -> HandOut:
    """A raised hand as the roster shows it: where, by title."""
    where = (hand.lesson or "", hand.experiment or "")
    return HandOut(
        lesson=hand.lesson,
        lesson_title=titles.lessons.get(hand.lesson) if hand.lesson else None,
        experiment=hand.experiment,
        experiment_title=titles.experiments.get(where) or None if hand.experiment else None,
        raised_at=hand.raised_at,
    )


def remove_student(people: PeopleStore, store: RunStore, klass: Class, person_id: str) -> None:
    if not people.remove_student(klass.id, person_id):
        raise NotFound(people_service.no_such_student(klass, person_id))
    store.cancel_queued_of_owner(person_id, "its student was removed from the class")


def sweep_of_runs(sweeps: SweepStore, class_id: str) -> dict[str, str]:
    """Which sweep each of the class's runs belongs to, by run id."""
    return {
        point["run_id"]: sweep.id
        for sweep in sweeps.class_sweeps(class_id)
        for point in sweep.points
        if point["run_id"]
    }


def with_teachers(people: PeopleStore, class_id: str) -> OfClass:
    """The class's runs with its teachers' own made while it ran: what its runs panel and its
    CSV list (the board and the roster count the students' alone)."""
    klass = people.get_class(class_id)
    if klass is None:
        return OfClass(class_id)
    teachers = (klass.instructor_id, *(p.id for p, _ in people.staff_of(class_id)))
    ended = klass.ended_at
    return OfClass(
        class_id,
        teachers=teachers,
        since_unix=datetime.fromisoformat(klass.created_at).timestamp(),
        until_unix=datetime.fromisoformat(ended).timestamp() if ended else None,
    )


def queue(people: PeopleStore, sweeps: SweepStore, class_id: str) -> list[QueueEntry]:
    listed = sweeps.runs.class_queue(with_teachers(people, class_id))
    names = people.names_of(sorted({run.owner_id for run, _ in listed}))
    sweep_ids = sweep_of_runs(sweeps, class_id)
    entries = []
    for run, queued in listed:
        place = queued or NOT_QUEUED
        figures = run_figures(run)
        entries.append(
            QueueEntry(
                id=run.id,
                owner_id=run.owner_id,
                owner_name=names.get(run.owner_id, run.owner_id),
                server=run.server,
                status=run.status,
                position=place.position,
                wait_s=place.wait_s,
                held=place.held,
                lesson=run.request.lesson,
                experiment=run.request.experiment,
                sweep_id=sweep_ids.get(run.id),
                created_at=run.created_at,
                started_at=run.started_at,
                finished_at=run.finished_at,
                qps=figures.qps,
            )
        )
    return entries


# --- presenting -------------------------------------------------------------------------------


def _owner_in_class(
    people: PeopleStore, sweeps: SweepStore, klass: Class, run_id: str | None, sweep_id: str | None
) -> str | None:
    """Whose run or sweep is to be presented; it must be the class's or its teachers'."""
    if run_id is not None:
        run = sweeps.runs.get_run(run_id)
        if run is None:
            raise InvalidRequest(PRESENT_NO_RUN(run_id=run_id))
        owner, class_id = run.owner_id, run.class_id
    elif sweep_id is not None:
        sweep = sweeps.get_sweep(sweep_id)
        if sweep is None:
            raise InvalidRequest(PRESENT_NO_SWEEP(sweep_id=sweep_id))
        owner, class_id = sweep.owner_id, sweep.class_id
    else:
        return None
    if class_id != klass.id and people.staff_role(klass, owner) is None:
        raise InvalidRequest(PRESENT_NOT_OURS())
    return owner


def present(
    content_dir: Path,
    people: PeopleStore,
    sweeps: SweepStore,
    classroom: ClassroomStore,
    klass: Class,
    body: PresentRequest,
) -> Presentation:
    if body.run_id is not None and body.sweep_id is not None:
        raise InvalidRequest(PRESENT_BOTH())
    try:  # the lesson and block must exist: 422 naming them
        find_experiment(content_dir, body.lesson, body.experiment)
    except NotFound as missing:
        raise InvalidRequest(missing.said) from missing
    owner = _owner_in_class(people, sweeps, klass, body.run_id, body.sweep_id)
    title = body.title or shown_title(course_titles(content_dir), body.lesson, body.experiment)
    shown = Presentation(
        lesson=body.lesson,
        experiment=body.experiment,
        title=title,
        run_id=body.run_id,
        sweep_id=body.sweep_id,
        # A student's run is in the spotlight, named; a teacher's is the class's lesson.
        spotlight_id=owner if owner and people.staff_role(klass, owner) is None else None,
        started_at=now_iso(),
    )
    classroom.present(klass.id, shown)
    return shown


def presented_titles(
    content_dir: Path, shown: Presentation
) -> tuple[dict[Language, str], dict[Language, str]]:
    """The presented block's title and its lesson's, in each of the course's languages: one
    class stream carries them to every student, each reading their own. A title the instructor
    gave (not the block's own) stays as given in all of them."""
    titles: dict[Language, str] = {}
    lessons: dict[Language, str] = {}
    for language in get_args(Language):
        course = course_titles(content_dir, language)
        lessons[language] = course.lessons.get(shown.lesson, shown.lesson)
        titles[language] = shown_title(course, shown.lesson, shown.experiment)
    if shown.title != titles["en"]:
        titles = dict.fromkeys(titles, shown.title)
    return titles, lessons


def presentation_out(
    people: PeopleStore, content_dir: Path, shown: Presentation | None
) -> PresentationOut | None:
    if shown is None:
        return None
    spotlight = None
    if shown.spotlight_id is not None:
        name = people.names_of([shown.spotlight_id]).get(shown.spotlight_id, "a student")
        spotlight = PersonBrief(id=shown.spotlight_id, name=name)
    fields = asdict(shown)
    del fields["spotlight_id"]
    titles, lessons = presented_titles(content_dir, shown)
    return PresentationOut(
        **fields,
        lesson_title=lessons["en"],
        titles=titles,
        lesson_titles=lessons,
        spotlight=spotlight,
    )


# --- the class stream -------------------------------------------------------------------------


class StateReader:
    """Reads what a class's stream shows (classroom.feed.ReadState), in a worker thread. `live`
    reads the live-class tools' part (classroom.live.live, handed in: that module builds on
    this one)."""

    def __init__(
        self,
        people: PeopleStore,
        sweeps: SweepStore,
        classroom: ClassroomStore,
        content_dir: Path,
        live: Callable[[ClassroomStore, str], Live],
    ) -> None:
        self.people, self.sweeps, self.classroom = people, sweeps, classroom
        self.live = live
        self.store = sweeps.runs
        self.content_dir = content_dir
        # The presentation as last read, and as shown: lesson titles and names are read only
        # when it changes.
        self._shown: dict[str, tuple[Presentation | None, PresentationOut | None]] = {}

    def _presentation(self, class_id: str, shown: Presentation | None) -> PresentationOut | None:
        cached = self._shown.get(class_id)
        if cached is not None and cached[0] == shown:
            return cached[1]
        out = presentation_out(self.people, self.content_dir, shown)
        self._shown[class_id] = (shown, out)
        return out

    def __call__(self, class_id: str, after_seq: int, read_sweep: bool) -> ClassState:
        klass = self.people.get_class(class_id)
        if klass is None:
            raise NotFound(NO_CLASS(class_id=class_id))
        shown = self.classroom.presentation(class_id)
        events = []
        sweep = None
        if shown is not None and shown.run_id is not None:
            events = self.store.events_after(shown.run_id, after_seq)
        if shown is not None and shown.sweep_id is not None and read_sweep:
            found = self.sweeps.get_sweep(shown.sweep_id)
            sweep = sweep_out(self.sweeps, found) if found else None
        return ClassState(
            class_=people_service.class_out(self.people, self.store, klass),
            presentation=self._presentation(class_id, shown),
            ended=klass.ended_at is not None,
            run_events=events,
            sweep=sweep,
            student_ids=frozenset(s.id for s in self.people.students_of(class_id)),
            live=self.live(self.classroom, class_id),
        )


# --- progress ---------------------------------------------------------------------------------


def progress(classroom: ClassroomStore, person_id: str) -> Progress:
    where = classroom.whereabouts([person_id]).get(person_id)
    return Progress(read=classroom.lessons_read(person_id), current=where.lesson if where else None)
