"""The runs domain's queries: runs, their events, the queue and its clock, leases (the tables
are declared in tables.py).

The runs table is also the queue, and admission happens inside the write that queues: one
transaction counts what the person and the site already have waiting, refuses or inserts. No
burst of requests can get past a limit between a check and an insert. Every write that changes
the queue first locks its one `queue_state` row, so on PostgreSQL, where writers otherwise run
side by side, they take turns as they do on SQLite, and what one checked still holds when it
commits. Those writes take milliseconds and come a few a second at most: taking turns costs
nothing a class would notice.

Fair share is start-time fair queueing. Every queued run carries a virtual start tag: the later
of the queue's virtual clock and the finish tag of its owner's latest run still waiting or
running; its finish tag is that plus the seconds it is expected to take. The runner claims the
instructor's runs first, then the smallest start tag, ties in the order they came. So a sweep's
points get successive tags and interleave with other people's single runs instead of holding
the runner for minutes, and a person with nothing waiting starts at the clock: joining late
costs nothing, and waiting idle earns nothing. Positions follow that order exactly, and every
run whose position changes is told so by a new `queued` event with its estimated wait.
"""

import heapq
import json
import math
import statistics
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import BaseModel
from sqlalchemy import (
    ColumnElement,
    Connection,
    Row,
    Select,
    Table,
    and_,
    case,
    delete,
    func,
    insert,
    not_,
    or_,
    select,
    true,
    update,
)

from c10klab.db import Database, now_iso, unix_now
from c10klab.errors import InvalidRequest, Message, Phrase, QueueFull
from c10klab.hosts.store import RunnerStore
from c10klab.news import announce, class_topic, run_topic
from c10klab.results.schemas import (
    AnyRunEvent,
    EndEvent,
    FailedData,
    FailedEvent,
    QueuedData,
    QueuedEvent,
    RequeuedData,
    RequeuedEvent,
    RunResult,
)
from c10klab.runs.schemas import RunRequest
from c10klab.runs.tables import events, held_classes, queue_state, runs

# A variant's check run: a compile (seconds; a build is cached once made) and two short checks.
CHECK_RUN_S = 20.0
TERMINAL_EVENTS = frozenset({"done", "checked", "failed"})
# The queue's order: the instructor's runs first, then by virtual start tag, then arrival.
QUEUE_ORDER = (runs.c.priority.desc(), runs.c.vstart, runs.c.queue_seq)
# A queued run of a class its instructor paused waits, keeping its tags, until it is released.
HELD = and_(runs.c.class_id.is_not(None), runs.c.class_id.in_(select(held_classes.c.class_id)))
QUEUED = runs.c.status == "queued"
# The owner of the runs a runner makes for itself: no person's id (people's ids are uuids, and
# "solo"), so no history lists them.
RUNNER_OWNER = "runner"
LIVE = runs.c.status.in_(("queued", "running"))
# Seconds a run takes beyond its load: two containers started, readiness and one reply
# verified, the server stopped, both removed (0.4 s on the course's reference machine, in
# results/hosting.md; the waits announced follow the real pace, see Store._pace).
RUN_OVERHEAD_S = 1.0
# Finished runs whose real length against their expected one paces the waits announced.
PACE_SAMPLE = 20


def expected_seconds(request: RunRequest) -> float:
    """How long the runner is expected to be busy with a run."""
    if request.check_only:
        return CHECK_RUN_S
    load = request.ramp_s + request.warmup_s + request.duration_s
    return (load + RUN_OVERHEAD_S) * request.repetitions


class LeaseLost(Exception):
    """A runner was about to write to a run it no longer holds: its lease ran out (the run was
    queued again, perhaps claimed by another runner, or failed) or the run ended. Nothing was
    written."""

    def __init__(self, lease: "Lease") -> None:
        super().__init__(f"run {lease.run_id} is no longer held by {lease.runner_id}")
        self.lease = lease


@dataclass(frozen=True)
class Lease:
    """A runner's hold on a run: the run, the runner, and which claim of the run it is. A run
    queued again after its runner was lost is claimed anew, perhaps by the same runner, so the
    claim's number is what tells a stale hold from the current one."""

    run_id: str
    runner_id: str
    claim: int

    def held(self) -> ColumnElement[bool]:
        """The run's row while this lease still holds it: running, under this claim, and
        not past its lease, even if no one has noticed yet that it ran out."""
        return and_(
            runs.c.id == self.run_id,
            runs.c.status == "running",
            runs.c.claimed_by == self.runner_id,
            runs.c.claims == self.claim,
            runs.c.lease_until >= unix_now(),
        )


@dataclass(frozen=True)
class Run:
    id: str
    server: str
    status: str
    request: RunRequest
    result: dict[str, Any] | None
    error: str | None
    cancel_requested: bool
    created_at: str
    started_at: str | None
    finished_at: str | None
    owner_id: str = "solo"
    class_id: str | None = None
    lease: Lease | None = None  # while running: the runner's hold, as the row was read


