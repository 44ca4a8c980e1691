"""The people domain's tables: instructors and students, classes, sessions, login attempts and
the site's signing secret. Same SQLite file as the runs (c10klab.db), tables of its own."""

import secrets
import sqlite3
from dataclasses import dataclass
from typing import Literal

from c10klab.db import Database, now_iso, unix_now

SCHEMA = """
CREATE TABLE IF NOT EXISTS people (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('instructor', 'student')),
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    class_id TEXT REFERENCES classes (id),
    password_hash TEXT,
    created_at TEXT NOT NULL,
    removed_at TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS instructor_names ON people (name_key) WHERE kind = 'instructor';
CREATE TABLE IF NOT EXISTS classes (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    join_code TEXT NOT NULL UNIQUE,
    instructor_id TEXT NOT NULL REFERENCES people (id),
    created_at TEXT NOT NULL,
    ended_at TEXT
);
CREATE TABLE IF NOT EXISTS sessions (
    token_hash TEXT PRIMARY KEY,
    person_id TEXT NOT NULL REFERENCES people (id),
    created_at TEXT NOT NULL,
    expires_unix REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS login_attempts (
    key TEXT NOT NULL,
    at_unix REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS login_attempts_by_key ON login_attempts (key, at_unix);
CREATE TABLE IF NOT EXISTS site_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""

# Added after the first version: a class's planned end, and a student's name is free again
# once they were removed (the earlier index kept it taken for good).
ADDED_COLUMNS = {"classes": [("ends_at", "TEXT")]}
INDEXES = """
DROP INDEX IF EXISTS student_names;
CREATE UNIQUE INDEX IF NOT EXISTS present_student_names ON people (class_id, name_key)
    WHERE kind = 'student' AND removed_at IS NULL;
