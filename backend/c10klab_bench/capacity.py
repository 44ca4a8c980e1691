"""`make bench-capacity`: how long students wait when a class shares N runner hosts.

A discrete-event simulation around the real scheduler. The course's own stores (RunStore and
SweepStore, on a real SQLite file in a temporary folder) admit, queue, order and hand out the
runs; only the clock and the runners are pretend. The stores read the time through the names
they imported from c10klab.db, and `fake_clock` points those at a clock that jumps from one
event to the next, so an hour of class takes as long as the store's own work.

What it models:

- A class of 30, 100 or 300 students sharing 1, 4 or 16 runner hosts. Students reach the
  lesson spread uniformly over its first ARRIVAL_SPREAD_S seconds and submit one single run
  (5 s of load after 1 s of warm-up); a reading time later (uniform in READING_S) they submit
  one sweep of 3 servers x 3 connection counts of the same run. Seeded, so every run of this
  script sees the same class, and a class faces 1, 4 and 16 runners with the same arrivals.
- Admission as in classroom mode: each student's limits are those `admission_for` gives a
  student under the default Settings (per person, per minute, the site's queue). A refused
  submission (429) is sent again after its Retry-After, as the refusal tells the student to.
- Each runner claims with `claim_next(runner_id=...)`, is busy for the run's expected_seconds
  (load, warm-up and the store's guessed RUN_OVERHEAD_S for starting and removing the
  containers: that is the work), then ends it with `finish(..., "done", ...)` and claims again.
  Idle runners poll after every event, so no run waits for a poll.

What it does not model: variance in container start-up (every run takes exactly what the store
expects; results/hosting.md measured 0.4 s of overhead where the store guesses 1 s), runners
that share a host's CPUs and slow each other down, the runner's 0.3 s idle poll, lost runners
and leases, cancellations, instructors' runs (they go first), and students who wait for a run's
result before they read on.

It also times the real store, in wall-clock seconds: per claim, per submission, per refusal.
Every write that moves the queue tells each waiting run whose place changed, with a `queued`
event: a claim re-announces every run behind it. That cost makes the class of 300 too slow to
simulate whole here, so its classes run with the announcements switched off
(`positions_unannounced`: nothing the scheduler decides reads them, and `same_schedule` checks
that on smaller classes, run both ways) and the announcements' cost at 300 is measured on a
sample, the class's first SAMPLE_CLAIMS claims.

Written to results/capacity.md: per class size and runner count, submissions and refusals,
waits (median and p95) for single runs and for sweeps' last points, the last run of the class,
runner utilisation, the makespan against the ideal; the target's verdict; the store's cost.

    make bench-capacity           (no Docker, no containers; about five minutes on 2 CPUs)
"""

import heapq
import math
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml

import c10klab.db
import c10klab.runs.store
import c10klab.sweeps.store
from c10klab.config import REPO_ROOT, Settings
from c10klab.content.check import fenced_blocks, series_request
from c10klab.db import forget_engine
from c10klab.errors import QueueFull
from c10klab.people.access import admission_for
from c10klab.people.store import Person
from c10klab.results.schemas import DoneEvent, LatencySummary, RunResult, Summary
from c10klab.runner.worker import cpu_model
from c10klab.runs.schemas import RunRequest
from c10klab.runs.service import validate_request
from c10klab.runs.store import Admission, Lease, RunStore, expected_seconds
from c10klab.sandboxes.service import load_catalog
from c10klab.sweeps.service import plan_points
from c10klab.sweeps.store import PlannedPoint, SweepStore

OUT = REPO_ROOT / "results" / "capacity.md"
SEED = 10_000
CLASS_SIZES = (30, 100, 300)
RUNNER_COUNTS = (1, 4, 16)
# Classes of this many or more run with the position announcements off (see the docstring).
UNANNOUNCED_FROM = 300
# The announcements' cost at that size, measured on the class's first claims (16 runners).
SAMPLE_CLAIMS = 600
# Students reach the lesson's first experiment spread over its first five minutes...
ARRIVAL_SPREAD_S = 300.0
# ... and its sweep after reading on for one to three minutes (whether or not their run ended).
READING_S = (60.0, 180.0)
# The course's typical runs: most of the lessons' runs are 5 s of load after 1 s of warm-up
# (lesson_mix() says what the lessons hold); their series have 2 to 35 points, about 7 at the
# median.
SINGLE_RUN = {"server": "c-epoll", "connections": 100, "duration_s": 5, "warmup_s": 1}
SWEEP = {
    "servers": ["c-poll", "c-epoll", "c-threaded"],
    "vary": "connections",
    "values": [10, 100, 1000],
    "duration_s": 5,
    "warmup_s": 1,
}
# What a simulated run ends with: no figures (what is measured here is the queue, not a run).
NOTHING = LatencySummary(p50=0, p90=0, p99=0, p999=0, max=0)
SIMULATED = DoneEvent(
    type="done",
    data=RunResult(
        summary=Summary(qps=0, requests=0, duration_s=0, latency_us=NOTHING),
        valid=False,
        invalid_reason="simulated",
    ),
)
# The simulated runners renew no lease (the real one renews its 15 s every 2 s), so theirs
# outlasts any run: a runner's write must hold its lease (runs/store.Lease).
LEASE_S = 24 * 3600.0
# Where the fake clock starts (any moment will do: the store only compares and subtracts).
EPOCH = 2_000_000_000.0
# Simulations side by side, one per CPU (the store's costs are timed inside each).
WORKERS = min(2, os.cpu_count() or 1)

