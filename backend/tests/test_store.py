import math
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from c10klab.errors import InvalidRequest, QueueFull
from c10klab.hosts.store import DockerState, RunnerHost, RunnerStore
from c10klab.runs.schemas import RunRequest
from c10klab.runs.store import (
    RUN_OVERHEAD_S,
    Admission,
    Lease,
    LeaseLost,
    RunStore,
    Scope,
    expected_seconds,
)
from c10klab.runs.tables import runs
from c10klab.sweeps.store import PlannedPoint, SweepStore
from tests.results.figures import a_result, done, progress
from tests.runs.leases import claim


def a_run(**fields: Any) -> RunRequest:
    """A run of c-epoll; `lesson` tags name runs where a test follows them through the queue."""
    return RunRequest(server="c-epoll", **fields)


# How long each of those runs is expected to keep a runner busy: the queue's unit of wait.
EXPECTED_S = expected_seconds(a_run())


def test_queue_positions_move_up_when_the_runner_claims(store: RunStore) -> None:
    first, place1 = store.create_run(a_run())
    second, place2 = store.create_run(a_run())
    third, place3 = store.create_run(a_run())
    assert [p.position for p in (place1, place2, place3)] == [1, 2, 3]
    # Each run is expected to take EXPECTED_S: the third waits two.
    step = EXPECTED_S
    assert [p.wait_s for p in (place1, place2, place3)] == [0, step, 2 * step]

    claimed = store.claim_next()
    assert claimed is not None and claimed.id == first.id and claimed.status == "running"
    assert store.queue_place(store.get_run(second.id)).position == 1  # type: ignore[arg-type,union-attr]
    # The runs that moved up were told so by a new queued event, with their new wait.
    assert [e.data for e in store.events_after(third.id)] == [
        {"position": 3, "wait_s": 2 * step, "held": False},
        {"position": 2, "wait_s": 2 * step, "held": False},
    ]


def test_waits_count_every_live_runner(store: RunStore, runners: RunnerStore) -> None:
    for name in ("a", "b"):
        engine = DockerState(reachable=True, version="27.0", error=None)
        runners.beat(RunnerHost(name, "lab", "0", "1", engine, {}, "idle", None, "2026-11-25"))
    waits = [store.create_run(a_run())[1].wait_s for _ in range(3)]
    assert waits == [0, 0, EXPECTED_S]  # two start at once, the third when one is free


def test_a_run_is_claimed_once(store: RunStore) -> None:
    store.create_run(a_run())
    assert store.claim_next() is not None
    assert store.claim_next() is None


def test_event_numbers_count_from_one_and_resume_after_a_given_id(store: RunStore) -> None:
    run, _ = store.create_run(a_run())
    lease = claim(store)
    for i in range(4):
        store.append_event(lease, progress(float(i)))
    events = store.events_after(run.id)
    assert [e.seq for e in events] == [1, 2, 3, 4, 5]
    assert [e.data["t_s"] for e in store.events_after(run.id, 3)] == [2, 3]


def test_cancelling_a_queued_run_ends_it_at_once(store: RunStore) -> None:
    run, _ = store.create_run(a_run())
    assert store.request_cancel(run.id) == "cancelled"
    assert store.claim_next() is None
    last = store.events_after(run.id)[-1]
    assert last.type == "failed" and last.data["cancelled"] is True


def test_cancelling_a_running_run_asks_the_runner(store: RunStore) -> None:
    run, _ = store.create_run(a_run())
    store.claim_next()
    assert not store.cancel_requested(run.id)
    assert store.request_cancel(run.id) == "running"
    assert store.cancel_requested(run.id)


