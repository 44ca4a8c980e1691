"""The classroom: an instructor's view of a class (roster, queue, pause, present, board, CSV,
assignments and the gradebook), the class stream every student follows, and each person's
lessons read and assigned exercises."""

from collections.abc import AsyncIterator
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Depends, Response
from fastapi.sse import EventSourceResponse, ServerSentEvent

from c10klab.api.content import LangQuery
from c10klab.api.deps import (
    ClassroomDep,
    HubDep,
    PeopleDep,
    PersonDep,
    SettingsDep,
    StoreDep,
    SweepsDep,
    VariantsDep,
)
from c10klab.classroom import gradebook, live, service
from c10klab.classroom.board import build_board
from c10klab.classroom.export import class_csv
from c10klab.classroom.schemas import (
    AnnouncementOut,
    AnnouncementRequest,
    AnswerRequest,
    AssignmentOut,
    AssignRequest,
    Board,
    ClassQueue,
    ClassStreamEvent,
    CurrentLesson,
    Gradebook,
    HandOut,
    HandRequest,
    LessonQuestions,
    Live,
    PresentationOut,
    PresentRequest,
    Progress,
    RosterEntry,
    TimerOut,
    TimerRequest,
)
from c10klab.classroom.store import ClassroomStore
from c10klab.config import Settings
from c10klab.errors import Forbidden, NotFound, Phrase
from c10klab.people import service as people_service
from c10klab.people.access import STAFF, member_class, taught_class
from c10klab.people.schemas import ClassOut, PersonalCode
from c10klab.sse import stream_doc

SOLO_NO_CLASSES = Phrase(
    "solo-no-classes",
    "this course runs in solo mode: there are no classes, and your progress is kept in your "
    "browser (start it with C10K_MODE=classroom to host a class)",
)
STUDENTS_ONLY = Phrase(
    "students-only", "only a student of the class raises a hand or answers its questions"
)
NO_HAND_UP = Phrase("no-hand-up", "{student_id!r} has no hand up in this class")
NOT_ASSIGNED = Phrase("not-assigned", "the exercise {exercise!r} is not assigned to this class")
NO_CLASS_RESULTS = Phrase(
    "no-class-results", "only a student of a class has results to export; yours are in History"
)

router = APIRouter(tags=["classroom"])


def require_classroom(settings: SettingsDep) -> None:
    if settings.mode != "classroom":
        raise NotFound(SOLO_NO_CLASSES())


classes = APIRouter(prefix="/classes/{class_id}", dependencies=[Depends(require_classroom)])


@classes.get("")
def get_class(class_id: str, person: PersonDep, people: PeopleDep, store: StoreDep) -> ClassOut:
    klass = member_class(people, person, class_id)
    return people_service.class_out(people, store, klass, person)


@classes.get("/roster")
def roster(
    class_id: str,
    person: PersonDep,
    people: PeopleDep,
    store: StoreDep,
    classroom: ClassroomDep,
    settings: SettingsDep,
    lang: LangQuery = "en",
) -> list[RosterEntry]:
    """The class's students; where a hand is up, its lesson and experiment titled in `lang`."""
    taught_class(people, person, class_id, STAFF)
    return service.roster(people, store, classroom, settings.content_dir, class_id, lang)


@classes.delete("/students/{student_id}", status_code=204)
def remove_student(
    class_id: str, student_id: str, person: PersonDep, people: PeopleDep, store: StoreDep
) -> None:
    """Remove a student: their sessions end (their browser is told why), their waiting runs are
    cancelled, their results stay for the board and the CSV, and neither they nor anyone else
    joins under their name again until the instructor lets them back in."""
    service.remove_student(people, store, taught_class(people, person, class_id), student_id)


