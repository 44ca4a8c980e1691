"""The store's schema comes from one Alembic history: a fresh store gets exactly the tables the
domains declare, and a store made before Alembic upgrades in place with nothing lost."""

import sqlite3
from pathlib import Path
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Engine, func, select, text

from c10klab.classroom.store import ClassroomStore
from c10klab.db import Database
from c10klab.people.store import PeopleStore
from c10klab.runs.store import RunStore
from c10klab.schema import metadata
from c10klab.sweeps.store import SweepStore

BEFORE_ALEMBIC = Path(__file__).parent / "migrations" / "store_before_alembic.sql"


def differences(engine: Engine) -> list[Any]:
    """What the store's schema lacks or has beyond the declared tables (nothing, if right)."""
    with engine.connect() as connection:
        return list(compare_metadata(MigrationContext.configure(connection), metadata))


def same_in_sqlite(difference: Any) -> bool:
    """Differences a store made before Alembic keeps, which SQLite does not tell apart: a
    REAL column where FLOAT is declared (both are SQLite's REAL), and a TEXT primary key
    that SQLite would let be NULL (its old quirk; every row has one)."""
    kind, _, table, column, _existing, old, new = difference[:7]
    if kind == "modify_type":
        return (str(old), str(new)) == ("REAL", "FLOAT")
    primary = metadata.tables[table].c[column].primary_key
    return kind == "modify_nullable" and primary and (old, new) == (True, False)


def row_counts(engine: Engine) -> dict[str, int]:
    with engine.connect() as connection:
        return {
            table.name: connection.execute(select(func.count()).select_from(table)).scalar_one()
            for table in metadata.tables.values()
        }


def test_a_fresh_store_has_exactly_the_declared_tables(tmp_path: Path) -> None:
    store = Database(tmp_path / "fresh.sqlite3")
    assert differences(store.engine) == []
    with store.connect() as db:
        assert db.execute(text("SELECT version_num FROM alembic_version")).scalar() is not None


def test_a_store_made_before_alembic_upgrades_in_place(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as old:
        old.executescript(BEFORE_ALEMBIC.read_text())
        before = {
            name: old.execute(f"SELECT COUNT(*) FROM {name}").fetchone()[0]
            for (name,) in old.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        secret = old.execute("SELECT value FROM site_secrets").fetchone()[0]

    runs, people, room = RunStore(path), PeopleStore(path), ClassroomStore(path)

    changes = [change for group in differences(runs.engine) for change in group]
    assert [c for c in changes if not same_in_sqlite(c)] == []
    # Every row of every table kept, but the single runner's heartbeat: news for seconds only,
    # replaced by the runners table (revision 0002). Variants (revision 0004) and assignments
    # (0007) are new, and so are the live-class tools' tables (0010) and class_staff (0011).
    assert before.pop("runner_status") == 1
    new = ["runners", "variants", "assignments", "hands", "class_timers", "announcements"]
    new += ["question_answers", "revealed_questions", "class_staff"]  # 0011
    assert row_counts(runs.engine) == before | dict.fromkeys(new, 0)
    assert people.signing_secret() == secret  # sessions signed before stay valid
    barbara = people.instructor_login("barbara")
    assert barbara is not None and barbara[1].startswith("$argon2id$")
    course = people.class_by_code("ABCD-2345")
    assert course is not None and course.ends_at == "2026-12-01T12:00:00+00:00"
    [ana] = people.students_of(course.id)
    assert people.session_owner("f" * 64) is not None
    assert course.results_days == 7  # revision 0009: a week for every class made before
    assert room.lessons_read(ana.id) == ["01-c10k-problem"]
    shown = room.presentation(course.id)
    assert shown is not None and shown.spotlight_id == ana.id
    finished, of_sweep, waiting = runs.class_runs(course.id)
    assert finished.result == {"summary": {"qps": 1000}}
    assert [e.type for e in runs.events_after(finished.id)] == ["queued", "progress", "done"]
    assert runs.queue_place(waiting) is not None and runs.queue_place(waiting).held  # type: ignore[union-attr]
    [sweep] = SweepStore(path).class_sweeps(course.id)
    assert [p["run_id"] for p in sweep.points] == [of_sweep.id, None]
    assert [p["skipped"] for p in sweep.points] == [None, "too many"]
    # And the queue goes on from where it was: released, the waiting run is claimed next.
    runs.release_class(course.id)
    claimed = runs.claim_next()
    assert claimed is not None and claimed.id in {waiting.id, of_sweep.id}