# The target: a class of 30 submitting one such run each at one moment, on 4 runners, all
# done within 1.1 x the ideal (their total work / 4).
TARGET_STUDENTS = 30
TARGET_RUNNERS = 4
TARGET_RATIO = 1.1


# --- the fake clock -------------------------------------------------------------------------


class FakeClock:
    """Simulated time: `elapsed` seconds since the class began, which only the simulation
    moves; the stores see it as Unix time from `start`."""

    def __init__(self, start: float = EPOCH) -> None:
        self.start = start
        self.elapsed = 0.0

    def unix(self) -> float:
        return self.start + self.elapsed

    def iso(self) -> str:
        return datetime.fromtimestamp(self.unix(), UTC).isoformat(timespec="milliseconds")


# Every name through which the stores driven here read the time: each module imported
# unix_now and now_iso from c10klab.db by name, so each module's own name is replaced.
TIME_NAMES: tuple[tuple[ModuleType, str], ...] = (
    (c10klab.db, "unix_now"),
    (c10klab.db, "now_iso"),
    (c10klab.runs.store, "unix_now"),
    (c10klab.runs.store, "now_iso"),
    (c10klab.sweeps.store, "now_iso"),
)


@contextmanager
def fake_clock(clock: FakeClock) -> Iterator[None]:
    """Point the stores' clocks at `clock` for the block, and put the real ones back."""
    saved = [(module, name, getattr(module, name)) for module, name in TIME_NAMES]
    fakes: dict[str, Callable[[], Any]] = {"unix_now": clock.unix, "now_iso": clock.iso}
    try:
        for module, name, _ in saved:
            setattr(module, name, fakes[name])
        yield
    finally:
        for module, name, original in saved:
            setattr(module, name, original)


@contextmanager
def positions_unannounced() -> Iterator[None]:
    """Skip the store's position announcements (RunStore._announce_positions) for the block.
    They only write `queued` events and each run's announced_position; admission and the
    claim's order never read either (same_schedule() checks that the schedules agree)."""
    original = RunStore._announce_positions

    def announce_nothing(_store: RunStore, _db: Any) -> None:
        return None

    setattr(RunStore, "_announce_positions", announce_nothing)  # noqa: B010 (mypy: a method)
    try:
        yield
    finally:
        setattr(RunStore, "_announce_positions", original)  # noqa: B010


# --- the workload ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Workload:
    """The two submissions every student makes, planned once as the API plans them."""

    run_request: RunRequest
    sweep_request: dict[str, Any]
    sweep_points: list[PlannedPoint]

    @property
    def run_s(self) -> float:
        return expected_seconds(self.run_request)

    @property
    def sweep_s(self) -> float:
        return sum(expected_seconds(r) for _, _, r, _ in self.sweep_points if r is not None)


def plan_workload(settings: Settings) -> Workload:
    catalog = load_catalog(settings.sandboxes_dir)
    run = RunRequest.model_validate(SINGLE_RUN)
    validate_request(run, catalog, settings)
    sweep = series_request(SWEEP)
    points = plan_points(sweep, catalog, settings)
    skipped = [f"{s} at {v:g}: {why}" for s, v, r, why in points if r is None]
    if skipped:
        raise SystemExit(f"the sweep must run every point; skipped: {'; '.join(skipped)}")
    return Workload(run, sweep.model_dump(exclude_none=True), points)


def lesson_mix(settings: Settings) -> str:
    """What the lessons' experiment blocks ask for, to hold the simulated mix against."""
    catalog = load_catalog(settings.sandboxes_dir)
    singles: list[float] = []
    series: list[list[float]] = []
    for path in sorted((settings.content_dir / "lessons").glob("*.md")):
        for block in fenced_blocks(path.read_text()):
            if block.language != "experiment":
                continue
            spec = yaml.safe_load(block.body)
            if "servers" in spec:
                points = plan_points(series_request(spec), catalog, settings)
                series.append([expected_seconds(r) for _, _, r, _ in points if r is not None])
            else:
                request = {k: v for k, v in spec.items() if k != "title"}
                run = RunRequest.model_validate(request)
                singles.append(expected_seconds(run))
    sizes = [len(s) for s in series]
    return (
        f"The lessons hold {len(singles)} single-run experiments (expected length: median "
        f"{statistics.median(singles):g} s, {min(singles):g}–{max(singles):g} s) and "
        f"{len(series)} series (median {statistics.median(sizes):g} points, "
        f"{min(sizes)}–{max(sizes)}; median length {statistics.median(map(sum, series)):g} s)."
    )


