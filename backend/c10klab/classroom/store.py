"""The classroom's queries: who is online and where, which lessons each person has read, what
each class is being shown, the exercises assigned to it, and the tools of a live class (hands,
the timer, announcements, answers to the lessons' questions). Its tables are declared in
tables.py."""

import secrets
from dataclasses import dataclass

from sqlalchemy import case, delete, func, select, update

from c10klab.classroom.tables import (
    announcements,
    assignments,
    class_timers,
    hands,
    lessons_read,
    presence,
    presentations,
    question_answers,
    revealed_questions,
)
from c10klab.db import Database, from_row, now_iso, unix_now
from c10klab.news import announce, class_topic

# A stream that stopped being heard from (the API process died with it open) stops counting
# after this long: the feed touches its subscribers every PRESENCE_TOUCH_S seconds.
ONLINE_WITHIN_S = 15.0


@dataclass(frozen=True)
class Whereabouts:
    """A person's presence: online now, when last heard from, the lesson they are on."""

    online: bool
    seen_at: str | None
    lesson: str | None


@dataclass(frozen=True)
class Presentation:
    lesson: str
    experiment: str | None
    title: str
    run_id: str | None
    sweep_id: str | None
    spotlight_id: str | None  # the student whose run or sweep is shown, if a student's
    started_at: str


@dataclass(frozen=True)
class Assignment:
    """An exercise set for a class, with its due time (ISO 8601, UTC) if it has one."""

    class_id: str
    exercise: str
    due_at: str | None
    assigned_at: str


@dataclass(frozen=True)
class Hand:
    person_id: str
    lesson: str | None
    experiment: str | None
    raised_at: str


@dataclass(frozen=True)
class Timer:
    label: str
    started_at: str
    ends_at: str


@dataclass(frozen=True)
class Announcement:
    id: str
    text: str
    at: str


@dataclass(frozen=True)
class QuestionAnswer:
    person_id: str
    question: int
    answer: str
    at: str


