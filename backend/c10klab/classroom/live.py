"""The tools of a live class (issue 26.5): a student's raised hand, the class's timer, the
instructor's announcements, and the lessons' "Check yourself" questions answered in class,
their answers hidden from students until the instructor reveals them."""

from datetime import UTC, datetime, timedelta
from pathlib import Path

from c10klab.classroom.schemas import (
    AnnouncementOut,
    GivenAnswer,
    HandOut,
    HandRequest,
    LessonQuestions,
    Live,
    QuestionOut,
    QuestionRef,
    TimerOut,
    TimerRequest,
)
from c10klab.classroom.service import course_titles, hand_out
from c10klab.classroom.store import ClassroomStore, Timer
from c10klab.content.questions import question_count
from c10klab.content.service import NO_LESSON, find_experiment, load_lessons
from c10klab.errors import InvalidRequest, NotFound, Phrase
from c10klab.languages import Language
from c10klab.people.store import PeopleStore, Person

HAND_WITHOUT_LESSON = Phrase(
    "hand-experiment-without-lesson", "experiment: give the lesson it is in too"
)
NO_QUESTION = Phrase(
    "no-question",
    "{lesson!r} asks {count} questions in Check yourself, numbered 1 to {count}; "
    "there is no question {question}",
)

# The announcements the class stream carries: a late joiner sees the last few, not a log.
SHOWN_ANNOUNCEMENTS = 5


# --- hands ------------------------------------------------------------------------------------


def raise_hand(
    classroom: ClassroomStore,
    content_dir: Path,
    class_id: str,
    student: Person,
    body: HandRequest,
    language: Language = "en",
) -> HandOut:
    """A student's hand up, where they are stuck: a lesson and an experiment of it, if given
    (each must exist: 422 naming it)."""
    if body.experiment is not None and body.lesson is None:
        raise InvalidRequest(HAND_WITHOUT_LESSON())
    if body.lesson is not None:
        try:
            find_experiment(content_dir, body.lesson, body.experiment)
        except NotFound as missing:
            raise InvalidRequest(missing.said) from missing
    hand = classroom.raise_hand(class_id, student.id, body.lesson, body.experiment)
    return hand_out(course_titles(content_dir, language), hand)


# --- the timer and announcements ---------------------------------------------------------------


def start_timer(classroom: ClassroomStore, class_id: str, body: TimerRequest) -> TimerOut:
    now = datetime.now(UTC)
    timer = Timer(
        label=body.label.strip(),
        started_at=now.isoformat(timespec="milliseconds"),
        ends_at=(now + timedelta(minutes=body.minutes)).isoformat(timespec="milliseconds"),
    )
    classroom.set_timer(class_id, timer)
    return TimerOut(label=timer.label, started_at=timer.started_at, ends_at=timer.ends_at)


def live(classroom: ClassroomStore, class_id: str) -> Live:
    """What the class stream shows every student of a live class."""
    timer = classroom.timer(class_id)
    return Live(
        timer=TimerOut(label=timer.label, started_at=timer.started_at, ends_at=timer.ends_at)
        if timer
        else None,
        announcements=[
            AnnouncementOut(id=a.id, text=a.text, at=a.at)
            for a in classroom.announcements(class_id, SHOWN_ANNOUNCEMENTS)
        ],
        revealed=[
            QuestionRef(lesson=lesson, question=n) for lesson, n in classroom.revealed(class_id)
        ],
    )


# --- the lessons' questions -------------------------------------------------------------------


def questions_in(content_dir: Path, lesson: str) -> int:
    """How many questions a lesson's Check yourself asks (404 for no such lesson)."""
    found = next((x for x in load_lessons(content_dir) if x.slug == lesson), None)
    if found is None:
        raise NotFound(NO_LESSON(slug=lesson))
    return question_count(found.markdown, "en")


def require_question(content_dir: Path, lesson: str, question: int) -> None:
    count = questions_in(content_dir, lesson)
    if not 1 <= question <= count:
        raise NotFound(NO_QUESTION(lesson=lesson, count=count, question=question))


def lesson_questions(
    classroom: ClassroomStore,
    people: PeopleStore,
    content_dir: Path,
    class_id: str,
    lesson: str,
    person: Person,
) -> LessonQuestions:
    """A lesson's questions in a class: for the instructor every answer given, by whom; for a
    student their own answers only."""
    count = questions_in(content_dir, lesson)
    revealed = {n for slug, n in classroom.revealed(class_id) if slug == lesson}
    given = classroom.answers(class_id, lesson)
    instructor = person.kind == "instructor"
    names = people.names_of(sorted({a.person_id for a in given})) if instructor else {}
    out = []
    for number in range(1, count + 1):
        here = [a for a in given if a.question == number]
        mine = next((a.answer for a in here if a.person_id == person.id), None)
        out.append(
            QuestionOut(
                question=number,
                revealed=number in revealed,
                mine=None if instructor else mine,
                answers=[
                    GivenAnswer(
                        student_id=a.person_id,
                        name=names.get(a.person_id, a.person_id),
                        answer=a.answer,
                        at=a.at,
                    )
                    for a in here
                ]
                if instructor
                else [],
            )
        )
    return LessonQuestions(lesson=lesson, questions=out)


def revealed_in(classroom: ClassroomStore, class_id: str, lesson: str) -> frozenset[int]:
    return frozenset(n for slug, n in classroom.revealed(class_id) if slug == lesson)