@dataclass(frozen=True)
class Event:
    run_id: str
    seq: int
    type: str
    data: dict[str, Any]


class Finished(NamedTuple):
    """A run that ended done with figures: what was asked, what it measured, and when it ended."""

    request: RunRequest
    result: RunResult
    finished_at: str


class Place(NamedTuple):
    """Where a queued run stands: 1 = next to start, and the estimated seconds until then;
    a held run (its class is paused) has neither until its class resumes."""

    position: int | None
    wait_s: float | None
    held: bool = False


# Where a run stands that is not waiting (it has started or ended): nowhere in the queue.
NOT_QUEUED = Place(None, None)


@dataclass(frozen=True)
class Admission:
    """Who is queueing, and the limits the request must fit in. They are checked in the
    same transaction that queues it. None: no such limit."""

    owner_id: str = "solo"
    class_id: str | None = None
    browser: str | None = None  # solo mode: the browser queueing it, for its history
    priority: int = 0  # 1: an instructor's runs, claimed before anyone else's
    queued_per_person: int | None = None
    # A class's students together (a share of the site's queue that no number of names
    # joined passes).
    queued_per_class: int | None = None
    runs_per_minute: int | None = None
    queued_site: int = 1000


@dataclass(frozen=True)
class Scope:
    """Whose runs a listing covers: everyone's (the runners' own A/A runs too, unless
    `people_only`), or one owner's and those of the given classes."""

    everyone: bool = False
    owner_id: str | None = None
    class_ids: tuple[str, ...] = ()
    people_only: bool = False

    def where(self) -> ColumnElement[bool]:
        if self.everyone:
            return runs.c.owner_id != RUNNER_OWNER if self.people_only else true()
        return or_(runs.c.owner_id == self.owner_id, runs.c.class_id.in_(self.class_ids))


@dataclass(frozen=True)
class OfClass:
    """A class's runs: its students' (they carry its id), and, given its teachers, the runs
    they made themselves while it ran (in no class: what they showed it)."""

    class_id: str
    teachers: tuple[str, ...] = ()
    since_unix: float = 0.0
    until_unix: float | None = None

    def where(self) -> ColumnElement[bool]:
        own = runs.c.class_id == self.class_id
        if not self.teachers:
            return own
        shown = [
            runs.c.class_id.is_(None),
            runs.c.owner_id.in_(self.teachers),
            runs.c.created_unix >= self.since_unix,
        ]
        if self.until_unix is not None:
            shown.append(runs.c.created_unix <= self.until_unix)
        return or_(own, and_(*shown))


@dataclass(frozen=True)
class Mine:
    """One learner's own runs and sweeps, as their history lists them: a person's in a class,
    and in solo mode (one implicit person) those its browser queued, and those queued before
    browsers were told apart (migration 0003), which were all that one person's."""

    owner_id: str
    browser: str | None = None

    def where(
        self, owner: ColumnElement[str], browser: ColumnElement[str | None]
    ) -> ColumnElement[bool]:
        if self.owner_id != "solo":
            return owner == self.owner_id
        return and_(owner == self.owner_id, or_(browser == self.browser, browser.is_(None)))

    def newest(self, table: Table, *columns: ColumnElement[Any]) -> Select[Any]:
        """This learner's rows of a table of theirs (runs, sweeps, variants: each has
        `owner_id`, `browser` and `created_at`), newest first; all columns unless some are named."""
        return (
            select(*columns or [table])
            .where(self.where(table.c.owner_id, table.c.browser))
            .order_by(table.c.created_at.desc())
        )


def _request(server: str, stored: str) -> RunRequest:
    """A stored request as its model. Every row was written from this model's dump (older ones
    without the tags they did not need, `lesson` and the like): a field added since takes its
    default, and a request stored without its server (as the previous version's test store
    holds) takes the row's."""
    return RunRequest.model_validate({"server": server} | json.loads(stored))


def _json(model: BaseModel) -> str:
    """A model as the store keeps it: its JSON, every field (defaults and nulls too)."""
    return json.dumps(model.model_dump(mode="json"))


def _new_run(run_id: str, request: RunRequest, status: str, created_unix: float) -> dict[str, Any]:
    """The columns every new run is written with, whether queued or begun at once by a runner:
    what it runs, as asked, and when it was made."""
    created_at = datetime.fromtimestamp(created_unix, UTC).isoformat(timespec="milliseconds")
    return {
        "id": run_id,
        "server": request.server,
        "status": status,
        "request": _json(request),
        "created_at": created_at,
        "created_unix": created_unix,
    }


def _run(row: Row[Any]) -> Run:
    return Run(
        id=row.id,
        server=row.server,
        status=row.status,
        request=_request(row.server, row.request),
        result=json.loads(row.result) if row.result else None,
        error=row.error,
        cancel_requested=bool(row.cancel_requested),
        created_at=row.created_at,
        started_at=row.started_at,
        finished_at=row.finished_at,
        owner_id=row.owner_id,
        class_id=row.class_id,
        lease=(
            Lease(row.id, row.claimed_by, row.claims)
            if row.status == "running" and row.claimed_by
            else None
        ),
    )


