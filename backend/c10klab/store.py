"""The runs domain's tables: runs, their events, sweeps (series of runs), the queue's clock and
the runner's heartbeat.

The runs table is also the queue, and admission happens inside the write that queues: one
transaction counts what the person and the site already have waiting, refuses or inserts. No
burst of requests can get past a limit between a check and an insert.

Fair share is start-time fair queueing. Every queued run carries a virtual start tag: the later
of the queue's virtual clock and the finish tag of its owner's latest run still waiting or
running; its finish tag is that plus the seconds it is expected to take. The runner claims the
instructor's runs first, then the smallest start tag, ties in the order they came. So a sweep's
points get successive tags and interleave with other people's single runs instead of holding
the runner for minutes, and a person with nothing waiting starts at the clock: joining late
costs nothing, and waiting idle earns nothing. Positions follow that order exactly, and every
run whose position changes is told so by a new `queued` event with its estimated wait.
"""

import json
import math
import sqlite3
import statistics
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

from c10klab.db import Database, now_iso, unix_now
from c10klab.errors import InvalidRequest, QueueFull

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
CREATE TABLE IF NOT EXISTS queue_state (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    vclock REAL NOT NULL,
    next_seq INTEGER NOT NULL
);
INSERT OR IGNORE INTO queue_state (id, vclock, next_seq) VALUES (1, 0, 1);
CREATE TABLE IF NOT EXISTS held_classes (
    class_id TEXT PRIMARY KEY,
    held_at TEXT NOT NULL
);
"""

# Columns that came with people, fair share and leases; a file from before gets them on open.
ADDED_COLUMNS = {
    "runs": [
        ("owner_id", "TEXT NOT NULL DEFAULT 'solo'"),
        ("class_id", "TEXT"),
        ("priority", "INTEGER NOT NULL DEFAULT 0"),
        ("vstart", "REAL NOT NULL DEFAULT 0"),
        ("vfinish", "REAL NOT NULL DEFAULT 0"),
        ("expected_s", "REAL NOT NULL DEFAULT 0"),
        ("queue_seq", "INTEGER NOT NULL DEFAULT 0"),
        ("announced_position", "INTEGER"),
        ("created_unix", "REAL"),
        ("started_unix", "REAL"),
        ("finished_unix", "REAL"),
        ("claimed_by", "TEXT"),
        ("lease_until", "REAL"),
    ],
    "sweeps": [("owner_id", "TEXT NOT NULL DEFAULT 'solo'"), ("class_id", "TEXT")],
}

INDEXES = """
CREATE INDEX IF NOT EXISTS runs_queue ON runs (status, priority, vstart, queue_seq);
CREATE INDEX IF NOT EXISTS runs_by_owner ON runs (owner_id, created_unix);
CREATE INDEX IF NOT EXISTS runs_by_class ON runs (class_id, created_at);
CREATE INDEX IF NOT EXISTS runs_finished ON runs (status, finished_unix);
"""

TERMINAL_EVENTS = frozenset({"done", "failed"})
# The queue's order: the instructor's runs first, then by virtual start tag, then arrival.
QUEUE_ORDER = "priority DESC, vstart, queue_seq"
# A queued run of a class its instructor paused waits, keeping its tags, until it is released.
HELD = "class_id IS NOT NULL AND class_id IN (SELECT class_id FROM held_classes)"
# Seconds a run takes beyond its load: two containers started, readiness and one reply
# verified, the server stopped, both removed (0.4 s on the course's reference machine, in
# results/hosting.md; the waits announced follow the real pace, see Store._pace).
RUN_OVERHEAD_S = 1.0
# Finished runs whose real length against their expected one paces the waits announced.
PACE_SAMPLE = 20


def expected_seconds(request: dict[str, Any]) -> float:
    """How long the runner is expected to be busy with a run."""
    load = sum(float(request.get(key, 0)) for key in ("ramp_s", "warmup_s", "duration_s"))
    return (load + RUN_OVERHEAD_S) * int(request.get("repetitions", 1))


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
    owner_id: str = "solo"
    class_id: str | None = None


@dataclass(frozen=True)
class Sweep:
    id: str
    request: dict[str, Any]
    # [{"server", "value", "run_id" (None if skipped), "skipped" (why, or None)}], in order
    points: list[dict[str, Any]]
    created_at: str
    owner_id: str = "solo"
    class_id: str | None = None


@dataclass(frozen=True)
class Event:
    run_id: str
    seq: int
    type: str
    data: dict[str, Any]


class Place(NamedTuple):
    """Where a queued run stands: 1 = next to start, and the estimated seconds until then;
    a held run (its class is paused) has neither until its class resumes."""

    position: int | None
    wait_s: float | None
    held: bool = False


@dataclass(frozen=True)
class Admission:
    """Who is queueing, and the limits the request must fit in. They are checked in the
    same transaction that queues it. None: no such limit."""

    owner_id: str = "solo"
    class_id: str | None = None
    priority: int = 0  # 1: an instructor's runs, claimed before anyone else's
    queued_per_person: int | None = None
    runs_per_minute: int | None = None
    queued_site: int = 1000


@dataclass(frozen=True)
class Scope:
    """Whose runs and sweeps a listing covers: everyone's, or one owner's and those of the
    given classes."""

    everyone: bool = False
    owner_id: str | None = None
    class_ids: tuple[str, ...] = ()

    def where(self) -> tuple[str, list[Any]]:
        if self.everyone:
            return "1", []
        marks = ", ".join("?" for _ in self.class_ids)
        classes = f" OR class_id IN ({marks})" if self.class_ids else ""
        return f"(owner_id = ?{classes})", [self.owner_id, *self.class_ids]


# A planned sweep point: (server, value, run request or None, why skipped).
PlannedPoint = tuple[str, float, dict[str, Any] | None, str]


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
        owner_id=row["owner_id"],
        class_id=row["class_id"],
    )


def _sweep(row: sqlite3.Row) -> Sweep:
    return Sweep(
        row["id"],
        json.loads(row["request"]),
        json.loads(row["points"]),
        row["created_at"],
        row["owner_id"],
        row["class_id"],
    )


def _retry_after(seconds: float) -> int:
    return max(1, math.ceil(seconds))


class Store(Database):
    SCHEMA = SCHEMA
    ADDED_COLUMNS = ADDED_COLUMNS
    INDEXES = INDEXES

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

    # --- the queue ------------------------------------------------------------------------

    @staticmethod
    def _queue(db: sqlite3.Connection, held: bool = False) -> list[sqlite3.Row]:
        """The runs waiting to start, in the order they will; with held=True the held ones
        instead (those of paused classes, which the runner skips)."""
        which = HELD if held else f"NOT ({HELD})"
        return db.execute(
            "SELECT id, owner_id, expected_s, announced_position, created_unix FROM runs "
            f"WHERE status = 'queued' AND {which} ORDER BY {QUEUE_ORDER}"
        ).fetchall()

    @staticmethod
    def _pace(db: sqlite3.Connection) -> float:
        """How long runs really take against what was expected of them: the median ratio
        over the last PACE_SAMPLE finished runs (1 before there are any). The fixed overhead
        in expected_seconds() is a guess; this keeps the waits people are told honest on
        whatever host the course runs."""
        ratios = [
            row[0]
            for row in db.execute(
                "SELECT (finished_unix - started_unix) / expected_s FROM runs "
                "WHERE status = 'done' AND finished_unix IS NOT NULL "
                "AND started_unix IS NOT NULL AND expected_s > 0 "
                "ORDER BY finished_unix DESC LIMIT ?",
                (PACE_SAMPLE,),
            )
        ]
        return statistics.median(ratios) if ratios else 1.0

    @classmethod
    def _waits(cls, db: sqlite3.Connection, queue: list[sqlite3.Row]) -> list[float]:
        """Seconds until each queued run (in queue order) is expected to start: what the
        running run has left, then everything ahead of it, at the pace runs really go."""
        now, pace = unix_now(), cls._pace(db)
        running = db.execute(
            "SELECT expected_s, started_unix FROM runs WHERE status = 'running'"
        ).fetchall()
        ahead = sum(
            max(1.0, r["expected_s"] * pace - (now - (r["started_unix"] or now))) for r in running
        )
        waits = []
        for row in queue:
            waits.append(ahead)
            ahead += row["expected_s"] * pace
        return waits

    def _announce_positions(self, db: sqlite3.Connection) -> None:
        """A `queued` event for every waiting run whose position changed (or was never said)."""
        queue = self._queue(db)
        for position, (row, wait) in enumerate(
            zip(queue, self._waits(db, queue), strict=True), start=1
        ):
            if row["announced_position"] == position:
                continue
            db.execute("UPDATE runs SET announced_position = ? WHERE id = ?", (position, row["id"]))
            self._append(db, row["id"], "queued", {"position": position, "wait_s": round(wait)})
        for row in self._queue(db, held=True):  # announced_position 0: said to be held
            if row["announced_position"] == 0:
                continue
            db.execute("UPDATE runs SET announced_position = 0 WHERE id = ?", (row["id"],))
            self._append(db, row["id"], "queued", {"position": None, "wait_s": None, "held": True})

    @staticmethod
    def _check_limit(
        limit: int,
        room_after: list[float],
        wanted: int,
        never: str,
        full: Callable[[int, int], str],
    ) -> None:
        """One limit. `room_after` has, for each run counted against it now, the seconds until
        it stops counting (it starts, or leaves the last minute), soonest first."""
        if wanted > limit:
            raise InvalidRequest(f"this asks for {wanted} runs; {never}")
        over = len(room_after) + wanted - limit
        if over > 0:
            retry = _retry_after(room_after[over - 1])
            raise QueueFull(full(len(room_after), retry), retry)

    def _admit(self, db: sqlite3.Connection, admission: Admission, costs: list[float]) -> None:
        """Refuse, with when to try again, what would take the site or the person past a
        limit. Runs in the write transaction that then queues the runs."""
        wanted = len(costs)
        # Held runs count too (pausing a class must not let its students queue past their
        # limit); they are taken to start after everything else.
        queue = self._queue(db) + self._queue(db, held=True)
        waits = self._waits(db, queue)
        site = admission.queued_site
        self._check_limit(
            site,
            waits,
            wanted,
            f"the course queues at most {site} at a time",
            lambda n, retry: (
                f"the course's queue is full: {n} runs are waiting (at most "
                f"{site}). Try again in about {retry} s."
            ),
        )
        limit = admission.queued_per_person
        if limit is not None:
            mine = [
                w
                for w, row in zip(waits, queue, strict=True)
                if row["owner_id"] == admission.owner_id
            ]
            self._check_limit(
                limit,
                mine,
                wanted,
                f"one person may have at most {limit} waiting (use fewer values or servers)",
                lambda n, retry: (
                    f"you already have {n} run{'s' if n != 1 else ''} waiting and "
                    f"may have at most {limit}: try again in about {retry} s, when enough of them "
                    f"have started to make room for {wanted} more, or cancel one"
                ),
            )
        per_minute = admission.runs_per_minute
        if per_minute is not None:
            now = unix_now()
            recent = db.execute(
                "SELECT created_unix FROM runs WHERE owner_id = ? AND created_unix > ? "
                "ORDER BY created_unix",
                (admission.owner_id, now - 60),
            )
            self._check_limit(
                per_minute,
                [created + 60 - now for (created,) in recent],
                wanted,
                f"one person may start at most {per_minute} a minute (use fewer values or servers)",
                lambda n, retry: (
                    f"you asked for {n} runs in the last minute and may ask for at "
                    f"most {per_minute} a minute: try again in about {retry} s for {wanted} more "
                    f"run{'s' if wanted != 1 else ''}"
                ),
            )

    def _insert_runs(
        self,
        db: sqlite3.Connection,
        admission: Admission,
        runs: list[tuple[str, str, dict[str, Any]]],
    ) -> None:
        """Queue (id, server, request) runs in this order, each tagged after the last."""
        clock, seq = db.execute("SELECT vclock, next_seq FROM queue_state WHERE id = 1").fetchone()
        latest = db.execute(
            "SELECT MAX(vfinish) FROM runs WHERE owner_id = ? AND status IN ('queued','running')",
            (admission.owner_id,),
        ).fetchone()[0]
        tag = max(clock, latest or 0.0)
        created, created_unix = now_iso(), unix_now()
        for run_id, server, request in runs:
            cost = expected_seconds(request)
            db.execute(
                "INSERT INTO runs (id, server, status, request, created_at, created_unix, "
                "owner_id, class_id, priority, vstart, vfinish, expected_s, queue_seq) "
                "VALUES (?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    run_id,
                    server,
                    json.dumps(request),
                    created,
                    created_unix,
                    admission.owner_id,
                    admission.class_id,
                    admission.priority,
                    tag,
                    tag + cost,
                    cost,
                    seq,
                ),
            )
            tag, seq = tag + cost, seq + 1
        db.execute("UPDATE queue_state SET next_seq = ? WHERE id = 1", (seq,))

    # --- runs -------------------------------------------------------------------------------

    def count_queued(self) -> int:
        with self.connect() as db:
            row = db.execute("SELECT COUNT(*) FROM runs WHERE status = 'queued'").fetchone()
        return int(row[0])

    def create_run(
        self, server: str, request: dict[str, Any], admission: Admission = Admission()
    ) -> tuple[Run, Place]:
        """Admit and queue a run; returns it and where it stands in the queue."""
        run_id = uuid.uuid4().hex
        with self.write() as db:
            self._admit(db, admission, [expected_seconds(request)])
            self._insert_runs(db, admission, [(run_id, server, request)])
            self._announce_positions(db)
            row = db.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
            place = self._place(db, run_id)
        assert place is not None  # queued in this very transaction
        return _run(row), place

    def get_run(self, run_id: str) -> Run | None:
        with self.connect() as db:
            row = db.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
        return _run(row) if row else None

    def _place(self, db: sqlite3.Connection, run_id: str) -> Place | None:
        queue = self._queue(db)
        index = next((i for i, row in enumerate(queue) if row["id"] == run_id), None)
        if index is not None:
            return Place(index + 1, round(self._waits(db, queue)[index]))
        if any(row["id"] == run_id for row in self._queue(db, held=True)):
            return Place(None, None, held=True)
        return None  # not queued (any more)

    def queue_place(self, run: Run) -> Place | None:
        """Where a queued run stands now; None once it has started or ended."""
        if run.status != "queued":
            return None
        with self.read() as db:
            return self._place(db, run.id)

    def list_runs(self, scope: Scope, limit: int = 50) -> list[Run]:
        where, params = scope.where()
        with self.connect() as db:
            rows = db.execute(
                f"SELECT * FROM runs WHERE {where} ORDER BY created_at DESC, queue_seq DESC "
                "LIMIT ?",
                (*params, limit),
            ).fetchall()
        return [_run(r) for r in rows]

    def claim_next(self, runner_id: str = "local", lease_s: float = 3600) -> Run | None:
        """Take the first run in fair-share order for a runner, holding it for `lease_s`
        seconds unless renewed, and tell the runs behind it that they moved up."""
        first = (
            f"SELECT * FROM runs WHERE status = 'queued' AND NOT ({HELD}) "
            f"ORDER BY {QUEUE_ORDER} LIMIT 1"
        )
        with self.connect() as db:  # an idle runner asks often: no write lock for nothing
            if db.execute(first).fetchone() is None:
                return None
        with self.write() as db:
            row = db.execute(first).fetchone()
            if row is None:  # another runner took it meanwhile
                return None
            now = unix_now()
            db.execute(
                "UPDATE runs SET status = 'running', started_at = ?, started_unix = ?, "
                "claimed_by = ?, lease_until = ? WHERE id = ?",
                (now_iso(), now, runner_id, now + lease_s, row["id"]),
            )
            db.execute(
                "UPDATE queue_state SET vclock = MAX(vclock, ?) WHERE id = 1", (row["vstart"],)
            )
            self._announce_positions(db)
            claimed = db.execute("SELECT * FROM runs WHERE id = ?", (row["id"],)).fetchone()
        return _run(claimed)

    def renew_lease(self, run_id: str, runner_id: str, lease_s: float) -> bool:
        """Extend a runner's hold on its run; False if the run is no longer its to run."""
        with self.write() as db:
            cursor = db.execute(
                "UPDATE runs SET lease_until = ? "
                "WHERE id = ? AND status = 'running' AND claimed_by = ?",
                (unix_now() + lease_s, run_id, runner_id),
            )
        return cursor.rowcount == 1

    def request_cancel(self, run_id: str) -> str | None:
        """Cancel a queued run at once, or ask the runner to stop a running one.

        Returns the run's status afterwards, or None if there is no such run.
        """
        with self.write() as db:
            row = db.execute("SELECT status FROM runs WHERE id = ?", (run_id,)).fetchone()
            if row is None:
                return None
            status = str(row["status"])
            if status == "queued":
                reason = "cancelled before it started"
                self._end(db, run_id, "cancelled", "failed", {"reason": reason, "cancelled": True})
                self._announce_positions(db)
                return "cancelled"
            if status == "running":
                db.execute("UPDATE runs SET cancel_requested = 1 WHERE id = ?", (run_id,))
            return status

    def _cancel_queued(self, column: str, value: str, reason: str) -> list[str]:
        with self.write() as db:
            ids = [
                row[0]
                for row in db.execute(
                    f"SELECT id FROM runs WHERE {column} = ? AND status = 'queued'", (value,)
                )
            ]
            for run_id in ids:
                self._end(db, run_id, "cancelled", "failed", {"reason": reason, "cancelled": True})
            self._announce_positions(db)
        return ids

    def cancel_queued_of_class(self, class_id: str, reason: str) -> list[str]:
        """Cancel every run of the class still waiting to start; returns their ids."""
        return self._cancel_queued("class_id", class_id, reason)

    def cancel_queued_of_owner(self, owner_id: str, reason: str) -> list[str]:
        """Cancel every run of one person still waiting to start; returns their ids."""
        return self._cancel_queued("owner_id", owner_id, reason)

    def hold_class(self, class_id: str) -> None:
        """Pause a class: its waiting runs keep their place but the runner skips them (a run
        already running finishes)."""
        with self.write() as db:
            db.execute(
                "INSERT OR IGNORE INTO held_classes (class_id, held_at) VALUES (?, ?)",
                (class_id, now_iso()),
            )
            self._announce_positions(db)

    def release_class(self, class_id: str) -> None:
        with self.write() as db:
            db.execute("DELETE FROM held_classes WHERE class_id = ?", (class_id,))
            self._announce_positions(db)

    def is_held(self, class_id: str) -> bool:
        with self.connect() as db:
            row = db.execute(
                "SELECT 1 FROM held_classes WHERE class_id = ?", (class_id,)
            ).fetchone()
        return row is not None

    def class_queue(self, class_id: str, ended: int = 100) -> list[tuple[Run, Place | None]]:
        """A class's runs for its instructor: waiting (in the order they will start, held
        last) and running first, then the `ended` newest that ended."""
        with self.read() as db:  # the places and the runs listed must be the same moment's
            places: dict[str, Place] = {}
            queue = self._queue(db)
            for position, (row, wait) in enumerate(
                zip(queue, self._waits(db, queue), strict=True), start=1
            ):
                places[row["id"]] = Place(position, round(wait))
            for row in self._queue(db, held=True):
                places[row["id"]] = Place(None, None, held=True)
            live = db.execute(
                "SELECT * FROM runs WHERE class_id = ? AND status IN ('queued', 'running') "
                f"ORDER BY status = 'queued', {QUEUE_ORDER}",
                (class_id,),
            ).fetchall()
            done = db.execute(
                "SELECT * FROM runs WHERE class_id = ? AND status NOT IN ('queued', 'running') "
                "ORDER BY finished_unix DESC LIMIT ?",
                (class_id, ended),
            ).fetchall()
        waiting = sorted(
            (r for r in live if r["status"] == "queued"),
            key=lambda r: (places[r["id"]].held, places[r["id"]].position or 0),
        )
        running = [r for r in live if r["status"] == "running"]
        return [(_run(r), places.get(r["id"])) for r in (*running, *waiting, *done)]

    def class_runs(self, class_id: str) -> list[Run]:
        """Every run of a class, oldest first: for its board and its CSV."""
        with self.connect() as db:
            rows = db.execute(
                "SELECT * FROM runs WHERE class_id = ? ORDER BY created_unix, queue_seq",
                (class_id,),
            ).fetchall()
        return [_run(r) for r in rows]

    def class_sweeps(self, class_id: str) -> list[Sweep]:
        with self.connect() as db:
            rows = db.execute(
                "SELECT * FROM sweeps WHERE class_id = ? ORDER BY created_at", (class_id,)
            ).fetchall()
        return [_sweep(r) for r in rows]

    def cancel_requested(self, run_id: str) -> bool:
        with self.connect() as db:
            row = db.execute("SELECT cancel_requested FROM runs WHERE id = ?", (run_id,)).fetchone()
        return bool(row and row[0])

    def _end(
        self,
        db: sqlite3.Connection,
        run_id: str,
        status: str,
        event_type: str,
        data: dict[str, Any],
        result: dict[str, Any] | None = None,
        error: str | None = None,
    ) -> Event | None:
        """End a run that has not ended yet: its status, result and last event together."""
        cursor = db.execute(
            "UPDATE runs SET status = ?, result = ?, error = ?, finished_at = ?, "
            "finished_unix = ?, lease_until = NULL "
            "WHERE id = ? AND status IN ('queued', 'running')",
            (
                status,
                json.dumps(result) if result is not None else None,
                error if error is not None else data.get("reason"),
                now_iso(),
                unix_now(),
                run_id,
            ),
        )
        if cursor.rowcount == 0:
            return None
        if event_type == "failed":
            data = {"logs": []} | data  # a failure always says what the server last logged
        return self._append(db, run_id, event_type, data)

    def finish(
        self,
        run_id: str,
        status: str,
        event_type: str,
        data: dict[str, Any],
        result: dict[str, Any] | None = None,
        error: str | None = None,
    ) -> Event | None:
        """End a run: its status and result, and its last event, in one transaction. A run
        that has already ended (its lease ran out and it was failed meanwhile) stays as it
        is, and None is returned."""
        with self.write() as db:
            return self._end(db, run_id, status, event_type, data, result, error)

    def fail_interrupted(self, reason: str, runner_id: str | None = None) -> list[str]:
        """Fail every run left `running` (by one runner, or by any): returns their ids."""
        with self.write() as db:
            query = "SELECT id FROM runs WHERE status = 'running'"
            params: tuple[Any, ...] = ()
            if runner_id is not None:
                query, params = query + " AND claimed_by = ?", (runner_id,)
            ids = [r["id"] for r in db.execute(query, params)]
            for run_id in ids:
                self._end(db, run_id, "failed", "failed", {"reason": reason})
        return ids

    def expire_leases(self) -> list[str]:
        """Fail every running run whose runner stopped renewing its lease; returns their ids.
        The runner, when it comes back, removes the run's containers."""
        now = unix_now()
        expired = (
            "SELECT id, claimed_by, lease_until FROM runs "
            "WHERE status = 'running' AND lease_until < ?"
        )
        with self.connect() as db:  # most checks find none: no write lock for those
            if db.execute(expired, (now,)).fetchone() is None:
                return []
        with self.write() as db:
            rows = db.execute(expired, (now,)).fetchall()
            for row in rows:
                lost = datetime.fromtimestamp(row["lease_until"], UTC).strftime("%H:%M:%S")
                reason = (
                    f"the runner ({row['claimed_by']}) stopped during this run: it last "
                    f"answered before {lost} UTC. Its containers are removed when it comes "
                    "back; run it again."
                )
                self._end(db, row["id"], "failed", "failed", {"reason": reason, "lost": True})
        return [row["id"] for row in rows]

    # --- events -----------------------------------------------------------------------------

    def append_event(self, run_id: str, type_: str, data: dict[str, Any]) -> Event:
        with self.write() as db:
            return self._append(db, run_id, type_, data)

    def events_after(self, run_id: str, after_seq: int = 0) -> list[Event]:
        with self.connect() as db:
            rows = db.execute(
                "SELECT * FROM events WHERE run_id = ? AND seq > ? ORDER BY seq",
                (run_id, after_seq),
            ).fetchall()
        return [Event(r["run_id"], r["seq"], r["type"], json.loads(r["data"])) for r in rows]

    # --- sweeps -------------------------------------------------------------------------------

    def create_sweep(
        self,
        request: dict[str, Any],
        points: Sequence[PlannedPoint],
        admission: Admission = Admission(),
    ) -> Sweep:
        """Admit and queue a sweep's runs and record it, all in one transaction: either every
        point is queued, or none."""
        sweep_id = uuid.uuid4().hex
        stored: list[dict[str, Any]] = []
        runs: list[tuple[str, str, dict[str, Any]]] = []
        for server, value, run_request, skipped in points:
            run_id = None
            if run_request is not None:
                run_id = uuid.uuid4().hex
                runs.append((run_id, server, run_request))
            why = None if run_id else skipped
            stored.append({"server": server, "value": value, "run_id": run_id, "skipped": why})
        created = now_iso()
        with self.write() as db:
            self._admit(db, admission, [expected_seconds(r) for _, _, r in runs])
            self._insert_runs(db, admission, runs)
            db.execute(
                "INSERT INTO sweeps (id, request, points, created_at, owner_id, class_id) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    sweep_id,
                    json.dumps(request),
                    json.dumps(stored),
                    created,
                    admission.owner_id,
                    admission.class_id,
                ),
            )
            self._announce_positions(db)
        return Sweep(sweep_id, request, stored, created, admission.owner_id, admission.class_id)

    def get_sweep(self, sweep_id: str) -> Sweep | None:
        with self.connect() as db:
            row = db.execute("SELECT * FROM sweeps WHERE id = ?", (sweep_id,)).fetchone()
        return _sweep(row) if row else None

    # --- runner status ------------------------------------------------------------------------

    def put_runner_status(self, data: dict[str, Any]) -> None:
        with self.write() as db:
            db.execute(
                "INSERT INTO runner_status (id, updated_at, data) VALUES (1, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at, "
                "data = excluded.data",
                (unix_now(), json.dumps(data)),
            )

    def runner_status(self) -> tuple[float, dict[str, Any]] | None:
        """The runner's last heartbeat: (unix time, what it reported), or None if never."""
        with self.connect() as db:
            row = db.execute("SELECT updated_at, data FROM runner_status WHERE id = 1").fetchone()
        return (float(row[0]), json.loads(row[1])) if row else None