@dataclass(frozen=True)
class Scenario:
    """One simulated class: who submits what, on how many runners, timed how."""

    students: int
    runners: int
    sweeps: bool = True  # each student also submits the sweep
    spread_s: float = ARRIVAL_SPREAD_S  # 0: every single run at the same moment
    announce: bool = True  # False: positions_unannounced()
    max_claims: int | None = None  # stop after this many claims (a sample)

    def describe(self) -> str:
        runners = plural(self.runners, "runner")
        quiet = "" if self.announce else ", announcements off"
        sample = f", first {self.max_claims} claims" if self.max_claims else ""
        return f"{self.students} students on {runners}{quiet}{sample}"


@dataclass
class Submission:
    """One of a student's submissions, a single run or a sweep, and what became of it."""

    student: str
    kind: str  # "run" or "sweep"
    first_at: float  # seconds into the class, when the student first sent it
    admitted_at: float | None = None
    refusals: int = 0
    run_ids: list[str] = field(default_factory=list)


def class_plan(scenario: Scenario) -> list[Submission]:
    """Every submission of the class. The seed depends on the class's size only, so one
    class meets 1, 4 and 16 runners with the same arrivals."""
    rng = random.Random(SEED + scenario.students)
    plan = []
    for n in range(scenario.students):
        student = f"s{n:03}"
        arrives = rng.uniform(0, scenario.spread_s)
        reads = rng.uniform(*READING_S)
        plan.append(Submission(student, "run", arrives))
        if scenario.sweeps:
            plan.append(Submission(student, "sweep", arrives + reads))
    return plan


# --- the simulation -------------------------------------------------------------------------


@dataclass
class RunTimes:
    submission: Submission
    expected_s: float = 0.0
    started_at: float | None = None
    finished_at: float | None = None


@dataclass
class StoreCost:
    """Wall-clock seconds the real store took, call by call."""

    claims: list[tuple[int, float]] = field(default_factory=list)  # (runs waiting, seconds)
    admitted: list[float] = field(default_factory=list)
    refused: list[float] = field(default_factory=list)
    finishes: list[float] = field(default_factory=list)
    queued_events: int = 0  # `queued` events the store appended (position announcements)

    def claim_seconds(self) -> list[float]:
        return [seconds for _, seconds in self.claims]

    def total(self) -> float:
        calls = (self.claim_seconds(), self.admitted, self.refused, self.finishes)
        return sum(sum(seconds) for seconds in calls)


@dataclass
class Outcome:
    scenario: Scenario
    submissions: list[Submission]
    runs: dict[str, RunTimes]
    busy_s: float
    cost: StoreCost
    wall_s: float


@dataclass(frozen=True)
class Finish:
    runner: str
    lease: Lease


class Simulation:
    """Events in time order: a submission (or its retry), or a runner finishing its run.
    After each, the idle runners claim until the queue has nothing for them."""

    def __init__(
        self,
        sweeps: SweepStore,
        clock: FakeClock,
        scenario: Scenario,
        work: Workload,
        settings: Settings,
    ) -> None:
        self.sweeps, self.store, self.clock = sweeps, sweeps.runs, clock
        self.scenario, self.work, self.settings = scenario, work, settings
        self.idle = [f"runner-{n:02}" for n in range(scenario.runners)]
        self.pending: list[tuple[float, int, int, Submission | Finish]] = []
        self.order = 0
        self.runs: dict[str, RunTimes] = {}
        self.waiting = 0  # runs admitted and not claimed yet: the queue's length
        self.busy_s = 0.0
        self.cost = StoreCost()

    def at(self, when: float, event: Submission | Finish) -> None:
        # At one moment a runner's finish comes before a submission: the runner claims sooner.
        rank = 0 if isinstance(event, Finish) else 1
        self.order += 1
        heapq.heappush(self.pending, (when, rank, self.order, event))

    def run(self, plan: list[Submission]) -> None:
        for submission in plan:
            self.at(submission.first_at, submission)
        limit = self.scenario.max_claims
        while self.pending and (limit is None or len(self.cost.claims) < limit):
            when, _, _, event = heapq.heappop(self.pending)
            self.clock.elapsed = when
            if isinstance(event, Finish):
                self.finish(event)
            else:
                self.submit(event)
            self.poll_idle_runners()

    def admission(self, student: str) -> Admission:
        person = Person(id=student, kind="student", name=student, class_id="class-1")
        return admission_for(person, self.settings)

    def queue(self, submission: Submission) -> list[str]:
        """Send one submission to the store; the ids of the runs it queued."""
        admission = self.admission(submission.student)
        if submission.kind == "run":
            run, _ = self.store.create_run(self.work.run_request, admission)
            return [run.id]
        sweep = self.sweeps.create_sweep(self.work.sweep_request, self.work.sweep_points, admission)
        return [p["run_id"] for p in sweep.points if p["run_id"]]

    def submit(self, submission: Submission) -> None:
        started = time.perf_counter()
        try:
            run_ids = self.queue(submission)
        except QueueFull as refused:
            self.cost.refused.append(time.perf_counter() - started)
            submission.refusals += 1
            self.at(self.clock.elapsed + refused.retry_after_s, submission)
            return
        self.cost.admitted.append(time.perf_counter() - started)
        submission.admitted_at = self.clock.elapsed
        submission.run_ids = run_ids
        self.waiting += len(run_ids)
        for run_id in run_ids:
            self.runs[run_id] = RunTimes(submission)

    def poll_idle_runners(self) -> None:
        while self.idle:
            runner, waiting = self.idle[0], self.waiting
            started = time.perf_counter()
            run = self.store.claim_next(runner_id=runner, lease_s=LEASE_S)
            if run is None:
                return  # the other idle runners would hear the same
            self.cost.claims.append((waiting, time.perf_counter() - started))
            self.idle.pop(0)
            self.waiting -= 1
            times = self.runs[run.id]
            times.expected_s = expected_seconds(run.request)
            times.started_at = self.clock.elapsed
            assert run.lease is not None  # claimed
            self.at(times.started_at + times.expected_s, Finish(runner, run.lease))

    def finish(self, event: Finish) -> None:
        started = time.perf_counter()
        self.store.finish(event.lease, "done", SIMULATED)
        self.cost.finishes.append(time.perf_counter() - started)
        times = self.runs[event.lease.run_id]
        times.finished_at = self.clock.elapsed
        self.busy_s += times.expected_s
        self.idle.append(event.runner)
        self.idle.sort()