def _retry_after(seconds: float) -> int:
    return max(1, math.ceil(seconds))


# --- the queue's limits, as refused: more runs at once than a limit ever takes (422), or than
# it has room for now (429). `wanted`: the runs asked for; `most`: the limit.
NEVER_COURSE = Phrase(
    "batch-past-course-queue",
    "this asks for {wanted} runs; the course queues at most {most} at a time",
)
NEVER_PERSON = Phrase(
    "batch-past-person-queue",
    "this asks for {wanted} runs; one person may have at most {most} waiting "
    "(use fewer values or servers)",
)
NEVER_CLASS = Phrase(
    "batch-past-class-queue",
    "this asks for {wanted} runs; a class's students together may have at most {most} waiting",
)
NEVER_MINUTE = Phrase(
    "batch-past-minute-limit",
    "this asks for {wanted} runs; one person may start at most {most} a minute "
    "(use fewer values or servers)",
)
COURSE_FULL = Phrase(
    "course-queue-full",
    "the course's queue is full: {waiting} runs are waiting (at most {most}). "
    "Try again in about {retry} s.",
)
# English says "1 run" but "2 runs": where a count decides, there is a phrase for one, so that
# each is worded whole in every language.
COURSE_ROOM = Phrase(
    "course-queue-room",
    "the course's queue has room for {room} more runs and this asks for {wanted}: {waiting} "
    "are waiting (at most {most}). Try again in about {retry} s, or ask for fewer.",
)
COURSE_ROOM_ONE = Phrase(
    "course-queue-room-one",
    "the course's queue has room for {room} more run and this asks for {wanted}: {waiting} "
    "are waiting (at most {most}). Try again in about {retry} s, or ask for fewer.",
)
PERSON_FULL = Phrase(
    "person-queue-full",
    "you already have {waiting} runs waiting and may have at most {most}: try again in about "
    "{retry} s, when enough of them have started to make room for {wanted} more, or cancel one",
)
PERSON_FULL_ONE = Phrase(
    "person-queue-full-one",
    "you already have {waiting} run waiting and may have at most {most}: try again in about "
    "{retry} s, when enough of them have started to make room for {wanted} more, or cancel one",
)
CLASS_FULL = Phrase(
    "class-queue-full",
    "your class already has {waiting} runs waiting and may have at most {most} (its share of "
    "the course's queue): try again in about {retry} s",
)
CLASS_FULL_ONE = Phrase(
    "class-queue-full-one",
    "your class already has {waiting} run waiting and may have at most {most} (its share of "
    "the course's queue): try again in about {retry} s",
)
MINUTE_FULL = Phrase(
    "minute-limit-reached",
    "you asked for {asked} runs in the last minute and may ask for at most {most} a minute: "
    "try again in about {retry} s for {wanted} more runs",
)
MINUTE_FULL_ONE = Phrase(
    "minute-limit-reached-one",
    "you asked for {asked} runs in the last minute and may ask for at most {most} a minute: "
    "try again in about {retry} s for {wanted} more run",
)


def _counted(count: int, one: Phrase, other: Phrase) -> Phrase:
    return one if count == 1 else other


