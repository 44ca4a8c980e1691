"""The SQLite store that the API and the runner share: runs, their events, sweeps (series of
runs) and the runner's status.

Both processes open the same file (WAL mode, so readers never block the writer). The runs table
is also the queue: the runner claims the oldest queued run inside a write transaction, so a run is
never started twice and a queued run survives a restart of either process.
"""

import json
import sqlite3
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY,
    server TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued','running','done','failed','cancelled')),
    request TEXT NOT NULL,
    result TEXT,
    error TEXT,
    cancel_requested INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT
);
CREATE INDEX IF NOT EXISTS runs_by_status ON runs (status, created_at);
CREATE TABLE IF NOT EXISTS events (
    run_id TEXT NOT NULL REFERENCES runs (id),
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
);
CREATE TABLE IF NOT EXISTS sweeps (
    id TEXT PRIMARY KEY,
    request TEXT NOT NULL,
    points TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS runner_status (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    updated_at REAL NOT NULL,
    data TEXT NOT NULL
);
"""

TERMINAL_EVENTS = frozenset({"done", "failed"})


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class Run:
    id: str
    server: str
    status: str
    request: dict[str, Any]
    result: dict[str, Any] | None
    error: str | None
    cancel_requested: bool
    created_at: str
    started_at: str | None
    finished_at: str | None


@dataclass(frozen=True)
class Sweep:
    id: str
    request: dict[str, Any]
    # [{"server", "value", "run_id" (None if skipped), "skipped" (why, or None)}], in order
    points: list[dict[str, Any]]
    created_at: str


@dataclass(frozen=True)
class Event:
    run_id: str
    seq: int
    type: str
    data: dict[str, Any]


def _run(row: sqlite3.Row) -> Run:
    return Run(
        id=row["id"],
        server=row["server"],
        status=row["status"],
        request=json.loads(row["request"]),
        result=json.loads(row["result"]) if row["result"] else None,
        error=row["error"],
        cancel_requested=bool(row["cancel_requested"]),
        created_at=row["created_at"],
        started_at=row["started_at"],
        finished_at=row["finished_at"],
    )


class Store:
    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        # One short-lived connection per operation: safe across threads and processes.
        db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        db.row_factory = sqlite3.Row
        try:
            yield db
        finally:
            db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction taken up front, so concurrent writers queue instead of failing."""
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    @staticmethod
    def _append(db: sqlite3.Connection, run_id: str, type_: str, data: dict[str, Any]) -> Event:
        seq = db.execute(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE run_id = ?", (run_id,)
        ).fetchone()[0]
        db.execute(
            "INSERT INTO events (run_id, seq, type, data, created_at) VALUES (?, ?, ?, ?, ?)",
            (run_id, seq, type_, json.dumps(data), now_iso()),
        )
        return Event(run_id, seq, type_, data)

    @staticmethod
    def _queue_position(db: sqlite3.Connection, created_at: str, run_id: str) -> int:
        ahead = db.execute(
            "SELECT COUNT(*) FROM runs WHERE status = 'queued' AND (created_at, id) < (?, ?)",
            (created_at, run_id),
        ).fetchone()[0]
        return int(ahead) + 1

    # --- runs -------------------------------------------------------------------------------

    def count_queued(self) -> int:
        with self._connect() as db:
            row = db.execute("SELECT COUNT(*) FROM runs WHERE status = 'queued'").fetchone()
        return int(row[0])

    def create_run(self, server: str, request: dict[str, Any]) -> tuple[Run, int]:
        """Queue a run and write its first `queued` event; returns the run and its position."""
        run_id = uuid.uuid4().hex
        created = now_iso()
        with self._write() as db:
            db.execute(
                "INSERT INTO runs (id, server, status, request, created_at) "
                "VALUES (?, ?, 'queued', ?, ?)",
                (run_id, server, json.dumps(request), created),
            )
            position = self._queue_position(db, created, run_id)
            self._append(db, run_id, "queued", {"position": position})
            row = db.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
        return _run(row), position

    def get_run(self, run_id: str) -> Run | None:
        with self._connect() as db:
            row = db.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
        return _run(row) if row else None

    def position(self, run: Run) -> int | None:
        if run.status != "queued":
            return None
        with self._connect() as db:
            return self._queue_position(db, run.created_at, run.id)

    def list_runs(self, limit: int = 50) -> list[Run]:
        with self._connect() as db:
            rows = db.execute(
                "SELECT * FROM runs ORDER BY created_at DESC, id DESC LIMIT ?", (limit,)
            ).fetchall()
        return [_run(r) for r in rows]

    def claim_next(self) -> Run | None:
        """Take the oldest queued run for the runner, and tell the runs behind it they moved up."""
        with self._write() as db:
            row = db.execute(
                "SELECT * FROM runs WHERE status = 'queued' ORDER BY created_at, id LIMIT 1"
            ).fetchone()
            if row is None:
                return None
            db.execute(
                "UPDATE runs SET status = 'running', started_at = ? WHERE id = ?",
                (now_iso(), row["id"]),
            )
            waiting = db.execute(
                "SELECT id FROM runs WHERE status = 'queued' ORDER BY created_at, id"
            ).fetchall()
            for position, other in enumerate(waiting, start=1):
                self._append(db, other["id"], "queued", {"position": position})
            claimed = db.execute("SELECT * FROM runs WHERE id = ?", (row["id"],)).fetchone()
        return _run(claimed)

    def request_cancel(self, run_id: str) -> str | None:
        """Cancel a queued run at once, or ask the runner to stop a running one.

        Returns the run's status afterwards, or None if there is no such run.
        """
        with self._write() as db:
            row = db.execute("SELECT status FROM runs WHERE id = ?", (run_id,)).fetchone()
            if row is None:
                return None
            status = str(row["status"])
            if status == "queued":
                db.execute(
                    "UPDATE runs SET status = 'cancelled', error = ?, finished_at = ? WHERE id = ?",
                    ("cancelled before it started", now_iso(), run_id),
                )
                self._append(
                    db,
                    run_id,
                    "failed",
                    {"reason": "cancelled before it started", "cancelled": True, "logs": []},
                )
                return "cancelled"
            if status == "running":
                db.execute("UPDATE runs SET cancel_requested = 1 WHERE id = ?", (run_id,))
            return status

    def cancel_requested(self, run_id: str) -> bool:
        with self._connect() as db:
            row = db.execute("SELECT cancel_requested FROM runs WHERE id = ?", (run_id,)).fetchone()
        return bool(row and row[0])

    def finish(
        self,
        run_id: str,
        status: str,
        event_type: str,
        data: dict[str, Any],
        result: dict[str, Any] | None = None,
        error: str | None = None,
    ) -> Event:
        """End a run: its status and result, and its last event, in one transaction."""
        with self._write() as db:
            db.execute(
                "UPDATE runs SET status = ?, result = ?, error = ?, finished_at = ? WHERE id = ?",
                (
                    status,
                    json.dumps(result) if result is not None else None,
                    error,
                    now_iso(),
                    run_id,
                ),
            )
            return self._append(db, run_id, event_type, data)

    def fail_interrupted(self, reason: str) -> list[str]:
        """Mark every run left `running` by a stopped runner as failed; returns their ids."""
        with self._write() as db:
            ids = [r["id"] for r in db.execute("SELECT id FROM runs WHERE status = 'running'")]
            for run_id in ids:
                db.execute(
                    "UPDATE runs SET status = 'failed', error = ?, finished_at = ? WHERE id = ?",
                    (reason, now_iso(), run_id),
                )
                self._append(db, run_id, "failed", {"reason": reason, "logs": []})
        return ids

    # --- events -----------------------------------------------------------------------------

    def append_event(self, run_id: str, type_: str, data: dict[str, Any]) -> Event:
        with self._write() as db:
            return self._append(db, run_id, type_, data)

    def events_after(self, run_id: str, after_seq: int = 0) -> list[Event]:
        with self._connect() as db:
            rows = db.execute(
                "SELECT * FROM events WHERE run_id = ? AND seq > ? ORDER BY seq",
                (run_id, after_seq),
            ).fetchall()
        return [Event(r["run_id"], r["seq"], r["type"], json.loads(r["data"])) for r in rows]

    # --- sweeps -------------------------------------------------------------------------------

    def create_sweep(
        self, request: dict[str, Any], points: list[tuple[str, float, dict[str, Any] | None, str]]
    ) -> Sweep:
        """Queue a sweep's runs and record it, all in one transaction: either every point is
        queued, or none. `points` are (server, value, run request or None, why skipped)."""
        sweep_id = uuid.uuid4().hex
        created = now_iso()
        stored: list[dict[str, Any]] = []
        # The queue runs equal creation times in id order: sorted ids keep the points in order.
        ids = iter(sorted(uuid.uuid4().hex for _ in points))
        with self._write() as db:
            for server, value, run_request, skipped in points:
                run_id = None
                if run_request is not None:
                    run_id = next(ids)
                    db.execute(
                        "INSERT INTO runs (id, server, status, request, created_at) "
                        "VALUES (?, ?, 'queued', ?, ?)",
                        (run_id, server, json.dumps(run_request), created),
                    )
                    position = self._queue_position(db, created, run_id)
                    self._append(db, run_id, "queued", {"position": position})
                why = None if run_id else skipped
                stored.append({"server": server, "value": value, "run_id": run_id, "skipped": why})
            db.execute(
                "INSERT INTO sweeps (id, request, points, created_at) VALUES (?, ?, ?, ?)",
                (sweep_id, json.dumps(request), json.dumps(stored), created),
            )
        return Sweep(sweep_id, request, stored, created)

    def get_sweep(self, sweep_id: str) -> Sweep | None:
        with self._connect() as db:
            row = db.execute("SELECT * FROM sweeps WHERE id = ?", (sweep_id,)).fetchone()
        if row is None:
            return None
        request, points = json.loads(row["request"]), json.loads(row["points"])
        return Sweep(row["id"], request, points, row["created_at"])

    # --- runner status ------------------------------------------------------------------------

    def put_runner_status(self, data: dict[str, Any]) -> None:
        with self._write() as db:
            db.execute(
                "INSERT INTO runner_status (id, updated_at, data) VALUES (1, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at, "
                "data = excluded.data",
                (time.time(), json.dumps(data)),
            )

    def runner_status(self) -> tuple[float, dict[str, Any]] | None:
        """The runner's last heartbeat: (unix time, what it reported), or None if never."""
        with self._connect() as db:
            row = db.execute("SELECT updated_at, data FROM runner_status WHERE id = 1").fetchone()
        return (float(row[0]), json.loads(row[1])) if row else None