def count_queued_events(store: RunStore, run_ids: list[str]) -> int:
    return sum(1 for run_id in run_ids for e in store.events_after(run_id) if e.type == "queued")


def simulate(scenario: Scenario, work: Workload) -> Outcome:
    """One class, from its first submission until its last run is done (or the sample's
    last claim), on a store of its own."""
    settings, clock, plan = Settings(), FakeClock(), class_plan(scenario)
    began = time.perf_counter()
    quiet = nullcontext() if scenario.announce else positions_unannounced()
    with tempfile.TemporaryDirectory(prefix="c10klab-capacity-") as folder:
        sweeps = SweepStore(Path(folder) / "c10klab.sqlite3")
        with fake_clock(clock), quiet:
            simulation = Simulation(sweeps, clock, scenario, work, settings)
            simulation.run(plan)
        wall_s = time.perf_counter() - began
        simulation.cost.queued_events = count_queued_events(sweeps.runs, list(simulation.runs))
        forget_engine(sweeps.url)
    print(f"  {scenario.describe()}: {wall_s:.0f} s", file=sys.stderr, flush=True)
    runs, busy = simulation.runs, simulation.busy_s
    return Outcome(scenario, plan, runs, busy, simulation.cost, wall_s)


def simulate_all(scenarios: list[Scenario], work: Workload) -> dict[Scenario, Outcome]:
    """Every scenario, WORKERS at a time (the dearest first, so none is left alone at the end)."""
    dearest = sorted(scenarios, key=rough_cost, reverse=True)
    with ProcessPoolExecutor(WORKERS) as pool:
        futures = {s: pool.submit(simulate, s, work) for s in dearest}
        return {s: futures[s].result() for s in scenarios}


def rough_cost(scenario: Scenario) -> float:
    """How long a scenario keeps a worker, roughly (from runs of this script): a run costs
    more with the announcements on (a claim writes an event per waiting run); without them
    the refusals cost most, and fewer runners mean more of them."""
    runs = scenario.students * (10 if scenario.sweeps else 1)
    if scenario.max_claims:
        runs = min(runs, scenario.max_claims)
    return runs * (60 if scenario.announce else 35) / math.sqrt(math.sqrt(scenario.runners))


def same_schedule(announced: Outcome, quiet: Outcome) -> bool:
    """Whether two simulations of one class started every run at the same moment and refused
    every submission as often: each run is known by its student, its kind and its place."""

    def schedule(outcome: Outcome) -> dict[tuple[str, str, int], tuple[float | None, int]]:
        return {
            (s.student, s.kind, i): (outcome.runs[run_id].started_at, s.refusals)
            for s in outcome.submissions
            for i, run_id in enumerate(s.run_ids)
        }

    return schedule(announced) == schedule(quiet)


# --- the figures ----------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile (q in 0-100)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.2f} h"


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


@dataclass(frozen=True)
class Bounds:
    """How soon any schedule could have finished the class's work."""

    makespan_s: float  # first submission to last run done, as simulated
    work_s: float  # the runners' busy time
    per_runner_s: float  # work / runners
    arrival_s: float  # see arrival_bound()

    @property
    def ideal_s(self) -> float:
        return max(self.per_runner_s, self.arrival_s)

    @property
    def ratio(self) -> float:
        return self.makespan_s / self.ideal_s


def arrival_bound(outcome: Outcome) -> float:
    """No schedule finishes the work first submitted at moment t or later before t plus that
    work divided among the runners, nor any run before its first submission plus its length:
    the largest of those, over every t (from the class's first submission)."""
    start = min(s.first_at for s in outcome.submissions)
    by_first = sorted(outcome.submissions, key=lambda s: s.first_at)
    work = [sum(outcome.runs[r].expected_s for r in s.run_ids) for s in by_first]
    later, bound = 0.0, 0.0
    for submission, its_work in zip(reversed(by_first), reversed(work), strict=True):
        later += its_work
        since = submission.first_at - start
        longest = max(outcome.runs[r].expected_s for r in submission.run_ids)
        bound = max(bound, since + later / outcome.scenario.runners, since + longest)
    return bound