"""

PersonKind = Literal["solo", "instructor", "student"]


@dataclass(frozen=True)
class Person:
    id: str
    kind: PersonKind
    name: str
    class_id: str | None = None  # a student's class


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


@dataclass(frozen=True)
class Student:
    id: str
    name: str
    joined_at: str


class NameTaken(Exception):
    """An instructor, or a student of the same class, already has this name."""


def name_key(name: str) -> str:
    """Names are unique regardless of case and surrounding space ("Ana" = " ana ")."""
    return " ".join(name.split()).casefold()


def _person(row: sqlite3.Row) -> Person:
    return Person(id=row["id"], kind=row["kind"], name=row["name"], class_id=row["class_id"])


def _class(row: sqlite3.Row) -> Class:
    return Class(
        id=row["id"],
        name=row["name"],
        join_code=row["join_code"],
        instructor_id=row["instructor_id"],
        created_at=row["created_at"],
        ended_at=row["ended_at"],
        ends_at=row["ends_at"],
    )


class PeopleStore(Database):
    SCHEMA = SCHEMA
    ADDED_COLUMNS = ADDED_COLUMNS
    INDEXES = INDEXES

    # --- people -------------------------------------------------------------------------------

    def add_person(
        self,
        kind: Literal["instructor", "student"],
        name: str,
        class_id: str | None = None,
        password_hash: str | None = None,
    ) -> Person:
        person_id = secrets.token_hex(16)
        try:
            with self.write() as db:
                db.execute(
                    "INSERT INTO people (id, kind, name, name_key, class_id, password_hash, "
                    "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (person_id, kind, name, name_key(name), class_id, password_hash, now_iso()),
                )
        except sqlite3.IntegrityError as taken:
            raise NameTaken(name) from taken
        return Person(id=person_id, kind=kind, name=name, class_id=class_id)

    def instructor_login(self, name: str) -> tuple[Person, str] | None:
        """An instructor and their password hash, by name."""
        with self.connect() as db:
            row = db.execute(
                "SELECT * FROM people WHERE kind = 'instructor' AND name_key = ? "
                "AND removed_at IS NULL",
                (name_key(name),),
            ).fetchone()
        return (_person(row), str(row["password_hash"])) if row else None

    def set_password_hash(self, person_id: str, password_hash: str) -> None:
        with self.write() as db:
            db.execute(
                "UPDATE people SET password_hash = ? WHERE id = ?", (password_hash, person_id)
            )

    def instructors(self) -> list[Person]:
        with self.connect() as db:
            rows = db.execute(
                "SELECT * FROM people WHERE kind = 'instructor' AND removed_at IS NULL "
                "ORDER BY name_key"
            ).fetchall()
        return [_person(r) for r in rows]

    # --- classes ------------------------------------------------------------------------------

    def add_class(
        self, name: str, instructor_id: str, join_code: str, ends_at: str | None = None
    ) -> Class | None:
        """A new class; None if another class has this join code already."""
        class_id = secrets.token_hex(8)
        created = now_iso()
        try:
            with self.write() as db:
                db.execute(
                    "INSERT INTO classes (id, name, join_code, instructor_id, created_at, "
                    "ends_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (class_id, name, join_code, instructor_id, created, ends_at),
                )
        except sqlite3.IntegrityError:
            return None
        return Class(class_id, name, join_code, instructor_id, created, None, ends_at)

    def classes_due_to_end(self) -> list[Class]:
        """Classes still open whose planned end has come."""
        with self.connect() as db:
            rows = db.execute(
                "SELECT * FROM classes WHERE ended_at IS NULL AND ends_at IS NOT NULL "
                "AND ends_at <= ?",
                (now_iso(),),
            ).fetchall()
        return [_class(r) for r in rows]

    def students_of(self, class_id: str) -> list[Student]:
        """The class's students who were not removed, in joining order."""
        with self.connect() as db:
            rows = db.execute(
                "SELECT id, name, created_at FROM people WHERE kind = 'student' "
                "AND class_id = ? AND removed_at IS NULL ORDER BY created_at, rowid",
                (class_id,),
            ).fetchall()
        return [Student(r["id"], r["name"], r["created_at"]) for r in rows]

    def names_of(self, person_ids: list[str]) -> dict[str, str]:
        """Names by id, removed people included (their results keep their name)."""
        if not person_ids:
            return {}
        marks = ", ".join("?" for _ in person_ids)
        with self.connect() as db:
            rows = db.execute(
                f"SELECT id, name FROM people WHERE id IN ({marks})", person_ids
            ).fetchall()
        return {r["id"]: r["name"] for r in rows}

    def remove_student(self, class_id: str, person_id: str) -> bool:
        """Remove a student from their class: their sessions end and their name is free; the
        person stays (removed) so that their results keep a name. False if there is no such
        student in the class."""
        with self.write() as db:
            cursor = db.execute(
                "UPDATE people SET removed_at = ? WHERE id = ? AND class_id = ? "
                "AND kind = 'student' AND removed_at IS NULL",
                (now_iso(), person_id, class_id),
            )
            db.execute("DELETE FROM sessions WHERE person_id = ?", (person_id,))
        return cursor.rowcount == 1

    def end_class(self, class_id: str) -> Class | None:
        """End a class (once: ending it again keeps the first time); None if there is none."""
        with self.write() as db:
            db.execute(
                "UPDATE classes SET ended_at = ? WHERE id = ? AND ended_at IS NULL",
                (now_iso(), class_id),
            )
            row = db.execute("SELECT * FROM classes WHERE id = ?", (class_id,)).fetchone()
        return _class(row) if row else None

    def class_by_code(self, join_code: str) -> Class | None:
        with self.connect() as db:
            row = db.execute("SELECT * FROM classes WHERE join_code = ?", (join_code,)).fetchone()
        return _class(row) if row else None

    def get_class(self, class_id: str) -> Class | None:
        with self.connect() as db:
            row = db.execute("SELECT * FROM classes WHERE id = ?", (class_id,)).fetchone()
        return _class(row) if row else None

    def classes_of(self, instructor_id: str) -> list[Class]:
        with self.connect() as db:
            rows = db.execute(
                "SELECT * FROM classes WHERE instructor_id = ? ORDER BY created_at DESC",
                (instructor_id,),
            ).fetchall()
        return [_class(r) for r in rows]

    def count_students(self, class_id: str) -> int:
        with self.connect() as db:
            row = db.execute(
                "SELECT COUNT(*) FROM people WHERE class_id = ? AND removed_at IS NULL",
                (class_id,),
            ).fetchone()
        return int(row[0])

    # --- sessions -----------------------------------------------------------------------------

    def add_session(self, token_hash: str, person_id: str, lifetime_s: float) -> None:
        with self.write() as db:
            db.execute("DELETE FROM sessions WHERE expires_unix < ?", (unix_now(),))
            db.execute(
                "INSERT INTO sessions (token_hash, person_id, created_at, expires_unix) "
                "VALUES (?, ?, ?, ?)",
                (token_hash, person_id, now_iso(), unix_now() + lifetime_s),
            )

    def session_person(self, token_hash: str) -> tuple[Person, str | None] | None:
        """Whose live session this is, and when their class ended (students), or None."""
        with self.connect() as db:
            row = db.execute(
                "SELECT people.*, classes.ended_at AS class_ended_at FROM sessions "
                "JOIN people ON people.id = sessions.person_id "
                "LEFT JOIN classes ON classes.id = people.class_id "
                "WHERE sessions.token_hash = ? AND sessions.expires_unix > ? "
                "AND people.removed_at IS NULL",
                (token_hash, unix_now()),
            ).fetchone()
        return (_person(row), row["class_ended_at"]) if row else None

    def drop_session(self, token_hash: str) -> None:
        with self.write() as db:
            db.execute("DELETE FROM sessions WHERE token_hash = ?", (token_hash,))

    # --- login attempts -----------------------------------------------------------------------

    def failed_logins(self, keys: list[str], window_s: float) -> dict[str, list[float]]:
        """Per key, the times of its failed attempts within the window, oldest first."""
        since = unix_now() - window_s
        with self.connect() as db:
            return {
                key: [
                    r[0]
                    for r in db.execute(
                        "SELECT at_unix FROM login_attempts WHERE key = ? AND at_unix > ? "
                        "ORDER BY at_unix",
                        (key, since),
                    )
                ]
                for key in keys
            }

    def record_failed_login(self, keys: list[str], window_s: float) -> None:
        now = unix_now()
        with self.write() as db:
            db.execute("DELETE FROM login_attempts WHERE at_unix < ?", (now - window_s,))
            db.executemany(
                "INSERT INTO login_attempts (key, at_unix) VALUES (?, ?)",
                [(key, now) for key in keys],
            )

    def forget_failed_logins(self, key: str) -> None:
        with self.write() as db:
            db.execute("DELETE FROM login_attempts WHERE key = ?", (key,))

    # --- the site's secret --------------------------------------------------------------------

    _secret: str | None = None

    def signing_secret(self) -> str:
        """The key that signs session cookies: made once, then kept with the store, so every
        API process that opens this store (and a restart) signs alike. It never changes, so
        a process reads it once, not with a write lock at every request."""
        if self._secret is None:
            with self.write() as db:
                db.execute(
                    "INSERT OR IGNORE INTO site_secrets (name, value) VALUES ('session', ?)",
                    (secrets.token_urlsafe(32),),
                )
                row = db.execute("SELECT value FROM site_secrets WHERE name = 'session'").fetchone()
            self._secret = str(row[0])
        return self._secret