@classes.post("/students/{student_id}/personal-code")
def new_personal_code(
    class_id: str, student_id: str, person: PersonDep, people: PeopleDep
) -> PersonalCode:
    """A new personal code for a student who lost theirs (their old one stops working): with
    it and the join code they come back on any device."""
    klass = taught_class(people, person, class_id, STAFF)
    return PersonalCode(personal_code=people_service.new_personal_code(people, klass, student_id))


@classes.post("/students/{student_id}/readmit", status_code=204)
def readmit_student(class_id: str, student_id: str, person: PersonDep, people: PeopleDep) -> None:
    """Let a removed student back in: they come back with their personal code (or a new one)."""
    people_service.readmit(people, taught_class(people, person, class_id), student_id)


@classes.get("/queue")
def class_queue(
    class_id: str, person: PersonDep, people: PeopleDep, sweeps: SweepsDep
) -> ClassQueue:
    taught_class(people, person, class_id, STAFF)
    runs = service.queue(people, sweeps, class_id)
    return ClassQueue(paused=sweeps.runs.is_held(class_id), runs=runs)


@classes.post("/pause")
def pause(class_id: str, person: PersonDep, people: PeopleDep, store: StoreDep) -> ClassOut:
    """Hold the class's waiting runs (a running one finishes): hands off while I explain."""
    klass = taught_class(people, person, class_id)
    store.hold_class(class_id)
    return people_service.class_out(people, store, klass, person)


@classes.post("/resume")
def resume(class_id: str, person: PersonDep, people: PeopleDep, store: StoreDep) -> ClassOut:
    klass = taught_class(people, person, class_id)
    store.release_class(class_id)
    return people_service.class_out(people, store, klass, person)


@classes.get(
    "/runs.csv",
    response_class=Response,
    responses={200: {"content": {"text/csv": {"schema": {"type": "string"}}}}},
)
def export_csv(
    class_id: str, person: PersonDep, people: PeopleDep, sweeps: SweepsDep, settings: SettingsDep
) -> Response:
    klass = taught_class(people, person, class_id, STAFF)
    text = class_csv(settings.content_dir, people, sweeps, class_id)
    return Response(
        content=text,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": attachment(f"{klass.name}-runs.csv")},
    )


def attachment(name: str) -> str:
    """A Content-Disposition for a download named after `name` (RFC 6266): `filename` in
    ASCII for old clients, `filename*` in UTF-8 (RFC 5987) for the name as written, since a
    header must be Latin-1 and a class may be called "网络编程 一班"."""
    stem, dot, extension = name.rpartition(".")
    kept = "".join(ch if ch.isalnum() else "-" for ch in stem).strip("-") or "class"
    plain = "".join(ch if ch.isascii() else "-" for ch in kept).strip("-") or "class"
    return (
        f'attachment; filename="{plain}{dot}{extension}"; '
        f"filename*=UTF-8''{quote(kept + dot + extension)}"
    )


@classes.put("/presentation")
def present(
    class_id: str,
    body: PresentRequest,
    person: PersonDep,
    people: PeopleDep,
    sweeps: SweepsDep,
    classroom: ClassroomDep,
    settings: SettingsDep,
) -> PresentationOut:
    """Show an experiment, a run or a sweep to the whole class (in place of what was shown)."""
    klass = taught_class(people, person, class_id)
    shown = service.present(settings.content_dir, people, sweeps, classroom, klass, body)
    out = service.presentation_out(people, settings.content_dir, shown)
    assert out is not None
    return out


@classes.get("/presentation")
def presentation(
    class_id: str,
    person: PersonDep,
    people: PeopleDep,
    classroom: ClassroomDep,
    settings: SettingsDep,
) -> PresentationOut | None:
    """What the class is shown now, or null: for a page that opens after it began."""
    member_class(people, person, class_id)
    shown = classroom.presentation(class_id)
    return service.presentation_out(people, settings.content_dir, shown)


@classes.delete("/presentation", status_code=204)
def stop_presenting(
    class_id: str, person: PersonDep, people: PeopleDep, classroom: ClassroomDep
) -> None:
    taught_class(people, person, class_id)
    classroom.stop_presenting(class_id)