def bounds(outcome: Outcome) -> Bounds:
    start = min(s.first_at for s in outcome.submissions)
    end = max(t.finished_at or 0.0 for t in outcome.runs.values())
    work = sum(t.expected_s for t in outcome.runs.values())
    per_runner = work / outcome.scenario.runners
    return Bounds(end - start, work, per_runner, arrival_bound(outcome))


def waits(outcome: Outcome, kind: str) -> list[float]:
    """From each submission's first sending (refusals included) to its last run's start."""
    return [
        max(outcome.runs[r].started_at or math.inf for r in s.run_ids) - s.first_at
        for s in outcome.submissions
        if s.kind == kind
    ]


def held_off_s(outcome: Outcome, kind: str) -> list[float]:
    """How long each submission of a kind was refused: its first sending to its admission."""
    return [(s.admitted_at or math.inf) - s.first_at for s in outcome.submissions if s.kind == kind]


def out_of_order(outcome: Outcome, kind: str) -> float:
    """Among the submissions of a kind refused at least once, the share of pairs admitted in
    the opposite order to the one they were first sent in (0: first come, first served)."""
    refused = sorted(
        (s for s in outcome.submissions if s.kind == kind and s.refusals),
        key=lambda s: s.first_at,
    )
    pairs = [(a, b) for i, a in enumerate(refused) for b in refused[i + 1 :]]
    if not pairs:
        return 0.0
    swapped = sum(1 for a, b in pairs if (a.admitted_at or 0) > (b.admitted_at or 0))
    return swapped / len(pairs)


def claim_events(outcome: Outcome) -> int:
    """The announcements the claims made: each tells every run still waiting behind the
    claimed one its new place (no run was ever held here)."""
    return sum(max(0, waiting - 1) for waiting, _ in outcome.cost.claims)


def class_rows(outcome: Outcome) -> list[tuple[str, str]]:
    """The figures of one simulated class, labelled, for its column of the table."""
    subs, cost, runners = outcome.submissions, outcome.cost, outcome.scenario.runners
    singles, sweeps = waits(outcome, "run"), waits(outcome, "sweep")
    refused = [s for s in subs if s.refusals]
    held_off = max(((s.admitted_at or 0) - s.first_at for s in refused), default=0.0)
    last = max(outcome.runs.values(), key=lambda t: t.started_at or 0.0)
    start = min(s.first_at for s in subs)
    b = bounds(outcome)
    claims = cost.claim_seconds()
    queue = [waiting for waiting, _ in cost.claims]
    events = f"{cost.queued_events:,} ({cost.queued_events / len(claims):.0f} per claim)"
    if not outcome.scenario.announce:
        events = "off"
    refused_s = {kind: statistics.median(held_off_s(outcome, kind)) for kind in ("run", "sweep")}
    return [
        ("submissions: single runs + sweeps", f"{len(singles)} + {len(sweeps)}"),
        ("runs queued (single runs and sweep points)", f"{len(outcome.runs):,}"),
        ("refusals (429s, each sent again after its Retry-After)", f"{len(cost.refused):,}"),
        (
            "... submissions refused at least once; longest first sending → admission",
            f"{len(refused)}; {duration(held_off)}",
        ),
        (
            "... time refused (first sending → admission), median: single runs / sweeps",
            f"{duration(refused_s['run'])} / {duration(refused_s['sweep'])}",
        ),
        (
            "wait of a single run: median / p95",
            f"{duration(statistics.median(singles))} / {duration(percentile(singles, 95))}",
        ),
        (
            "wait of a sweep's last point: median / p95",
            f"{duration(statistics.median(sweeps))} / {duration(percentile(sweeps, 95))}"
            if sweeps
            else "–",
        ),
        (
            "last run to start: first sent / admitted / started / done (into the class)",
            f"{duration(last.submission.first_at - start)} / "
            f"{duration((last.submission.admitted_at or 0) - start)} / "
            f"{duration((last.started_at or 0) - start)} / "
            f"{duration((last.finished_at or 0) - start)}",
        ),
        (
            "... its wait",
            duration((last.started_at or 0) - last.submission.first_at),
        ),
        (
            "runner utilisation: busy ÷ (runners x makespan)",
            f"{b.work_s / (runners * b.makespan_s):.0%}",
        ),
        ("makespan: first submission → last run done", duration(b.makespan_s)),
        ("ideal: total work ÷ runners", duration(b.per_runner_s)),
        ("ideal: arrival bound", duration(b.arrival_s)),
        ("makespan ÷ ideal (the larger bound)", f"{b.ratio:.3f}"),
        (
            "store, per claim: mean / p95 (runs waiting: median / max)",
            f"{ms(statistics.mean(claims))} / {ms(percentile(claims, 95))} "
            f"({statistics.median(queue):.0f} / {max(queue)})",
        ),
        (
            "store, per admitted submission / per refusal: mean",
            f"{ms(statistics.mean(cost.admitted))} / "
            f"{ms(statistics.mean(cost.refused)) if cost.refused else '–'}",
        ),
        ("store: `queued` events appended", events),
        (
            "store: wall-clock time for the class ÷ its simulated makespan",
            f"{cost.total():.1f} s ÷ {b.makespan_s:,.0f} s = {cost.total() / b.makespan_s:.1%}",
        ),
    ]


