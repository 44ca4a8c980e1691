"""The people domain's queries: instructors and students, classes, sessions, login attempts and
the site's signing secret. Its tables are declared in tables.py."""

import secrets
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from sqlalchemy import ColumnElement, Row, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from c10klab.db import Database, from_row, now_iso, unix_now
from c10klab.news import announce, class_topic
from c10klab.people.tables import (
    class_staff,
    classes,
    login_attempts,
    people,
    sessions,
    site_secrets,
)

PersonKind = Literal["solo", "instructor", "student"]
# Who teaches a class: its own instructor, and the staff they add beside them.
StaffRole = Literal["owner", "co-teacher", "assistant"]


@dataclass(frozen=True)
class Person:
    id: str
    kind: PersonKind
    name: str
    class_id: str | None = None  # a student's class
    browser: str | None = None  # solo mode: which browser asks (its history is its own)
    # A student whose class ended: they may read their results, and change nothing, until then.
    read_only_until: str | None = None


# Solo mode's one implicit person: owns every run, may see and cancel everything.
SOLO = Person(id="solo", kind="solo", name="you")


@dataclass(frozen=True)
class Class:
    id: str
    name: str
    join_code: str
    instructor_id: str
    created_at: str
    ended_at: str | None
    ends_at: str | None = None  # when it ends by itself, if the instructor said
    results_days: int = 7  # how long after it ends its students may read their results


@dataclass(frozen=True)
class Student:
    id: str
    name: str
    joined_at: str
    removed_at: str | None = None


@dataclass(frozen=True)
class SessionOwner:
    """Whose session a cookie is, with what decides whether it still lets them in."""

    person: Person
    removed_at: str | None
    klass: Class | None  # a student's class


class NameTaken(Exception):
    """An instructor, or a student of the same class, already has this name."""


def name_key(name: str) -> str:
    """Names are unique regardless of case and surrounding space ("Ana" = " ana ")."""
    return " ".join(name.split()).casefold()


# The class's columns in a row that has the person's too (session_owner).
CLASS_PREFIX = "of_class_"


def _student_of(class_id: str, person_id: str) -> tuple[ColumnElement[bool], ...]:
    """Where a row is this student of this class (a person id alone could be anyone's)."""
    return (people.c.id == person_id, people.c.class_id == class_id, people.c.kind == "student")


def _person(row: Row[Any]) -> Person:
    return Person(id=row.id, kind=row.kind, name=row.name, class_id=row.class_id)