def member_class_id(class_id: str, person: PersonDep, people: PeopleDep) -> str:
    """member_class as a dependency: a stream's 404 or 403 must come before the stream starts."""
    member_class(people, person, class_id)
    return class_id


@classes.get(
    "/events",
    response_class=EventSourceResponse,
    responses=stream_doc(ClassStreamEvent, "the class and what it is shown, live"),
)
async def class_events(
    class_id: Annotated[str, Depends(member_class_id)], person: PersonDep, hub: HubDep
) -> AsyncIterator[ServerSentEvent]:
    """SSE: the class and what it is shown, live; the open stream is the student's presence."""
    async for event in hub.stream(class_id, person):
        yield event


@classes.get("/board")
def board(
    class_id: str,
    person: PersonDep,
    people: PeopleDep,
    sweeps: SweepsDep,
    settings: SettingsDep,
    lang: LangQuery = "en",
) -> Board:
    member_class(people, person, class_id)
    return build_board(settings.content_dir, people, sweeps, class_id, lang)


# --- live-class tools ----------------------------------------------------------------------


def _student_of(people: PeopleDep, person: PersonDep, class_id: str) -> None:
    """The class's own students only (403 for its instructor: a hand or an answer is a
    student's; another class's student gets member_class's 403)."""
    member_class(people, person, class_id)
    if person.kind != "student":
        raise Forbidden(STUDENTS_ONLY())


@classes.get("/live")
def get_live(class_id: str, person: PersonDep, people: PeopleDep, classroom: ClassroomDep) -> Live:
    """The timer, the newest announcements and the questions revealed: what the class stream's
    `live` event carries, for a page that is not following it."""
    member_class(people, person, class_id)
    return live.live(classroom, class_id)


@classes.get("/hand")
def my_hand(
    class_id: str,
    person: PersonDep,
    people: PeopleDep,
    classroom: ClassroomDep,
    settings: SettingsDep,
    lang: LangQuery = "en",
) -> HandOut | None:
    """A student's own hand, if it is up."""
    _student_of(people, person, class_id)
    hand = classroom.hands(class_id).get(person.id)
    if hand is None:
        return None
    return service.hand_out(service.course_titles(settings.content_dir, lang), hand)


@classes.put("/hand")
def raise_hand(
    class_id: str,
    body: HandRequest,
    person: PersonDep,
    people: PeopleDep,
    classroom: ClassroomDep,
    settings: SettingsDep,
    lang: LangQuery = "en",
) -> HandOut:
    """ "I'm stuck": the student's hand goes up on the instructor's roster, with where they
    are (raised again: moved there)."""
    _student_of(people, person, class_id)
    return live.raise_hand(classroom, settings.content_dir, class_id, person, body, lang)


@classes.delete("/hand", status_code=204)
def lower_my_hand(
    class_id: str, person: PersonDep, people: PeopleDep, classroom: ClassroomDep
) -> None:
    _student_of(people, person, class_id)
    classroom.lower_hand(class_id, person.id)


@classes.delete("/hands/{student_id}", status_code=204)
def lower_hand(
    class_id: str, student_id: str, person: PersonDep, people: PeopleDep, classroom: ClassroomDep
) -> None:
    """The instructor lowers a student's hand (helped, or it was a mistake)."""
    taught_class(people, person, class_id, STAFF)
    if not classroom.lower_hand(class_id, student_id):
        raise NotFound(NO_HAND_UP(student_id=student_id))


@classes.put("/timer")
def start_timer(
    class_id: str, body: TimerRequest, person: PersonDep, people: PeopleDep, classroom: ClassroomDep
) -> TimerOut:
    """A timer every student sees count down (again: started over)."""
    taught_class(people, person, class_id)
    return live.start_timer(classroom, class_id, body)