def class_table(outcomes: list[Outcome]) -> list[str]:
    """One row per figure, one column per runner count."""
    columns = [class_rows(o) for o in outcomes]
    names = [plural(o.scenario.runners, "runner") for o in outcomes]
    lines = [f"| | {' | '.join(names)} |", f"|---|{'---:|' * len(names)}"]
    for i, (label, _) in enumerate(columns[0]):
        lines.append(f"| {label} | {' | '.join(column[i][1] for column in columns)} |")
    return lines


def target_section(outcome: Outcome, work: Workload) -> list[str]:
    """The target, judged: every run done within TARGET_RATIO x (total work / runners)."""
    b = bounds(outcome)
    students, runners = outcome.scenario.students, outcome.scenario.runners
    whole_runs = math.ceil(students / runners) * work.run_s  # runs are not divisible
    met = b.makespan_s <= TARGET_RATIO * b.per_runner_s
    verdict = "**Met.**" if met else "**Missed.**"
    return [
        f"{students} students each submit one single run ({work.run_s:g} s expected: 5 s of "
        f"load, 1 s of warm-up, {c10klab.runs.store.RUN_OVERHEAD_S:g} s of overhead) at the "
        f"same moment, on {runners} runners. Target: all done within {TARGET_RATIO:g}x the ideal "
        f"(total work ÷ {runners} = {b.per_runner_s:g} s), that is by "
        f"{TARGET_RATIO * b.per_runner_s:g} s.",
        "",
        f"{verdict} The last run was done {b.makespan_s:g} s after the submissions: "
        f"{b.ratio:.3f}x the ideal. No schedule of whole runs does better than "
        f"{math.ceil(students / runners)} rounds of {work.run_s:g} s = {whole_runs:g} s "
        f"({whole_runs / b.per_runner_s:.3f}x the ideal); the runners were busy "
        f"{b.work_s / (runners * b.makespan_s):.0%} of that time, and "
        f"{len(outcome.cost.refused)} submissions were refused.",
    ]


# Runs waiting at a claim, binned: (label, lowest, highest).
QUEUE_BINS = (
    ("1–49", 1, 49),
    ("50–99", 50, 99),
    ("100–149", 100, 149),
    ("150–199", 150, 199),
    ("200", 200, 200),
)


def claim_fit(outcomes: list[Outcome]) -> tuple[float, float]:
    """A claim's seconds against the runs waiting: (intercept, slope per waiting run)."""
    claims = [c for o in outcomes for c in o.cost.claims]
    slope, intercept = statistics.linear_regression(
        [float(waiting) for waiting, _ in claims], [seconds for _, seconds in claims]
    )
    return intercept, slope