class RunStore(Database):
    def __init__(self, where: str | Path) -> None:
        super().__init__(where)
        self.hosts = RunnerStore(where)  # how many runners serve the queue, for its waits

    @staticmethod
    def _append(db: Connection, run_id: str, event: AnyRunEvent) -> Event:
        # The run's row is locked first: two writers appending to one run on PostgreSQL (the
        # runner's progress, the API ending it) would otherwise both take the same number.
        class_id = db.execute(
            select(runs.c.class_id).where(runs.c.id == run_id).with_for_update()
        ).scalar()
        seq = db.execute(
            select(func.coalesce(func.max(events.c.seq), 0) + 1).where(events.c.run_id == run_id)
        ).scalar_one()
        data = event.data.model_dump(mode="json")
        db.execute(
            insert(events).values(
                run_id=run_id, seq=seq, type=event.type, data=json.dumps(data), created_at=now_iso()
            )
        )
        announce(db, run_topic(run_id))  # wakes the run's streams when this commits
        if class_id is not None and event.type in TERMINAL_EVENTS:
            announce(db, class_topic(class_id))  # a presented sweep's table has a new point
        return Event(run_id, seq, event.type, data)

    # --- the queue ------------------------------------------------------------------------

    @staticmethod
    def _lock_queue(db: Connection) -> None:
        """Take the queue's turn (see the module's docstring). SQLite's write transaction
        holds the whole file already, and renders no FOR UPDATE."""
        db.execute(select(queue_state.c.id).where(queue_state.c.id == 1).with_for_update())

    @staticmethod
    def _queue(db: Connection, held: bool = False) -> list[Row[Any]]:
        """The runs waiting to start, in the order they will; with held=True the held ones
        instead (those of paused classes, which the runner skips)."""
        columns = (
            runs.c.id,
            runs.c.owner_id,
            runs.c.class_id,
            runs.c.expected_s,
            runs.c.announced_position,
        )
        which = HELD if held else not_(HELD)
        return list(db.execute(select(*columns).where(QUEUED, which).order_by(*QUEUE_ORDER)))

    @staticmethod
    def _pace(db: Connection) -> float:
        """How long runs really take against what was expected of them: the median ratio
        over the last PACE_SAMPLE finished runs (1 before there are any). The fixed overhead
        in expected_seconds() is a guess; this keeps the waits people are told honest on
        whatever host the course runs."""
        ratios = db.execute(
            select((runs.c.finished_unix - runs.c.started_unix) / runs.c.expected_s)
            .where(
                runs.c.status == "done",
                runs.c.finished_unix.is_not(None),
                runs.c.started_unix.is_not(None),
                runs.c.expected_s > 0,
            )
            .order_by(runs.c.finished_unix.desc())
            .limit(PACE_SAMPLE)
        ).scalars()
        sample = [float(r) for r in ratios]
        return statistics.median(sample) if sample else 1.0

    def _waits(self, db: Connection, queue: list[Row[Any]]) -> list[float]:
        """Seconds until each queued run (in queue order) is expected to start, at the pace
        runs really go: each live runner is free once its running run ends, and each run
        goes to the runner free first."""
        now, pace = unix_now(), self._pace(db)
        running = db.execute(
            select(runs.c.expected_s, runs.c.started_unix).where(runs.c.status == "running")
        )
        free_at = [max(1.0, r.expected_s * pace - (now - (r.started_unix or now))) for r in running]
        free_at += [0.0] * max(0, self.runner_count(db) - len(free_at))
        heapq.heapify(free_at)
        waits = []
        for row in queue:
            start = heapq.heappop(free_at)
            waits.append(start)
            heapq.heappush(free_at, start + row.expected_s * pace)
        return waits

    def runner_count(self, db: Connection) -> int:
        """How many runners serve the queue: the live ones (at least one: with none, the
        queue waits for the first to come)."""
        return max(1, self.hosts.count_live(db))

    def _announce_positions(self, db: Connection) -> None:
        """A `queued` event for every waiting run whose position changed (or was never said)."""
        queue = self._queue(db)
        for position, (row, wait) in enumerate(
            zip(queue, self._waits(db, queue), strict=True), start=1
        ):
            if row.announced_position == position:
                continue
            self._set(db, row.id, announced_position=position)
            place = QueuedData(position=position, wait_s=round(wait))
            self._append(db, row.id, QueuedEvent(type="queued", data=place))
        for row in self._queue(db, held=True):  # announced_position 0: said to be held
            if row.announced_position == 0:
                continue
            self._set(db, row.id, announced_position=0)
            held = QueuedData(position=None, wait_s=None, held=True)
            self._append(db, row.id, QueuedEvent(type="queued", data=held))

    @staticmethod
    def _set(db: Connection, run_id: str, **values: Any) -> None:
        """Change columns of one run's row: each step of the queue (a place announced, a claim,
        a cancel asked for, a lost run queued again) writes to the one run it moves."""
        db.execute(update(runs).where(runs.c.id == run_id).values(**values))

    @staticmethod
    def _check_limit(
        limit: int,
        room_after: list[float],
        wanted: int,
        never: Phrase,
        full: Callable[[int, int], Message],
    ) -> None:
        """One limit. `room_after` has, for each run counted against it now, the seconds until
        it stops counting (it starts, or leaves the last minute), soonest first. `full` says,
        from how many are counted now and when to try again, that there is no room."""
        if wanted > limit:
            raise InvalidRequest(never(wanted=wanted, most=limit))
        over = len(room_after) + wanted - limit
        if over > 0:
            retry = _retry_after(room_after[over - 1])
            raise QueueFull(full(len(room_after), retry), retry)

    def _admit(self, db: Connection, admission: Admission, costs: list[float]) -> None:
        """Refuse, with when to try again, what would take the site or the person past a
        limit. Runs in the write transaction that then queues the runs."""
        wanted = len(costs)
        # Held runs count too (pausing a class must not let its students queue past their
        # limit); they are taken to start after everything else.
        queue = self._queue(db) + self._queue(db, held=True)
        waits = self._waits(db, queue)

        def waits_of(counted: Callable[[Row[Any]], bool]) -> list[float]:
            """The waits of the queued runs that one person's or class's limit counts."""
            return [w for w, row in zip(waits, queue, strict=True) if counted(row)]

        site = admission.queued_site
        self._check_limit(
            site,
            waits,
            wanted,
            NEVER_COURSE,
            lambda n, retry: (
                COURSE_FULL(waiting=n, most=site, retry=retry)
                if n >= site
                else _counted(site - n, COURSE_ROOM_ONE, COURSE_ROOM)(
                    room=site - n, wanted=wanted, waiting=n, most=site, retry=retry
                )
            ),
        )
        limit = admission.queued_per_person
        if limit is not None:
            self._check_limit(
                limit,
                waits_of(lambda row: row.owner_id == admission.owner_id),
                wanted,
                NEVER_PERSON,
                lambda n, retry: _counted(n, PERSON_FULL_ONE, PERSON_FULL)(
                    waiting=n, most=limit, retry=retry, wanted=wanted
                ),
            )
        share = admission.queued_per_class
        if share is not None and admission.class_id is not None:
            self._check_limit(
                share,
                waits_of(lambda row: row.class_id == admission.class_id),
                wanted,
                NEVER_CLASS,
                lambda n, retry: _counted(n, CLASS_FULL_ONE, CLASS_FULL)(
                    waiting=n, most=share, retry=retry
                ),
            )
        per_minute = admission.runs_per_minute
        if per_minute is not None:
            now = unix_now()
            recent = db.execute(
                select(runs.c.created_unix)
                .where(runs.c.owner_id == admission.owner_id, runs.c.created_unix > now - 60)
                .order_by(runs.c.created_unix)
            ).scalars()
            self._check_limit(
                per_minute,
                [created + 60 - now for created in recent],
                wanted,
                NEVER_MINUTE,
                lambda n, retry: _counted(wanted, MINUTE_FULL_ONE, MINUTE_FULL)(
                    asked=n, most=per_minute, retry=retry, wanted=wanted
                ),
            )

    def _insert_runs(
        self,
        db: Connection,
        admission: Admission,
        new_runs: list[tuple[str, RunRequest]],
    ) -> None:
        """Queue (id, request) runs in this order, each tagged after the last."""
        clock, seq = db.execute(
            select(queue_state.c.vclock, queue_state.c.next_seq).where(queue_state.c.id == 1)
        ).one()
        latest = db.execute(
            select(func.max(runs.c.vfinish)).where(runs.c.owner_id == admission.owner_id, LIVE)
        ).scalar()
        tag = max(clock, latest or 0.0)
        created_unix = unix_now()
        for run_id, request in new_runs:
            cost = expected_seconds(request)
            db.execute(
                insert(runs).values(
                    **_new_run(run_id, request, "queued", created_unix),
                    owner_id=admission.owner_id,
                    class_id=admission.class_id,
                    browser=admission.browser,
                    priority=admission.priority,
                    vstart=tag,
                    vfinish=tag + cost,
                    expected_s=cost,
                    queue_seq=seq,
                )
            )
            tag, seq = tag + cost, seq + 1
        db.execute(update(queue_state).where(queue_state.c.id == 1).values(next_seq=seq))

    def queue(
        self, db: Connection, admission: Admission, new_runs: list[tuple[str, RunRequest]]
    ) -> None:
        """Admit and queue (id, request) runs in this order, inside the caller's write
        transaction (a sweep records itself in the same one): all of them, or none."""
        self._lock_queue(db)
        self._admit(db, admission, [expected_seconds(r) for _, r in new_runs])
        self._insert_runs(db, admission, new_runs)
        self._announce_positions(db)

    @staticmethod
    def unfinished_among(db: Connection, run_ids: list[str]) -> int:
        """How many of these runs are queued or running, inside the caller's transaction."""
        if not run_ids:
            return 0
        active = runs.c.status.in_(("queued", "running"))
        count = select(func.count()).where(runs.c.id.in_(run_ids), active)
        return int(db.execute(count).scalar_one())

    # --- runs -------------------------------------------------------------------------------

    def count_queued(self) -> int:
        with self.connect() as db:
            return int(db.execute(select(func.count()).where(QUEUED)).scalar_one())

    def create_run(
        self, request: RunRequest, admission: Admission = Admission()
    ) -> tuple[Run, Place]:
        """Admit and queue a run; returns it and where it stands in the queue."""
        run_id = uuid.uuid4().hex
        with self.write() as db:
            self.queue(db, admission, [(run_id, request)])
            row = db.execute(select(runs).where(runs.c.id == run_id)).one()
            place = self._place(db, run_id)
        assert place is not None  # queued in this very transaction
        return _run(row), place

    def begin_own_run(self, runner_id: str, request: RunRequest, lease_s: float) -> Run:
        """A run a runner makes for itself (measuring its host's noise): started at once and
        held by that runner, never queued, so no other runner takes it and no one waits
        behind it; owned by RUNNER_OWNER, no person's."""
        run_id, now = uuid.uuid4().hex, unix_now()
        with self.write() as db:
            db.execute(
                insert(runs).values(
                    **_new_run(run_id, request, "running", now),
                    started_at=now_iso(),
                    started_unix=now,
                    owner_id=RUNNER_OWNER,
                    claimed_by=runner_id,
                    lease_until=now + lease_s,
                    claims=1,
                )
            )
            row = db.execute(select(runs).where(runs.c.id == run_id)).one()
        return _run(row)

    def recent_results(self, runner_id: str, limit: int, since_unix: float) -> list["Finished"]:
        """The runs this runner finished done with figures since then, newest first (a
        variant's check run ends done too, with a check's outcome and no figures: left out)."""
        with self.connect() as db:
            rows = db.execute(
                select(runs.c.server, runs.c.request, runs.c.result, runs.c.finished_at)
                .where(runs.c.claimed_by == runner_id, runs.c.status == "done")
                .where(runs.c.result.is_not(None), runs.c.finished_unix >= since_unix)
                .order_by(runs.c.finished_unix.desc())
                .limit(limit)
            )
            finished = [(_request(r.server, r.request), r.result, r.finished_at) for r in rows]
        return [
            Finished(request, RunResult.model_validate_json(result), finished_at)
            for request, result, finished_at in finished
            if not request.check_only
        ]

    def get_run(self, run_id: str) -> Run | None:
        row = self.first_row(select(runs).where(runs.c.id == run_id))
        return _run(row) if row else None

    def _place(self, db: Connection, run_id: str) -> Place | None:
        queue = self._queue(db)
        index = next((i for i, row in enumerate(queue) if row.id == run_id), None)
        if index is not None:
            return Place(index + 1, round(self._waits(db, queue)[index]))
        if any(row.id == run_id for row in self._queue(db, held=True)):
            return Place(None, None, held=True)
        return None  # not queued (any more)

    def queue_place(self, run: Run) -> Place | None:
        """Where a queued run stands now; None once it has started or ended."""
        if run.status != "queued":
            return None
        with self.read() as db:
            return self._place(db, run.id)

    def list_runs(self, scope: Scope, limit: int = 50) -> list[Run]:
        with self.connect() as db:
            rows = db.execute(
                select(runs)
                .where(scope.where())
                .order_by(runs.c.created_at.desc(), runs.c.queue_seq.desc())
                .limit(limit)
            )
            return [_run(r) for r in rows]

    def history(self, mine: "Mine", limit: int) -> list[Run]:
        """One learner's newest runs (a sweep's among them): see Mine."""
        # Between runs created at the same moment, the one queued later is the newer.
        newest = mine.newest(runs).order_by(runs.c.queue_seq.desc()).limit(limit)
        return [_run(r) for r in self.rows(newest)]

    def claim_next(self, runner_id: str = "local", lease_s: float = 3600) -> Run | None:
        """Take the first run in fair-share order for a runner, holding it for `lease_s`
        seconds unless renewed, and tell the runs behind it that they moved up. The row is
        locked as it is taken (FOR UPDATE SKIP LOCKED on PostgreSQL): whatever else happens,
        no two runners can both take one run."""
        first = select(runs).where(QUEUED, not_(HELD)).order_by(*QUEUE_ORDER).limit(1)
        with self.connect() as db:  # an idle runner asks often: no write lock for nothing
            if db.execute(first).first() is None:
                return None
        with self.write() as db:
            self._lock_queue(db)
            row = db.execute(first.with_for_update(skip_locked=True, of=runs)).first()
            if row is None:  # another runner took it meanwhile
                return None
            now = unix_now()
            self._set(
                db,
                row.id,
                status="running",
                started_at=now_iso(),
                started_unix=now,
                claimed_by=runner_id,
                lease_until=now + lease_s,
                claims=runs.c.claims + 1,
            )
            clock = queue_state.c.vclock
            db.execute(
                update(queue_state)
                .where(queue_state.c.id == 1)
                .values(vclock=case((clock < row.vstart, row.vstart), else_=clock))
            )
            self._announce_positions(db)
            claimed = db.execute(select(runs).where(runs.c.id == row.id)).one()
        return _run(claimed)

    def renew_lease(self, lease: Lease, lease_s: float) -> bool:
        """Extend a runner's hold on its run; False if the run is no longer its to run (a lease
        that ran out is not renewed, even before anyone noticed: the run is someone else's
        to end or queue again)."""
        with self.write() as db:
            renewed = db.execute(
                update(runs).where(lease.held()).values(lease_until=unix_now() + lease_s)
            )
        return renewed.rowcount == 1

    @staticmethod
    def _hold(db: Connection, lease: Lease) -> None:
        """Lock the run's row if the lease still holds it, for the rest of the transaction
        (expiring the lease waits behind it); else LeaseLost."""
        if db.execute(select(runs.c.id).where(lease.held()).with_for_update()).first() is None:
            raise LeaseLost(lease)

    def request_cancel(self, run_id: str) -> str | None:
        """Cancel a queued run at once, or ask the runner to stop a running one.

        Returns the run's status afterwards, or None if there is no such run.
        """
        with self.write() as db:
            self._lock_queue(db)
            status = db.execute(select(runs.c.status).where(runs.c.id == run_id)).scalar()
            if status is None:
                return None
            if status == "queued":
                cancelled = FailedData(reason="cancelled before it started", cancelled=True)
                self._end(db, run_id, "cancelled", FailedEvent(type="failed", data=cancelled))
                self._announce_positions(db)
                return "cancelled"
            if status == "running":
                self._set(db, run_id, cancel_requested=1)
            return str(status)

    def _cancel_queued(self, whose: ColumnElement[bool], reason: str) -> list[str]:
        with self.write() as db:
            self._lock_queue(db)
            ids = list(db.execute(select(runs.c.id).where(whose, QUEUED)).scalars())
            cancelled = FailedEvent(type="failed", data=FailedData(reason=reason, cancelled=True))
            for run_id in ids:
                self._end(db, run_id, "cancelled", cancelled)
            self._announce_positions(db)
        return ids

    def cancel_queued_of_class(self, class_id: str, reason: str) -> list[str]:
        """Cancel every run of the class still waiting to start; returns their ids."""
        return self._cancel_queued(runs.c.class_id == class_id, reason)

    def cancel_queued_of_owner(self, owner_id: str, reason: str) -> list[str]:
        """Cancel every run of one person still waiting to start; returns their ids."""
        return self._cancel_queued(runs.c.owner_id == owner_id, reason)

    def hold_class(self, class_id: str) -> None:
        """Pause a class: its waiting runs keep their place but the runner skips them (a run
        already running finishes)."""
        with self.write() as db:
            self._lock_queue(db)
            db.execute(
                self.insert_ignoring_conflicts(
                    held_classes, {"class_id": class_id, "held_at": now_iso()}
                )
            )
            self._announce_positions(db)
            announce(db, class_topic(class_id))  # its stream shows it paused

    def release_class(self, class_id: str) -> None:
        with self.write() as db:
            self._lock_queue(db)
            db.execute(delete(held_classes).where(held_classes.c.class_id == class_id))
            self._announce_positions(db)
            announce(db, class_topic(class_id))

    def is_held(self, class_id: str) -> bool:
        with self.connect() as db:
            held = db.execute(
                select(held_classes.c.class_id).where(held_classes.c.class_id == class_id)
            )
            return held.first() is not None

    def class_queue(
        self, class_id: str | OfClass, ended: int = 100
    ) -> list[tuple[Run, Place | None]]:
        """A class's runs for its instructor: waiting (in the order they will start, held
        last) and running first, then the `ended` newest that ended."""
        of = class_id if isinstance(class_id, OfClass) else OfClass(class_id)
        with self.read() as db:  # the places and the runs listed must be the same moment's
            places: dict[str, Place] = {}
            queue = self._queue(db)
            for position, (row, wait) in enumerate(
                zip(queue, self._waits(db, queue), strict=True), start=1
            ):
                places[row.id] = Place(position, round(wait))
            for row in self._queue(db, held=True):
                places[row.id] = Place(None, None, held=True)
            of_class = of.where()
            live = db.execute(
                select(runs).where(of_class, LIVE).order_by(QUEUED, *QUEUE_ORDER)
            ).all()
            done = db.execute(
                select(runs)
                .where(of_class, not_(LIVE))
                .order_by(runs.c.finished_unix.desc())
                .limit(ended)
            ).all()
        waiting = sorted(
            (r for r in live if r.status == "queued"),
            key=lambda r: (places[r.id].held, places[r.id].position or 0),
        )
        running = [r for r in live if r.status == "running"]
        return [(_run(r), places.get(r.id)) for r in (*running, *waiting, *done)]

    def class_runs(self, class_id: str | OfClass) -> list[Run]:
        """Every run of a class, oldest first: for its board and its CSV."""
        of = class_id if isinstance(class_id, OfClass) else OfClass(class_id)
        with self.connect() as db:
            rows = db.execute(
                select(runs).where(of.where()).order_by(runs.c.created_unix, runs.c.queue_seq)
            )
            return [_run(r) for r in rows]

    def cancel_requested(self, run_id: str) -> bool:
        with self.connect() as db:
            asked = db.execute(select(runs.c.cancel_requested).where(runs.c.id == run_id))
            return bool(asked.scalar())

    def _end(
        self,
        db: Connection,
        run_id: str,
        status: str,
        event: EndEvent,
        error: str | None = None,
        still: ColumnElement[bool] = LIVE,
    ) -> Event | None:
        """End a run that is `still` as it was (by default: not ended yet): its status, its
        last event, and the result that event carries (a failure has none, and its reason is
        the run's error unless `error` says otherwise), together."""
        failed = isinstance(event, FailedEvent)
        reason = event.data.reason if isinstance(event, FailedEvent) else None
        ended = db.execute(
            update(runs)
            .where(runs.c.id == run_id, still)
            .values(
                status=status,
                result=None if failed else _json(event.data),
                error=error if error is not None else reason,
                finished_at=now_iso(),
                finished_unix=unix_now(),
                lease_until=None,
            )
        )
        if ended.rowcount == 0:
            return None
        return self._append(db, run_id, event)

    def finish(self, lease: Lease, status: str, event: EndEvent, error: str | None = None) -> Event:
        """A runner ends the run it holds: its status and result, and its last event, in one
        transaction. A run the lease no longer holds (it ran out, and the run was queued
        again, claimed by another, or failed; or it was ended otherwise) stays as it is:
        LeaseLost."""
        with self.write() as db:
            ended = self._end(db, lease.run_id, status, event, error, still=lease.held())
        if ended is None:
            raise LeaseLost(lease)
        return ended

    def recover_interrupted(self, reason: str, runner_id: str | None = None) -> list[str]:
        """After a runner restarts: every run it (or, with no id, any runner) left `running`
        is treated as a lost lease is (`expire_leases`): queued again, once, if its load had
        not begun, else failed with `reason`. Returns their ids."""
        with self.write() as db:
            self._lock_queue(db)
            running = select(runs).where(runs.c.status == "running")
            if runner_id is not None:
                running = running.where(runs.c.claimed_by == runner_id)
            rows = db.execute(running).all()
            for row in rows:
                if row.measuring_unix is None and row.requeued == 0:
                    self._queue_again(db, row.id, "its runner restarted before it began measuring")
                else:
                    failed = FailedEvent(type="failed", data=FailedData(reason=reason))
                    self._end(db, row.id, "failed", failed)
            self._announce_positions(db)
        return [row.id for row in rows]

    def began_measuring(self, lease: Lease) -> None:
        """The run's load has started: from now on, losing its runner fails it. LeaseLost if
        the run is no longer the runner's: its load must not start."""
        with self.write() as db:
            self._hold(db, lease)
            db.execute(
                update(runs)
                .where(runs.c.id == lease.run_id, runs.c.measuring_unix.is_(None))
                .values(measuring_unix=unix_now())
            )

    def expire_leases(self) -> list[str]:
        """End the hold of every runner that stopped renewing its lease; returns the runs it
        held. A run whose load had not started yet is queued again, once, at the place it had
        (a runner lost while starting containers costs it nothing it measured); any other is
        failed. The runner, when it comes back, removes the run's containers."""
        now = unix_now()
        expired = select(runs).where(runs.c.status == "running", runs.c.lease_until < now)
        with self.connect() as db:  # most checks find none: no write lock for those
            if db.execute(expired).first() is None:
                return []
        with self.write() as db:
            self._lock_queue(db)
            rows = db.execute(expired).all()
            for row in rows:
                lost = datetime.fromtimestamp(row.lease_until, UTC).strftime("%H:%M:%S")
                who = f"runner {row.claimed_by} lost at {lost} UTC"
                if row.measuring_unix is None and row.requeued == 0:
                    self._queue_again(db, row.id, f"{who}, before it began measuring")
                    continue
                reason = (
                    f"{who}: it stopped answering during this run. Its containers are removed "
                    "when it comes back; run it again."
                )
                gone = FailedData(reason=reason, lost=True)
                self._end(db, row.id, "failed", FailedEvent(type="failed", data=gone))
            self._announce_positions(db)
        return [row.id for row in rows]

    def _queue_again(self, db: Connection, run_id: str, why: str) -> None:
        """Put a run that lost its runner back in the queue with the tags it had: it was
        first in line once, so it is again."""
        self._set(
            db,
            run_id,
            status="queued",
            started_at=None,
            started_unix=None,
            claimed_by=None,
            lease_until=None,
            announced_position=None,
            requeued=runs.c.requeued + 1,
        )
        again = RequeuedData(reason=f"{why}: queued again")
        self._append(db, run_id, RequeuedEvent(type="requeued", data=again))

    # --- events -----------------------------------------------------------------------------

    def append_event(self, lease: Lease, event: AnyRunEvent) -> Event:
        """A runner says what happened in the run it holds; LeaseLost if it no longer does."""
        with self.write() as db:
            self._hold(db, lease)
            return self._append(db, lease.run_id, event)

    def latest_seqs(self, run_ids: list[str]) -> dict[str, int]:
        """The number of each given run's newest event, for the runs that have one: which of
        many streamed runs moved, in one read (news.py, on SQLite)."""
        with self.connect() as db:
            rows = db.execute(
                select(events.c.run_id, func.max(events.c.seq))
                .where(events.c.run_id.in_(run_ids))
                .group_by(events.c.run_id)
            )
            return {run_id: seq for run_id, seq in rows}

    def events_after(self, run_id: str, after_seq: int = 0) -> list[Event]:
        with self.connect() as db:
            rows = db.execute(
                select(events)
                .where(events.c.run_id == run_id, events.c.seq > after_seq)
                .order_by(events.c.seq)
            )
            return [Event(r.run_id, r.seq, r.type, json.loads(r.data)) for r in rows]