@classes.delete("/timer", status_code=204)
def stop_timer(
    class_id: str, person: PersonDep, people: PeopleDep, classroom: ClassroomDep
) -> None:
    taught_class(people, person, class_id)
    classroom.stop_timer(class_id)


@classes.post("/announcements", status_code=201)
def announce(
    class_id: str,
    body: AnnouncementRequest,
    person: PersonDep,
    people: PeopleDep,
    classroom: ClassroomDep,
) -> AnnouncementOut:
    """A short note to every student of the class, shown at once on whatever page they are."""
    taught_class(people, person, class_id)
    note = classroom.announce_to_class(class_id, body.text)
    return AnnouncementOut(id=note.id, text=note.text, at=note.at)


@classes.get("/questions/{lesson}")
def questions(
    class_id: str,
    lesson: str,
    person: PersonDep,
    people: PeopleDep,
    classroom: ClassroomDep,
    settings: SettingsDep,
) -> LessonQuestions:
    """A lesson's Check yourself questions in the class: which are revealed; the instructor
    sees every student's answer, a student their own."""
    member_class(people, person, class_id)
    return live.lesson_questions(classroom, people, settings.content_dir, class_id, lesson, person)


@classes.put("/questions/{lesson}/{question}/answer")
def answer_question(
    class_id: str,
    lesson: str,
    question: int,
    body: AnswerRequest,
    person: PersonDep,
    people: PeopleDep,
    classroom: ClassroomDep,
    settings: SettingsDep,
) -> LessonQuestions:
    """A student's answer to a question (again: replaced), before or after it is revealed."""
    _student_of(people, person, class_id)
    live.require_question(settings.content_dir, lesson, question)
    classroom.answer_question(class_id, lesson, question, person.id, body.answer)
    return live.lesson_questions(classroom, people, settings.content_dir, class_id, lesson, person)


def _reveal(
    class_id: str,
    lesson: str,
    question: int,
    revealed: bool,
    person: PersonDep,
    people: PeopleDep,
    classroom: ClassroomDep,
    settings: SettingsDep,
) -> LessonQuestions:
    taught_class(people, person, class_id)
    live.require_question(settings.content_dir, lesson, question)
    classroom.reveal(class_id, lesson, question, revealed)
    return live.lesson_questions(classroom, people, settings.content_dir, class_id, lesson, person)


@classes.put("/questions/{lesson}/{question}/revealed")
def reveal_question(
    class_id: str,
    lesson: str,
    question: int,
    person: PersonDep,
    people: PeopleDep,
    classroom: ClassroomDep,
    settings: SettingsDep,
) -> LessonQuestions:
    """Show the lesson's answer to this question to the class (their pages show it at once)."""
    return _reveal(class_id, lesson, question, True, person, people, classroom, settings)


@classes.delete("/questions/{lesson}/{question}/revealed")
def hide_question(
    class_id: str,
    lesson: str,
    question: int,
    person: PersonDep,
    people: PeopleDep,
    classroom: ClassroomDep,
    settings: SettingsDep,
) -> LessonQuestions:
    return _reveal(class_id, lesson, question, False, person, people, classroom, settings)


# --- assignments and the gradebook ---------------------------------------------------------


def grader(settings: SettingsDep, store: StoreDep, variants: VariantsDep) -> gradebook.Grader:
    return gradebook.Grader(settings.content_dir, store, variants)


GraderDep = Annotated[gradebook.Grader, Depends(grader)]


@classes.get("/assignments")
def assignments(
    class_id: str,
    person: PersonDep,
    people: PeopleDep,
    classroom: ClassroomDep,
    grading: GraderDep,
) -> list[AssignmentOut]:
    """The exercises assigned to the class; a student sees their own answers to each."""
    member_class(people, person, class_id)
    student = person.id if person.kind == "student" else None
    return gradebook.assignments_for(classroom, grading, class_id, student)