def cost_section(
    announced: list[Outcome],
    quiet: list[Outcome],
    sample: Outcome,
    checks: list[tuple[Outcome, Outcome]],
) -> list[str]:
    """What the store's own work costs: a claim against the runs waiting, with and without
    the position announcements, and what that comes to for a class of 300."""
    lines = [
        "| runs waiting at the claim | claims | per claim: median / p95 | `queued` events it "
        "appends | per claim, announcements off: median |",
        "|---|---:|---:|---:|---:|",
    ]
    claims = [c for o in announced for c in o.cost.claims]
    quiet_claims = [c for o in quiet for c in o.cost.claims]
    for label, low, high in QUEUE_BINS:
        seconds = [s for waiting, s in claims if low <= waiting <= high]
        off = [s for waiting, s in quiet_claims if low <= waiting <= high]
        if not seconds:
            continue
        announcements = f"{low - 1}–{high - 1}" if high > low else f"{low - 1}"
        lines.append(
            f"| {label} | {len(seconds):,} | {ms(statistics.median(seconds))} / "
            f"{ms(percentile(seconds, 95))} | {announcements} | "
            f"{ms(statistics.median(off)) if off else '–'} |"
        )
    intercept, slope = claim_fit(announced)
    sample_queue = [waiting for waiting, _ in sample.cost.claims]
    full = intercept + slope * 200
    lines += [
        "",
        f"A claim costs about {ms(intercept)} + {slope * 1e6:.0f} µs per run still waiting "
        f"(least squares over the {len(claims):,} claims with announcements on): "
        f"{ms(full)} with the site's queue full (200). It grows linearly with the queue because "
        "the claim moves every waiting run up one place and appends a `queued` event to each, "
        "so emptying a queue of Q runs appends Q(Q−1)/2 events: **quadratic in the queue's "
        "length**. The site's cap (max_queued_runs, 200) bounds it at 199 events a claim; "
        "without the announcements a claim costs the same few milliseconds at any length "
        "(last column). Admitting a submission also announces: its runs' first places, and the "
        "new places of every run it goes ahead of (a newcomer's tag is the queue's clock, so it "
        "passes later points of earlier sweeps).",
        "",
        f"At {sample.scenario.students} students, measured on a sample (the class's first "
        f"{len(sample.cost.claims)} claims on {sample.scenario.runners} runners, announcements "
        f"on; runs waiting at those claims: median {statistics.median(sample_queue):.0f}, max "
        f"{max(sample_queue)}): {ms(statistics.mean(sample.cost.claim_seconds()))} per claim "
        f"on average, {ms(statistics.mean(sample.cost.admitted))} per admitted submission, "
        f"{sample.cost.queued_events:,} `queued` events. "
        "For the whole class, from its schedule (the same with announcements off) and the fit:",
        "",
        f"| {sample.scenario.students} students on | claims | events the claims append | "
        "store time for the claims (fit) | the same, announcements off (measured) | "
        "claims' share of the makespan |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for outcome in quiet:
        if outcome.scenario.students < UNANNOUNCED_FROM:
            continue
        estimate = sum(intercept + slope * waiting for waiting, _ in outcome.cost.claims)
        lines.append(
            f"| {plural(outcome.scenario.runners, 'runner')} | {len(outcome.cost.claims):,} | "
            f"{claim_events(outcome):,} | {estimate:.0f} s | "
            f"{sum(outcome.cost.claim_seconds()):.0f} s | "
            f"{estimate / bounds(outcome).makespan_s:.1%} |"
        )
    agree = [
        f"{a.scenario.describe()}: {'same' if same_schedule(a, q) else '**DIFFERENT**'}"
        for a, q in checks
    ]
    lines += [
        "",
        "A claim holds the store's write lock for its whole length, so the share above is time "
        "in which no submission, finish or other claim can write. Switching the announcements "
        "off changes no decision: with and without them, every run started at the same moment "
        f"and every submission was refused as often ({'; '.join(agree)}).",
    ]
    return lines


def runners_for_sweeps(grid: dict[tuple[int, int], Outcome], size: int, within_s: float) -> str:
    """The fewest runners simulated for which 95 % of a class's sweeps had started their last
    point within `within_s` of being sent."""
    for runners in RUNNER_COUNTS:
        if percentile(waits(grid[size, runners], "sweep"), 95) <= within_s:
            return str(runners)
    return f"more than {RUNNER_COUNTS[-1]}"


def instructor_section(grid: dict[tuple[int, int], Outcome], work: Workload, site_cap: int) -> str:
    """What the tables mean for someone planning a class, from the figures themselves."""
    per_student = work.run_s + work.sweep_s
    worst = max(grid.values(), key=lambda o: bounds(o).ratio)
    typical = grid[CLASS_SIZES[1], RUNNER_COUNTS[1]]  # 100 students on 4 runners
    crowded = grid[CLASS_SIZES[-1], RUNNER_COUNTS[0]]  # 300 students on 1 runner
    within = 10 * 60
    needed = ", ".join(
        f"{runners_for_sweeps(grid, s, within)} for {s} students" for s in CLASS_SIZES
    )

    def median_wait(outcome: Outcome, kind: str) -> str:
        return duration(statistics.median(waits(outcome, kind)))

    def where(outcome: Outcome) -> str:
        scenario = outcome.scenario
        return f"{scenario.students} students on {plural(scenario.runners, 'runner')}"

    return (
        f"Every student here brings the runners {per_student:g} s of work ({work.run_s:g} s "
        f"for the single run, {work.sweep_s:g} s for the {len(work.sweep_points)}-point "
        f"sweep), so a lesson section needs about students x {per_student:g} s ÷ runners "
        "before the last sweep is done, and no queue can shorten that (nor the time the last "
        f"arrivals' own runs take): every makespan above is within {bounds(worst).ratio - 1:.1%} "
        "of the ideal, so the waits are the arithmetic of the work, not the scheduler's. What "
        "the scheduler decides is who waits. Single runs stay short while the sweeps carry the "
        f"backlog: with {where(typical)} a single run waits a median "
        f"{median_wait(typical, 'run')} and a sweep's last point {median_wait(typical, 'sweep')}, "
        "because a newcomer starts at the queue's clock, ahead of the later points of earlier "
        f"sweeps. That holds while the site's queue has room. Once it holds {site_cap} runs "
        f"(about {site_cap // len(work.sweep_points)} students' sweeps) submissions are "
        "refused until runs start, single runs too (a median wait of "
        f"{median_wait(crowded, 'run')} with {where(crowded)}, "
        f"{duration(statistics.median(held_off_s(crowded, 'run')))} of it refused), and "
        "admission goes to whoever sends again just as room opens, not to whoever sent first "
        f"(of the pairs of sweeps refused at least once, {out_of_order(typical, 'sweep'):.0%} "
        "were admitted in the opposite order to the one they were sent in; first come, first "
        'served would make that 0%, a lottery 50%). Tell students that "the queue is full" '
        "means send it again at the time it gives. For 95% of sweeps to be under way within "
        f"{within // 60} minutes of being sent, plan on {needed} (of 1, 4 and 16 runner hosts, "
        "each with its own CPUs)."
    )


def machine() -> str:
    return f"{cpu_model()}, {os.cpu_count()} cores"


def report(
    work: Workload,
    settings: Settings,
    outcomes: dict[Scenario, Outcome],
    scenarios: "Scenarios",
    wall_s: float,
) -> str:
    grid = {(s.students, s.runners): outcomes[s] for s in scenarios.grid}
    announced = [outcomes[s] for s in scenarios.grid if s.announce]
    announced.append(outcomes[scenarios.sample])
    quiet = [outcomes[s] for s in scenarios.grid if not s.announce]
    quiet += [outcomes[s] for s in scenarios.checks]
    checks = [(outcomes[a], outcomes[q]) for a, q in scenarios.check_pairs()]
    limits = admission_for(Person("s", "student", "s", "class-1"), settings)
    lines = [
        "# Capacity: how long students wait when a class shares N runner hosts",
        "",
        f"Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by `make bench-capacity` on {machine()}."
        " A simulation, not a run: the course's real scheduler (RunStore and SweepStore on an "
        "SQLite file) admits, orders and hands out every run, while a fake clock jumps from "
        "event to event and each runner is simply busy for the run's expected length. No "
        "containers, no start-up variance, no runners sharing a host's CPUs, no 0.3 s idle "
        "poll: those lengthen real waits. One thing shortens them: a run's containers start "
        "and stop in about 0.4 s (results/hosting.md), not the "
        f"{c10klab.runs.store.RUN_OVERHEAD_S:g} s assumed here, so a real "
        f"run takes about a tenth less than the {work.run_s:g} s simulated.",
        "",
        "## The class, as simulated",
        "",
        f"- Every student submits one single run ({work.run_request.server}, 100 connections, "
        f"5 s of load after 1 s of warm-up: the store expects {work.run_s:g} s with its "
        f"{c10klab.runs.store.RUN_OVERHEAD_S:g} s of overhead) and one sweep (3 servers x 3 "
        f"connection counts of the same run: {len(work.sweep_points)} points, "
        f"{work.sweep_s:g} s). {lesson_mix(settings)} So the sweep is a little larger than the "
        "lessons' typical series.",
        f"- Arrivals: each student sends the single run at a moment drawn uniformly from the "
        f"class's first {ARRIVAL_SPREAD_S / 60:g} minutes, and the sweep "
        f"{READING_S[0] / 60:g}–{READING_S[1] / 60:g} minutes later (uniform; reading on, "
        f"whether or not the run has ended). Seeded ({SEED} + the class's size): each class "
        "meets 1, 4 and 16 runners with the same arrivals.",
        f"- Admission as in classroom mode, the default Settings: at most "
        f"{limits.queued_per_person} runs waiting per person, {limits.runs_per_minute} a minute "
        f"per person, {limits.queued_site} waiting on the site. A refused submission is sent "
        "again after its Retry-After (the refusal tells the student when; the frontend does not "
        "resend by itself). A wait is counted from the first sending, refusals included.",
        "- Runners claim with `claim_next`, are busy for the run's expected seconds (that is "
        'the work), end it with `finish(..., "done")` and claim again; idle runners poll '
        "after every event. Makespan: the class's first submission to its last run done. "
        "Ideal: the larger of the total work ÷ runners and the arrival bound (no schedule "
        "finishes the work first sent at t or later before t + that work ÷ runners, nor a run "
        "before its first sending + its length).",
        f"- Classes of {UNANNOUNCED_FROM} ran with the position announcements off (below: the "
        "store's cost made them too slow to simulate whole here, and no decision reads them); "
        "their store rows are the store's cost without announcements, and the cost with them "
        "was measured on a sample.",
        "",
        "## The target",
        "",
        *target_section(outcomes[scenarios.target], work),
    ]
    for size in CLASS_SIZES:
        quiet_note = " (announcements off)" if size >= UNANNOUNCED_FROM else ""
        lines += ["", f"## {size} students{quiet_note}", ""]
        lines += class_table([grid[size, runners] for runners in RUNNER_COUNTS])
    lines += [
        "",
        "## What the scheduler itself costs",
        "",
        *cost_section(announced, quiet, outcomes[scenarios.sample], checks),
        "",
        "## What this means for an instructor",
        "",
        instructor_section(grid, work, limits.queued_site),
        "",
        f"The simulations took {wall_s:.0f} s of wall-clock time, {WORKERS} at a time.",
    ]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Scenarios:
    grid: list[Scenario]
    target: Scenario
    sample: Scenario
    checks: list[Scenario]  # announcements off, each against its announced twin in the grid

    def all(self) -> list[Scenario]:
        return [*self.grid, self.target, self.sample, *self.checks]

    def check_pairs(self) -> list[tuple[Scenario, Scenario]]:
        return [(Scenario(q.students, q.runners), q) for q in self.checks]


def scenarios() -> Scenarios:
    return Scenarios(
        grid=[
            Scenario(size, runners, announce=size < UNANNOUNCED_FROM)
            for size in CLASS_SIZES
            for runners in RUNNER_COUNTS
        ],
        target=Scenario(TARGET_STUDENTS, TARGET_RUNNERS, sweeps=False, spread_s=0.0),
        sample=Scenario(UNANNOUNCED_FROM, 16, max_claims=SAMPLE_CLAIMS),
        checks=[Scenario(30, 1, announce=False), Scenario(100, 4, announce=False)],
    )


def main() -> None:
    settings = Settings()
    work = plan_workload(settings)
    plan = scenarios()
    began = time.perf_counter()
    outcomes = simulate_all(plan.all(), work)
    text = report(work, settings, outcomes, plan, time.perf_counter() - began)
    OUT.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
