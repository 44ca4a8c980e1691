"""The classroom's tables: who is online and where, which lessons each person has read, and
what each class is being shown. Same SQLite file as the rest (c10klab.db), tables of its own."""

import sqlite3
from dataclasses import dataclass

from c10klab.db import Database, now_iso, unix_now

SCHEMA = """
CREATE TABLE IF NOT EXISTS presence (
    person_id TEXT PRIMARY KEY,
    streams INTEGER NOT NULL DEFAULT 0,
    seen_unix REAL NOT NULL DEFAULT 0,
    seen_at TEXT,
    lesson TEXT
);
CREATE TABLE IF NOT EXISTS lessons_read (
    person_id TEXT NOT NULL,
    lesson TEXT NOT NULL,
    read_at TEXT NOT NULL,
    PRIMARY KEY (person_id, lesson)
);
CREATE TABLE IF NOT EXISTS presentations (
    class_id TEXT PRIMARY KEY,
    lesson TEXT NOT NULL,
    experiment TEXT,
    title TEXT NOT NULL,
    run_id TEXT,
    sweep_id TEXT,
    spotlight_id TEXT,
    started_at TEXT NOT NULL
);
"""

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


def _presentation(row: sqlite3.Row) -> Presentation:
    return Presentation(
        lesson=row["lesson"],
        experiment=row["experiment"],
        title=row["title"],
        run_id=row["run_id"],
        sweep_id=row["sweep_id"],
        spotlight_id=row["spotlight_id"],
        started_at=row["started_at"],
    )


class ClassroomStore(Database):
    SCHEMA = SCHEMA

    # --- presence ---------------------------------------------------------------------------

    def stream_opened(self, person_id: str) -> None:
        now = unix_now()
        with self.write() as db:
            db.execute(
                "INSERT INTO presence (person_id, streams, seen_unix, seen_at) "
                "VALUES (?, 1, ?, ?) ON CONFLICT (person_id) DO UPDATE SET "
                # A stream count left by an API process that died is stale: start over.
                "streams = CASE WHEN seen_unix < ? THEN 1 ELSE streams + 1 END, "
                "seen_unix = excluded.seen_unix, seen_at = excluded.seen_at",
                (person_id, now, now_iso(), now - ONLINE_WITHIN_S),
            )

    def stream_closed(self, person_id: str) -> None:
        with self.write() as db:
            db.execute(
                "UPDATE presence SET streams = MAX(streams - 1, 0), seen_unix = ?, seen_at = ? "
                "WHERE person_id = ?",
                (unix_now(), now_iso(), person_id),
            )

    def touch(self, person_ids: list[str]) -> None:
        """Heard from these people's open streams just now (one write for a whole class)."""
        now, at = unix_now(), now_iso()
        with self.write() as db:
            db.executemany(
                "UPDATE presence SET seen_unix = ?, seen_at = ? WHERE person_id = ?",
                [(now, at, p) for p in person_ids],
            )

    def set_lesson(self, person_id: str, lesson: str) -> None:
        with self.write() as db:
            db.execute(
                "INSERT INTO presence (person_id, lesson) VALUES (?, ?) "
                "ON CONFLICT (person_id) DO UPDATE SET lesson = excluded.lesson",
                (person_id, lesson),
            )

    def whereabouts(self, person_ids: list[str]) -> dict[str, Whereabouts]:
        if not person_ids:
            return {}
        marks = ", ".join("?" for _ in person_ids)
        since = unix_now() - ONLINE_WITHIN_S
        with self.connect() as db:
            rows = db.execute(
                f"SELECT * FROM presence WHERE person_id IN ({marks})", person_ids
            ).fetchall()
        return {
            r["person_id"]: Whereabouts(
                online=r["streams"] > 0 and r["seen_unix"] >= since,
                seen_at=r["seen_at"],
                lesson=r["lesson"],
            )
            for r in rows
        }

    # --- lessons read -----------------------------------------------------------------------

    def lessons_read(self, person_id: str) -> list[str]:
        with self.connect() as db:
            rows = db.execute(
                "SELECT lesson FROM lessons_read WHERE person_id = ? ORDER BY read_at",
                (person_id,),
            ).fetchall()
        return [r[0] for r in rows]

    def count_read(self, person_ids: list[str]) -> dict[str, int]:
        if not person_ids:
            return {}
        marks = ", ".join("?" for _ in person_ids)
        with self.connect() as db:
            rows = db.execute(
                f"SELECT person_id, COUNT(*) FROM lessons_read WHERE person_id IN ({marks}) "
                "GROUP BY person_id",
                person_ids,
            ).fetchall()
        return {r[0]: int(r[1]) for r in rows}

    def mark_read(self, person_id: str, lesson: str, read: bool) -> None:
        with self.write() as db:
            if read:
                db.execute(
                    "INSERT OR IGNORE INTO lessons_read (person_id, lesson, read_at) "
                    "VALUES (?, ?, ?)",
                    (person_id, lesson, now_iso()),
                )
            else:
                db.execute(
                    "DELETE FROM lessons_read WHERE person_id = ? AND lesson = ?",
                    (person_id, lesson),
                )

    # --- presentations ----------------------------------------------------------------------

    def presentation(self, class_id: str) -> Presentation | None:
        with self.connect() as db:
            row = db.execute(
                "SELECT * FROM presentations WHERE class_id = ?", (class_id,)
            ).fetchone()
        return _presentation(row) if row else None

    def present(self, class_id: str, shown: Presentation) -> None:
        """Show this to the class, in place of whatever it was shown."""
        with self.write() as db:
            db.execute(
                "INSERT OR REPLACE INTO presentations (class_id, lesson, experiment, title, "
                "run_id, sweep_id, spotlight_id, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    class_id,
                    shown.lesson,
                    shown.experiment,
                    shown.title,
                    shown.run_id,
                    shown.sweep_id,
                    shown.spotlight_id,
                    shown.started_at,
                ),
            )

    def stop_presenting(self, class_id: str) -> None:
        with self.write() as db:
            db.execute("DELETE FROM presentations WHERE class_id = ?", (class_id,))