@classes.put("/assignments/{exercise}")
def assign(
    class_id: str,
    exercise: str,
    body: AssignRequest,
    person: PersonDep,
    people: PeopleDep,
    classroom: ClassroomDep,
    settings: SettingsDep,
) -> AssignmentOut:
    """Assign an exercise to the class, with an optional due time (again: change it)."""
    taught_class(people, person, class_id)
    return gradebook.assign(classroom, settings.content_dir, class_id, exercise, body)


@classes.delete("/assignments/{exercise}", status_code=204)
def unassign(
    class_id: str, exercise: str, person: PersonDep, people: PeopleDep, classroom: ClassroomDep
) -> None:
    """Take an exercise off the class's list; the answers to it stay."""
    taught_class(people, person, class_id)
    if not classroom.unassign(class_id, exercise):
        raise NotFound(NOT_ASSIGNED(exercise=exercise))


@classes.get("/gradebook")
def get_gradebook(
    class_id: str,
    person: PersonDep,
    people: PeopleDep,
    classroom: ClassroomDep,
    grading: GraderDep,
) -> Gradebook:
    """Students × assigned exercises: passed or not, attempts, the newest answer."""
    taught_class(people, person, class_id, STAFF)
    return gradebook.gradebook(people, classroom, grading, class_id)


@classes.get(
    "/gradebook.csv",
    response_class=Response,
    responses={200: {"content": {"text/csv": {"schema": {"type": "string"}}}}},
)
def gradebook_csv(
    class_id: str,
    person: PersonDep,
    people: PeopleDep,
    classroom: ClassroomDep,
    grading: GraderDep,
) -> Response:
    klass = taught_class(people, person, class_id, STAFF)
    book = gradebook.gradebook(people, classroom, grading, class_id)
    return Response(
        content=gradebook.gradebook_csv(book),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": attachment(f"{klass.name}-gradebook.csv")},
    )


progress = APIRouter(prefix="/progress", dependencies=[Depends(require_classroom)])


def _check_lesson(settings: Settings, slug: str) -> None:
    service.require_lesson(settings.content_dir, slug)


@progress.get("")
def get_progress(person: PersonDep, classroom: ClassroomDep) -> Progress:
    return service.progress(classroom, person.id)


@progress.get(
    "/results.csv",
    response_class=Response,
    responses={200: {"content": {"text/csv": {"schema": {"type": "string"}}}}},
)
def my_results_csv(
    person: PersonDep, people: PeopleDep, sweeps: SweepsDep, settings: SettingsDep
) -> Response:
    """A student's own runs in their class, as the class's CSV has them: theirs to keep after
    the class ends."""
    if person.class_id is None:
        raise NotFound(NO_CLASS_RESULTS())
    text = class_csv(settings.content_dir, people, sweeps, person.class_id, owner_id=person.id)
    return Response(
        content=text,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": attachment(f"{person.name}-results.csv")},
    )


@progress.put("/current")
def set_current(
    body: CurrentLesson, person: PersonDep, classroom: ClassroomDep, settings: SettingsDep
) -> Progress:
    """Where the person is now: the instructor's roster shows it."""
    _check_lesson(settings, body.lesson)
    classroom.set_lesson(person.id, body.lesson)
    return service.progress(classroom, person.id)


def _mark(
    slug: str, read: bool, person_id: str, classroom: ClassroomStore, settings: Settings
) -> Progress:
    _check_lesson(settings, slug)
    classroom.mark_read(person_id, slug, read=read)
    return service.progress(classroom, person_id)


@progress.put("/read/{slug}")
def mark_read(
    slug: str, person: PersonDep, classroom: ClassroomDep, settings: SettingsDep
) -> Progress:
    return _mark(slug, True, person.id, classroom, settings)


@progress.delete("/read/{slug}")
def mark_unread(
    slug: str, person: PersonDep, classroom: ClassroomDep, settings: SettingsDep
) -> Progress:
    return _mark(slug, False, person.id, classroom, settings)


router.include_router(classes)
router.include_router(progress)