def test_everything_survives_reopening_the_file(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    first = RunStore(path)
    queued, _ = first.create_run(a_run(connections=10))
    running, _ = first.create_run(a_run(connections=20))
    lease = claim(first)  # takes `queued`
    first.finish(lease, "done", done(a_result(qps=1.0)))
    lease = claim(first)  # takes `running`, which begins measuring, then the process "dies"
    first.began_measuring(lease)

    again = RunStore(path)
    assert again.get_run(queued.id).result["summary"]["qps"] == 1  # type: ignore[index,union-attr]
    assert again.get_run(queued.id).request.connections == 10  # type: ignore[union-attr]
    assert again.recover_interrupted("interrupted") == [running.id]
    interrupted = again.get_run(running.id)
    assert interrupted is not None and interrupted.status == "failed"
    assert again.events_after(running.id)[-1].data["reason"] == "interrupted"


def test_a_restarted_runner_queues_again_once_a_run_it_had_not_begun_measuring(
    store: RunStore,
) -> None:
    """Issue 23.9: the README says a run whose load had not begun goes back to the queue when
    its runner dies; a restarted runner used to fail it."""
    run, _ = store.create_run(a_run())
    store.claim_next(runner_id="r1")
    assert store.recover_interrupted("interrupted", runner_id="r1") == [run.id]
    again = store.get_run(run.id)
    assert again is not None and again.status == "queued"
    requeued = [e for e in store.events_after(run.id) if e.type == "requeued"]
    assert (
        len(requeued) == 1
        and "runner restarted before it began measuring" in (requeued[0].data["reason"])
    )
    store.claim_next(runner_id="r1")  # once only: the second time it fails
    assert store.recover_interrupted("interrupted", runner_id="r1") == [run.id]
    assert store.get_run(run.id).status == "failed"  # type: ignore[union-attr]


def claim_all(store: RunStore) -> list[str | None]:
    order = []
    while (run := store.claim_next()) is not None:
        order.append(run.request.lesson)
    return order


def test_fair_share_interleaves_a_sweep_with_other_peoples_runs(
    store: RunStore, sweeps: SweepStore
) -> None:
    """Three people and a sweep: the sweep's points take turns with the others' runs, and the
    instructor's run, queued last, goes first."""
    ana, ben, cai = (Admission(owner_id=who) for who in ("ana", "ben", "cai"))
    sweep: list[PlannedPoint] = [
        ("c-epoll", float(i), a_run(lesson=f"ana{i}"), "") for i in range(1, 5)
    ]
    sweeps.create_sweep({"vary": "connections"}, sweep, ana)
    store.create_run(a_run(lesson="ben1"), ben)
    store.create_run(a_run(lesson="cai1"), cai)
    store.create_run(a_run(lesson="cai2"), cai)
    store.create_run(a_run(lesson="teacher"), Admission(owner_id="tea", priority=1))

    assert claim_all(store) == ["teacher", "ana1", "ben1", "cai1", "ana2", "cai2", "ana3", "ana4"]


def test_a_person_joining_late_waits_behind_the_clock_not_behind_everyone(store: RunStore) -> None:
    ana, ben = Admission(owner_id="ana"), Admission(owner_id="ben")
    for i in range(1, 4):
        store.create_run(a_run(lesson=f"ana{i}"), ana)
    store.claim_next()  # ana1 runs: the clock moves to its tag
    store.create_run(a_run(lesson="ben1"), ben)
    assert claim_all(store) == ["ben1", "ana2", "ana3"]


def test_positions_are_exact_under_concurrent_submissions(store: RunStore) -> None:
    """One person's 50 concurrent runs queue one behind the other: 50 different answers.
    With several people a newcomer may go ahead of earlier runs (fair share), so answers
    given at different moments can repeat a number; at any one moment positions are 1..N."""
    ana = Admission(owner_id="ana")
    with ThreadPoolExecutor(max_workers=25) as pool:
        places = list(pool.map(lambda _: store.create_run(a_run(), ana)[1], range(50)))
    assert sorted(p.position or 0 for p in places) == list(range(1, 51))
    with ThreadPoolExecutor(max_workers=25) as pool:
        list(pool.map(lambda i: store.create_run(a_run(), Admission(f"p{i}")), range(30)))
    queued = [r for r in store.list_runs(Scope(everyone=True), 100) if r.status == "queued"]
    now = sorted(store.queue_place(r).position or 0 for r in queued)  # type: ignore[union-attr]
    assert now == list(range(1, 81))


def test_a_class_queue_read_while_runs_are_queued_is_one_moments(store: RunStore) -> None:
    """The class's queue reads the places and the runs in several statements: they must see
    the same moment, or a run queued in between has no place (a KeyError, a 500, once seen
    under the e2e test's load). 300 reads while 300 runs are queued beside them."""
    student = Admission(owner_id="ana", class_id="c1")
    with ThreadPoolExecutor(max_workers=2) as pool:
        queued = pool.submit(lambda: [store.create_run(a_run(), student) for _ in range(300)])
        reads = [store.class_queue("c1") for _ in range(300)]
        queued.result()
    for listed in reads:
        positions = [place.position if place else None for _, place in listed]
        assert positions == list(range(1, len(listed) + 1))


def test_one_hundred_concurrent_submissions_never_pass_a_limit(
    store: RunStore, sweeps: SweepStore
) -> None:
    """Runs and sweeps from five people at once, against per-person and site limits: every
    answer is a queued run or a refusal with Retry-After, and no limit is ever passed."""
    per_person, site = 12, 40
    people = [
        Admission(owner_id=f"p{i}", queued_per_person=per_person, queued_site=site)
        for i in range(5)
    ]
    sweep: list[PlannedPoint] = [("c-epoll", float(v), a_run(), "") for v in range(3)]

    def submit(i: int) -> str:
        admission = people[i % 5]
        try:
            if i % 4 == 0:
                sweeps.create_sweep({"vary": "connections"}, sweep, admission)
            else:
                store.create_run(a_run(), admission)
        except QueueFull as full:
            assert full.retry_after_s >= 1 and full.headers["Retry-After"]
            return "refused"
        return "queued"

    with ThreadPoolExecutor(max_workers=100) as pool:
        answers = list(pool.map(submit, range(100)))
    queued = [r for r in store.list_runs(Scope(everyone=True), 500) if r.status == "queued"]
    assert len(queued) <= site and "refused" in answers
    for person in people:
        assert sum(r.owner_id == person.owner_id for r in queued) <= per_person


def test_limits_refuse_with_when_to_try_again(store: RunStore, sweeps: SweepStore) -> None:
    ana = Admission(owner_id="ana", queued_per_person=2, runs_per_minute=3, queued_site=10)
    for _ in range(2):
        store.create_run(a_run(), ana)
    store.claim_next()  # busy for EXPECTED_S: the next of ana's starts then
    store.create_run(a_run(), ana)
    with pytest.raises(QueueFull, match="you already have 2 runs waiting") as full:
        store.create_run(a_run(), ana)
    assert full.value.retry_after_s == math.ceil(EXPECTED_S)
    store.claim_next()
    with pytest.raises(QueueFull, match="3 runs in the last minute") as fast:
        store.create_run(a_run(), ana)
    assert 55 <= fast.value.retry_after_s <= 60
    with pytest.raises(InvalidRequest, match="at most 2 waiting"):
        point: PlannedPoint = ("c-epoll", 1.0, a_run(), "")
        sweeps.create_sweep({}, [point] * 3, replace(ana, runs_per_minute=None))
    site = Admission(owner_id="ben", queued_site=1)
    with pytest.raises(QueueFull, match="the course's queue is full"):
        store.create_run(a_run(), site)


def test_a_queue_with_room_left_says_how_much_rather_than_full(
    store: RunStore, sweeps: SweepStore
) -> None:
    """Issue 23.10: at 199 of 200 a sweep of two was told the queue was full."""
    site = Admission(owner_id="ben", queued_site=3)
    for _ in range(2):
        store.create_run(a_run(), site)
    with pytest.raises(QueueFull, match=r"has room for 1 more run and this asks for 2: 2 are"):
        sweeps.create_sweep(
            {}, [("c-epoll", 1.0, a_run(), ""), ("c-epoll", 2.0, a_run(), "")], site
        )
    store.create_run(a_run(), site)
    with pytest.raises(QueueFull, match="the course's queue is full: 3 runs are waiting"):
        store.create_run(a_run(), site)


def test_a_run_whose_lease_ran_out_fails_and_its_runner_cannot_overwrite_it(
    store: RunStore,
) -> None:
    run, _ = store.create_run(a_run())
    lease = claim(store, runner_id="r1", lease_s=30)  # held however slow this machine is
    store.began_measuring(lease)
    assert store.renew_lease(lease, 0.05)  # ... until this renewal, which runs out at once
    assert not store.renew_lease(replace(lease, runner_id="r2"), 60)  # not r2's run
    time.sleep(0.1)
    assert store.expire_leases() == [run.id]
    last = store.events_after(run.id)[-1]
    assert last.type == "failed" and last.data["reason"].startswith("runner r1 lost at ")
    # The runner, back from the dead, finds its run ended and leaves it so.
    with pytest.raises(LeaseLost):
        store.finish(lease, "done", done(a_result()))
    assert store.get_run(run.id).status == "failed"  # type: ignore[union-attr]
    assert not store.renew_lease(lease, 60)


def refused_writes(store: RunStore, stale: Lease) -> list[str]:
    """Every write a runner makes, tried with a lease that may no longer hold: those refused."""
    refused = [] if store.renew_lease(stale, 60) else ["renew_lease"]
    writes: dict[str, Callable[[], object]] = {
        "append_event": lambda: store.append_event(stale, progress(1.0)),
        "began_measuring": lambda: store.began_measuring(stale),
        "finish": lambda: store.finish(stale, "done", done(a_result(qps=666.0))),
    }
    for name, write in writes.items():
        try:
            write()
        except LeaseLost:
            refused.append(name)
    return refused


ALL_WRITES = ["renew_lease", "append_event", "began_measuring", "finish"]


def test_a_runner_past_its_lease_writes_nothing_to_the_run_another_runner_took(
    store: RunStore,
) -> None:
    """Issue 23.8: a runner frozen past its lease used to end, on waking, the run that had
    been queued again and taken by another runner."""
    run, _ = store.create_run(a_run())
    frozen = claim(store, runner_id="r1", lease_s=0.05)
    time.sleep(0.1)
    assert store.expire_leases() == [run.id]  # not measuring yet: queued again
    taken = claim(store, runner_id="r2")
    assert taken.run_id == run.id
    events_before = len(store.events_after(run.id))

    assert refused_writes(store, frozen) == ALL_WRITES
    assert len(store.events_after(run.id)) == events_before
    again = store.get_run(run.id)
    assert again is not None and again.status == "running" and again.lease == taken
    store.finish(taken, "done", done(a_result(qps=1.0)))  # the holder's end stands
    assert store.get_run(run.id).result["summary"]["qps"] == 1  # type: ignore[index,union-attr]


def test_a_runner_that_takes_a_run_again_holds_only_its_new_claim(store: RunStore) -> None:
    """The same runner, restarted under its name, claims the run it lost: what its old self
    would still write (a thread left over) must miss. The claim's number tells them apart."""
    run, _ = store.create_run(a_run())
    old = claim(store, runner_id="r1", lease_s=0.05)
    time.sleep(0.1)
    store.expire_leases()
    new = claim(store, runner_id="r1")
    assert (new.run_id, new.runner_id, new.claim) == (run.id, "r1", old.claim + 1)
    assert refused_writes(store, old) == ALL_WRITES
    assert refused_writes(store, new) == []


def test_a_lease_that_ran_out_holds_nothing_before_anyone_notices(store: RunStore) -> None:
    """No sweep has expired it yet; the runner, waking, must still not write (its load ran on
    without it, and the run is about to be someone else's to end)."""
    run, _ = store.create_run(a_run())
    lapsed = claim(store, runner_id="r1", lease_s=0.05)
    time.sleep(0.1)
    assert refused_writes(store, lapsed) == ALL_WRITES
    assert store.expire_leases() == [run.id]
    assert store.get_run(run.id).status == "queued"  # type: ignore[union-attr]


def test_a_run_that_lost_its_runner_before_measuring_is_queued_again_once(
    store: RunStore,
) -> None:
    run, _ = store.create_run(a_run())
    behind, _ = store.create_run(a_run())
    store.claim_next(runner_id="r1", lease_s=0.01)
    time.sleep(0.05)
    assert store.expire_leases() == [run.id]
    requeued = [e for e in store.events_after(run.id) if e.type == "requeued"]
    assert len(requeued) == 1 and "runner r1 lost at " in requeued[0].data["reason"]
    assert "before it began measuring: queued again" in requeued[0].data["reason"]
    assert store.queue_place(store.get_run(run.id)).position == 1  # type: ignore[arg-type,union-attr]
    # Its place kept: it is claimed again before the run behind it. A second loss fails it.
    again = store.claim_next(runner_id="r2", lease_s=0.01)
    assert again is not None and again.id == run.id
    time.sleep(0.05)
    store.expire_leases()
    assert store.get_run(run.id).status == "failed"  # type: ignore[union-attr]
    assert store.get_run(behind.id).status == "queued"  # type: ignore[union-attr]


OLD_SCHEMA = """
CREATE TABLE runs (id TEXT PRIMARY KEY, server TEXT NOT NULL, status TEXT NOT NULL,
    request TEXT NOT NULL, result TEXT, error TEXT, cancel_requested INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL, started_at TEXT, finished_at TEXT);
CREATE INDEX runs_by_status ON runs (status, created_at);
CREATE TABLE events (run_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL,
    data TEXT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (run_id, seq));
CREATE TABLE sweeps (id TEXT PRIMARY KEY, request TEXT NOT NULL, points TEXT NOT NULL,
    created_at TEXT NOT NULL);
INSERT INTO runs VALUES ('old', 'c-epoll', 'done', '{}', '{"qps": 7}', NULL, 0,
    '2026-11-01T10:00:00.000+00:00', NULL, NULL);
INSERT INTO runs VALUES ('waiting', 'c-epoll', 'queued', '{}', NULL, NULL, 0,
    '2026-11-01T10:00:01.000+00:00', NULL, NULL);
INSERT INTO sweeps VALUES ('s', '{}', '[]', '2026-11-01T10:00:00.000+00:00');
"""


def test_a_store_from_the_previous_version_upgrades_in_place(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(OLD_SCHEMA)
    store = RunStore(path)
    old = store.get_run("old")
    assert old is not None and old.result == {"qps": 7} and old.owner_id == "solo"
    assert SweepStore(path).get_sweep("s").owner_id == "solo"  # type: ignore[union-attr]
    claimed = store.claim_next()
    assert claimed is not None and claimed.id == "waiting"


def test_waits_follow_how_long_runs_really_took(store: RunStore) -> None:
    """Two finished runs took half the time expected of them: the waits announced halve."""
    request = a_run(duration_s=20 - RUN_OVERHEAD_S, warmup_s=0)  # expected: 20 s
    for _ in range(2):
        run, _ = store.create_run(request)
        store.finish(claim(store), "done", done(a_result()))
        with store.write() as db:
            took_10_s = runs.c.started_unix + 10
            db.execute(update(runs).where(runs.c.id == run.id).values(finished_unix=took_10_s))
    _, first = store.create_run(request)
    _, second = store.create_run(request)
    assert (first.wait_s, second.wait_s) == (0, 10)