class PeopleStore(Database):
    # --- people -------------------------------------------------------------------------------

    def add_person(
        self,
        kind: Literal["instructor", "student"],
        name: str,
        class_id: str | None = None,
        password_hash: str | None = None,
        personal_code_hash: str | None = None,
    ) -> Person:
        person_id = secrets.token_hex(16)
        try:
            with self.write() as db:
                db.execute(
                    people.insert().values(
                        id=person_id,
                        kind=kind,
                        name=name,
                        name_key=name_key(name),
                        class_id=class_id,
                        password_hash=password_hash,
                        personal_code_hash=personal_code_hash,
                        created_at=now_iso(),
                    )
                )
                if class_id is not None:  # its stream counts one more student
                    announce(db, class_topic(class_id))
        except IntegrityError as taken:
            raise NameTaken(name) from taken
        return Person(id=person_id, kind=kind, name=name, class_id=class_id)

    def instructor_login(self, name: str) -> tuple[Person, str] | None:
        """An instructor and their password hash, by name."""
        row = self.first_row(
            select(people).where(
                people.c.kind == "instructor",
                people.c.name_key == name_key(name),
                people.c.removed_at.is_(None),
            )
        )
        return (_person(row), str(row.password_hash)) if row else None

    def set_password_hash(self, person_id: str, password_hash: str) -> None:
        with self.write() as db:
            db.execute(
                update(people).where(people.c.id == person_id).values(password_hash=password_hash)
            )

    def instructors(self) -> list[Person]:
        rows = self.rows(
            select(people)
            .where(people.c.kind == "instructor", people.c.removed_at.is_(None))
            .order_by(people.c.name_key)
        )
        return [_person(r) for r in rows]

    # --- classes ------------------------------------------------------------------------------

    def add_class(
        self,
        name: str,
        instructor_id: str,
        join_code: str,
        ends_at: str | None = None,
        results_days: int = 7,
    ) -> Class | None:
        """A new class; None if another class has this join code already."""
        new = Class(
            secrets.token_hex(8),
            name,
            join_code,
            instructor_id,
            now_iso(),
            None,
            ends_at,
            results_days,
        )
        try:
            with self.write() as db:
                db.execute(classes.insert().values(**asdict(new)))  # a Class is its row
        except IntegrityError:
            return None
        return new

    def classes_due_to_end(self) -> list[Class]:
        """Classes still open whose planned end has come."""
        rows = self.rows(
            select(classes).where(
                classes.c.ended_at.is_(None),
                classes.c.ends_at.is_not(None),
                classes.c.ends_at <= now_iso(),
            )
        )
        return [from_row(Class, r) for r in rows]

    def students_of(self, class_id: str, removed: bool = False) -> list[Student]:
        """The class's students who were not removed (or those who were), in joining order."""
        gone = people.c.removed_at.is_not(None) if removed else people.c.removed_at.is_(None)
        with self.connect() as db:
            rows = db.execute(
                select(people.c.id, people.c.name, people.c.created_at, people.c.removed_at)
                .where(people.c.kind == "student", people.c.class_id == class_id, gone)
                # Joining times are to the millisecond; two students who join in the same one
                # come in id order (PostgreSQL has no rowid, SQLite's insertion order).
                .order_by(people.c.created_at, people.c.id)
            ).all()
        return [Student(r.id, r.name, r.created_at, r.removed_at) for r in rows]

    def student_named(self, class_id: str, name: str) -> Student | None:
        """The class's student with this name (compared as name_key does), present first,
        else the latest removed one."""
        row = self.first_row(
            select(people.c.id, people.c.name, people.c.created_at, people.c.removed_at)
            .where(
                people.c.kind == "student",
                people.c.class_id == class_id,
                people.c.name_key == name_key(name),
            )
            .order_by(people.c.removed_at.is_not(None), people.c.removed_at.desc())
        )
        return Student(row.id, row.name, row.created_at, row.removed_at) if row else None

    def student_by_code(self, class_id: str, code_hash: str) -> Student | None:
        """The class's student (removed or not) whose personal code this is."""
        row = self.first_row(
            select(people.c.id, people.c.name, people.c.created_at, people.c.removed_at).where(
                people.c.kind == "student",
                people.c.class_id == class_id,
                people.c.personal_code_hash == code_hash,
            )
        )
        return Student(row.id, row.name, row.created_at, row.removed_at) if row else None

    def get_person(self, person_id: str) -> Person | None:
        row = self.first_row(select(people).where(people.c.id == person_id))
        return _person(row) if row else None

    def set_personal_code(self, class_id: str, person_id: str, code_hash: str) -> bool:
        """A new personal code for a student of the class (the old one stops working); False
        if there is no such student."""
        with self.write() as db:
            changed = db.execute(
                update(people)
                .where(*_student_of(class_id, person_id))
                .values(personal_code_hash=code_hash)
            )
        return changed.rowcount == 1

    def readmit_student(self, class_id: str, person_id: str) -> bool:
        """Let a removed student back into their class; False if there is no such removed
        student. NameTaken if someone present has their name now."""
        try:
            with self.write() as db:
                changed = db.execute(
                    update(people)
                    .where(*_student_of(class_id, person_id), people.c.removed_at.is_not(None))
                    .values(removed_at=None)
                )
                if changed.rowcount == 1:
                    announce(db, class_topic(class_id))
        except IntegrityError as taken:
            raise NameTaken(person_id) from taken
        return changed.rowcount == 1

    def names_of(self, person_ids: list[str]) -> dict[str, str]:
        """Names by id, removed people included (their results keep their name)."""
        if not person_ids:
            return {}
        with self.connect() as db:
            rows = db.execute(
                select(people.c.id, people.c.name).where(people.c.id.in_(person_ids))
            ).all()
        return {r.id: r.name for r in rows}

    def remove_student(self, class_id: str, person_id: str) -> bool:
        """Remove a student from their class: their sessions end; the person stays (removed),
        so that their results keep a name and their name is not free for someone else, until
        the instructor lets them back in. False if there is no such student in the class."""
        with self.write() as db:
            removed = db.execute(
                update(people)
                .where(*_student_of(class_id, person_id), people.c.removed_at.is_(None))
                .values(removed_at=now_iso())
            )
            if removed.rowcount != 1:
                return False  # not a student of this class: nothing of theirs may change
            # Their sessions stay, refused (people/service.py): the next request from their
            # browser learns why it was signed out.
            announce(db, class_topic(class_id))  # their stream is closed
        return True

    def end_class(self, class_id: str) -> Class | None:
        """End a class (once: ending it again keeps the first time); None if there is none."""
        with self.write() as db:
            db.execute(
                update(classes)
                .where(classes.c.id == class_id, classes.c.ended_at.is_(None))
                .values(ended_at=now_iso())
            )
            announce(db, class_topic(class_id))
            row = db.execute(select(classes).where(classes.c.id == class_id)).first()
        return from_row(Class, row) if row else None

    def class_by_code(self, join_code: str) -> Class | None:
        row = self.first_row(select(classes).where(classes.c.join_code == join_code))
        return from_row(Class, row) if row else None

    def set_results_days(self, class_id: str, days: int) -> Class | None:
        with self.write() as db:
            db.execute(update(classes).where(classes.c.id == class_id).values(results_days=days))
            announce(db, class_topic(class_id))
        return self.get_class(class_id)

    def get_class(self, class_id: str) -> Class | None:
        row = self.first_row(select(classes).where(classes.c.id == class_id))
        return from_row(Class, row) if row else None

    def classes_of(self, instructor_id: str) -> list[Class]:
        """The classes an instructor teaches, their own and those they are staff of, newest
        first."""
        staffed = select(class_staff.c.class_id).where(class_staff.c.person_id == instructor_id)
        rows = self.rows(
            select(classes)
            .where(or_(classes.c.instructor_id == instructor_id, classes.c.id.in_(staffed)))
            .order_by(classes.c.created_at.desc())
        )
        return [from_row(Class, r) for r in rows]

    # --- a class's staff ----------------------------------------------------------------------

    def staff_role(self, klass: Class, person_id: str) -> StaffRole | None:
        """An instructor's role in a class: its own, co-teacher, assistant, or None."""
        if klass.instructor_id == person_id:
            return "owner"
        role = self.first_row(
            select(class_staff.c.role).where(
                class_staff.c.class_id == klass.id, class_staff.c.person_id == person_id
            )
        )
        return role.role if role else None

    def set_staff(self, class_id: str, person_id: str, role: StaffRole) -> None:
        with self.write() as db:
            db.execute(
                self.upsert(
                    class_staff,
                    {"class_id": class_id, "person_id": person_id, "role": role,
                     "added_at": now_iso()},
                    key=["class_id", "person_id"],
                    changes={"role": role},
                )
            )  # fmt: skip

    def remove_staff(self, class_id: str, person_id: str) -> bool:
        with self.write() as db:
            gone = db.execute(
                delete(class_staff).where(
                    class_staff.c.class_id == class_id, class_staff.c.person_id == person_id
                )
            ).rowcount
        return bool(gone)

    def staff_of(self, class_id: str) -> list[tuple[Person, StaffRole]]:
        """The class's staff beside its own instructor, in the order they were added."""
        rows = self.rows(
            select(people, class_staff.c.role)
            .join(class_staff, class_staff.c.person_id == people.c.id)
            .where(class_staff.c.class_id == class_id)
            .order_by(class_staff.c.added_at)
        )
        return [(_person(r), r.role) for r in rows]

    def count_students(self, class_id: str) -> int:
        with self.connect() as db:
            count = db.execute(
                select(func.count())
                .select_from(people)
                .where(people.c.class_id == class_id, people.c.removed_at.is_(None))
            ).scalar_one()
        return int(count)

    # --- sessions -----------------------------------------------------------------------------

    def add_session(self, token_hash: str, person_id: str, lifetime_s: float) -> None:
        with self.write() as db:
            db.execute(delete(sessions).where(sessions.c.expires_unix < unix_now()))
            db.execute(
                sessions.insert().values(
                    token_hash=token_hash,
                    person_id=person_id,
                    created_at=now_iso(),
                    expires_unix=unix_now() + lifetime_s,
                )
            )

    def session_owner(self, token_hash: str) -> SessionOwner | None:
        """Whose unexpired session this is (removed people too: they are told why they may
        not come in), with their class; None if there is none."""
        # One read on every request: the person and their class side by side, the class's
        # columns under a prefix (both tables have an id, a name and a created_at).
        of_class = [column.label(f"{CLASS_PREFIX}{column.name}") for column in classes.c]
        with self.connect() as db:
            row = db.execute(
                select(people, *of_class)
                .select_from(sessions)
                .join(people, people.c.id == sessions.c.person_id)
                .outerjoin(classes, classes.c.id == people.c.class_id)
                .where(sessions.c.token_hash == token_hash, sessions.c.expires_unix > unix_now())
            ).first()
        if row is None:
            return None
        found = row._mapping
        klass = (
            Class(**{f.name: found[f"{CLASS_PREFIX}{f.name}"] for f in fields(Class)})
            if row.class_id
            else None
        )
        return SessionOwner(_person(row), row.removed_at, klass)

    def end_sessions_of(self, person_id: str) -> None:
        with self.write() as db:
            db.execute(delete(sessions).where(sessions.c.person_id == person_id))

    def drop_session(self, token_hash: str) -> None:
        with self.write() as db:
            db.execute(delete(sessions).where(sessions.c.token_hash == token_hash))

    # --- attempts counted against a limit (failed logins, joins) --------------------------------

    def attempts(self, keys: list[str], window_s: float) -> dict[str, list[float]]:
        """Per key, the times of its attempts within the window, oldest first."""
        since = unix_now() - window_s
        times: dict[str, list[float]] = {key: [] for key in keys}
        with self.connect() as db:
            rows = db.execute(
                select(login_attempts.c.key, login_attempts.c.at_unix)
                .where(login_attempts.c.key.in_(keys), login_attempts.c.at_unix > since)
                .order_by(login_attempts.c.at_unix)
            ).all()
        for r in rows:
            times[r.key].append(r.at_unix)
        return times

    def record_attempt(self, keys: list[str], window_s: float) -> None:
        """One attempt more for each key; those older than the window are gone (every limit
        counts over the same window, config.Settings.login_window_s)."""
        now = unix_now()
        with self.write() as db:
            db.execute(delete(login_attempts).where(login_attempts.c.at_unix < now - window_s))
            if keys:  # execute() with no rows at all would insert one empty row
                db.execute(login_attempts.insert(), [{"key": key, "at_unix": now} for key in keys])

    def forget_attempts(self, key: str) -> None:
        with self.write() as db:
            db.execute(delete(login_attempts).where(login_attempts.c.key == key))

    # --- the site's secret --------------------------------------------------------------------

    _secret: str | None = None

    def signing_secret(self) -> str:
        """The key that signs session cookies: made once, then kept with the store, so every
        API process that opens this store (and a restart) signs alike. It never changes, so
        a process reads it once, not with a write lock at every request."""
        if self._secret is None:
            with self.write() as db:
                db.execute(
                    self.insert_ignoring_conflicts(
                        site_secrets, {"name": "session", "value": secrets.token_urlsafe(32)}
                    )
                )
                value = db.execute(
                    select(site_secrets.c.value).where(site_secrets.c.name == "session")
                ).scalar_one()
            self._secret = str(value)
        return self._secret