class ClassroomStore(Database):
    # --- presence ---------------------------------------------------------------------------

    def stream_opened(self, person_id: str) -> None:
        now = unix_now()
        with self.write() as db:
            db.execute(
                self.upsert(
                    presence,
                    {"person_id": person_id, "streams": 1, "seen_unix": now, "seen_at": now_iso()},
                    key=["person_id"],
                    # A stream count left by an API process that died is stale: start over.
                    changes={
                        "streams": case(
                            (presence.c.seen_unix < now - ONLINE_WITHIN_S, 1),
                            else_=presence.c.streams + 1,
                        )
                    },
                )
            )

    def stream_closed(self, person_id: str) -> None:
        with self.write() as db:
            db.execute(
                update(presence)
                .where(presence.c.person_id == person_id)
                .values(
                    # One fewer, never below none (SQLite's MAX(a, b) is not PostgreSQL's).
                    streams=case((presence.c.streams > 0, presence.c.streams - 1), else_=0),
                    seen_unix=unix_now(),
                    seen_at=now_iso(),
                )
            )

    def touch(self, person_ids: list[str]) -> None:
        """Heard from these people's open streams just now (one write for a whole class)."""
        with self.write() as db:
            db.execute(
                update(presence)
                .where(presence.c.person_id.in_(person_ids))
                .values(seen_unix=unix_now(), seen_at=now_iso())
            )

    def set_lesson(self, person_id: str, lesson: str) -> None:
        with self.write() as db:
            db.execute(
                self.upsert(presence, {"person_id": person_id, "lesson": lesson}, key=["person_id"])
            )

    def whereabouts(self, person_ids: list[str]) -> dict[str, Whereabouts]:
        if not person_ids:
            return {}
        since = unix_now() - ONLINE_WITHIN_S
        with self.connect() as db:
            rows = db.execute(select(presence).where(presence.c.person_id.in_(person_ids))).all()
        return {
            r.person_id: Whereabouts(
                online=r.streams > 0 and r.seen_unix >= since,
                seen_at=r.seen_at,
                lesson=r.lesson,
            )
            for r in rows
        }

    # --- lessons read -----------------------------------------------------------------------

    def lessons_read(self, person_id: str) -> list[str]:
        with self.connect() as db:
            read = db.execute(
                select(lessons_read.c.lesson)
                .where(lessons_read.c.person_id == person_id)
                .order_by(lessons_read.c.read_at)
            ).scalars()
            return list(read)

    def count_read(self, person_ids: list[str]) -> dict[str, int]:
        if not person_ids:
            return {}
        with self.connect() as db:
            rows = db.execute(
                select(lessons_read.c.person_id, func.count().label("read"))
                .where(lessons_read.c.person_id.in_(person_ids))
                .group_by(lessons_read.c.person_id)
            ).all()
        return {r.person_id: int(r.read) for r in rows}

    def mark_read(self, person_id: str, lesson: str, read: bool) -> None:
        with self.write() as db:
            if read:
                read_now = {"person_id": person_id, "lesson": lesson, "read_at": now_iso()}
                db.execute(self.insert_ignoring_conflicts(lessons_read, read_now))
            else:
                db.execute(
                    delete(lessons_read).where(
                        lessons_read.c.person_id == person_id, lessons_read.c.lesson == lesson
                    )
                )

    # --- presentations ----------------------------------------------------------------------

    def presentation(self, class_id: str) -> Presentation | None:
        with self.connect() as db:
            row = db.execute(
                select(presentations).where(presentations.c.class_id == class_id)
            ).first()
        return from_row(Presentation, row) if row else None

    def present(self, class_id: str, shown: Presentation) -> None:
        """Show this to the class, in place of whatever it was shown."""
        with self.write() as db:
            db.execute(
                self.upsert(
                    presentations,
                    {
                        "class_id": class_id,
                        "lesson": shown.lesson,
                        "experiment": shown.experiment,
                        "title": shown.title,
                        "run_id": shown.run_id,
                        "sweep_id": shown.sweep_id,
                        "spotlight_id": shown.spotlight_id,
                        "started_at": shown.started_at,
                    },
                    key=["class_id"],
                )
            )
            announce(db, class_topic(class_id))

    def stop_presenting(self, class_id: str) -> None:
        with self.write() as db:
            db.execute(delete(presentations).where(presentations.c.class_id == class_id))
            announce(db, class_topic(class_id))

    # --- assignments ------------------------------------------------------------------------

    def assignments(self, class_id: str) -> list[Assignment]:
        """The class's assigned exercises, in the order they were assigned."""
        query = (
            select(assignments)
            .where(assignments.c.class_id == class_id)
            .order_by(assignments.c.assigned_at, assignments.c.exercise)
        )
        return [from_row(Assignment, row) for row in self.rows(query)]

    def assign(self, class_id: str, exercise: str, due_at: str | None) -> Assignment:
        """Assign an exercise (again: its due time changes, when it was first assigned stays)."""
        with self.write() as db:
            db.execute(
                self.upsert(
                    assignments,
                    {
                        "class_id": class_id,
                        "exercise": exercise,
                        "due_at": due_at,
                        "assigned_at": now_iso(),
                    },
                    key=["class_id", "exercise"],
                    changes={"assigned_at": assignments.c.assigned_at},
                )
            )
            row = db.execute(
                select(assignments).where(
                    assignments.c.class_id == class_id, assignments.c.exercise == exercise
                )
            ).one()
            announce(db, class_topic(class_id))
        return from_row(Assignment, row)

    def unassign(self, class_id: str, exercise: str) -> bool:
        """Take an exercise off the class's list (its answers stay); False if it was not on it."""
        with self.write() as db:
            gone = db.execute(
                delete(assignments).where(
                    assignments.c.class_id == class_id, assignments.c.exercise == exercise
                )
            ).rowcount
            if gone:
                announce(db, class_topic(class_id))
        return bool(gone)

    # --- hands ------------------------------------------------------------------------------

    def raise_hand(
        self, class_id: str, person_id: str, lesson: str | None, experiment: str | None
    ) -> Hand:
        """A raised hand, or the same one moved to where the student is now (raised again)."""
        hand = Hand(person_id, lesson, experiment, now_iso())
        with self.write() as db:
            db.execute(
                self.upsert(
                    hands,
                    {"class_id": class_id, "person_id": person_id, "lesson": lesson,
                     "experiment": experiment, "raised_at": hand.raised_at},
                    key=["class_id", "person_id"],
                )
            )  # fmt: skip
            announce(db, class_topic(class_id))
        return hand

    def lower_hand(self, class_id: str, person_id: str) -> bool:
        with self.write() as db:
            gone = db.execute(
                delete(hands).where(hands.c.class_id == class_id, hands.c.person_id == person_id)
            ).rowcount
            if gone:
                announce(db, class_topic(class_id))
        return bool(gone)

    def hands(self, class_id: str) -> dict[str, Hand]:
        """The class's raised hands, by student, oldest first."""
        rows = self.rows(
            select(hands).where(hands.c.class_id == class_id).order_by(hands.c.raised_at)
        )
        return {r.person_id: from_row(Hand, r) for r in rows}

    # --- the timer --------------------------------------------------------------------------

    def set_timer(self, class_id: str, timer: Timer) -> None:
        with self.write() as db:
            db.execute(
                self.upsert(
                    class_timers,
                    {"class_id": class_id, "label": timer.label, "started_at": timer.started_at,
                     "ends_at": timer.ends_at},
                    key=["class_id"],
                )
            )  # fmt: skip
            announce(db, class_topic(class_id))

    def stop_timer(self, class_id: str) -> None:
        with self.write() as db:
            db.execute(delete(class_timers).where(class_timers.c.class_id == class_id))
            announce(db, class_topic(class_id))

    def timer(self, class_id: str) -> Timer | None:
        row = self.first_row(select(class_timers).where(class_timers.c.class_id == class_id))
        return from_row(Timer, row) if row else None

    # --- announcements ----------------------------------------------------------------------

    def announce_to_class(self, class_id: str, text: str) -> Announcement:
        note = Announcement(secrets.token_hex(8), text, now_iso())
        with self.write() as db:
            db.execute(announcements.insert().values(class_id=class_id, **note.__dict__))
            announce(db, class_topic(class_id))
        return note

    def announcements(self, class_id: str, newest: int) -> list[Announcement]:
        """The class's `newest` announcements, newest first."""
        rows = self.rows(
            select(announcements)
            .where(announcements.c.class_id == class_id)
            .order_by(announcements.c.at.desc(), announcements.c.id)
            .limit(newest)
        )
        return [from_row(Announcement, r) for r in rows]

    # --- the lessons' questions -------------------------------------------------------------

    def answer_question(
        self, class_id: str, lesson: str, question: int, person_id: str, answer: str
    ) -> QuestionAnswer:
        """A student's answer to a question (again: replaced)."""
        saved = QuestionAnswer(person_id, question, answer, now_iso())
        key = {"class_id": class_id, "lesson": lesson, "question": question, "person_id": person_id}
        with self.write() as db:
            db.execute(
                self.upsert(
                    question_answers,
                    key | {"answer": answer, "at": saved.at},
                    key=list(key),
                )
            )
            announce(db, class_topic(class_id))
        return saved

    def answers(self, class_id: str, lesson: str) -> list[QuestionAnswer]:
        """Every answer given in the class to a lesson's questions, by question, oldest first."""
        rows = self.rows(
            select(question_answers)
            .where(question_answers.c.class_id == class_id, question_answers.c.lesson == lesson)
            .order_by(question_answers.c.question, question_answers.c.at)
        )
        return [from_row(QuestionAnswer, r) for r in rows]

    def reveal(self, class_id: str, lesson: str, question: int, revealed: bool) -> None:
        key = {"class_id": class_id, "lesson": lesson, "question": question}
        with self.write() as db:
            if revealed:
                db.execute(
                    self.insert_ignoring_conflicts(revealed_questions, key | {"at": now_iso()})
                )
            else:
                db.execute(
                    delete(revealed_questions).where(
                        *(getattr(revealed_questions.c, k) == v for k, v in key.items())
                    )
                )
            announce(db, class_topic(class_id))

    def revealed(self, class_id: str) -> list[tuple[str, int]]:
        """The class's revealed questions, (lesson, question), in the order revealed."""
        rows = self.rows(
            select(revealed_questions.c.lesson, revealed_questions.c.question)
            .where(revealed_questions.c.class_id == class_id)
            .order_by(revealed_questions.c.at)
        )
        return [(r.lesson, int(r.question)) for r in rows]
