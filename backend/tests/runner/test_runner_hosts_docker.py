"""Two runner processes serving one PostgreSQL store, with real containers: every run is
claimed once, in fair-share order, and ends; a runner killed mid-run loses its run within
the lease, the other carries on, and the killed one, started again, removes what it left.

Both runners pin the same two CPUs of this machine, so their runs are marked as sharing CPUs:
these tests check correctness, not speed."""

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import docker
import pytest

from c10klab.config import Settings
from c10klab.hosts.store import RunnerStore
from c10klab.runner.plan import LABEL, store_label
from c10klab.runner.worker import LEASE_S
from c10klab.runs.schemas import RunRequest
from c10klab.runs.store import QUEUE_ORDER, Admission, RunStore
from c10klab.runs.tables import runs
from tests import postgres
from tests.polling import poll

pytestmark = pytest.mark.docker

BACKEND = Path(__file__).resolve().parents[2]
SHORT_RUN = {
    "server": "c-epoll",
    "connections": 4,
    "payload_bytes": 64,
    "duration_s": 1,
    "warmup_s": 0,
    "protocol": "echo",
    "knobs": {},
}
ENDED = ("done", "failed", "cancelled")


def asking(request: dict[str, object]) -> RunRequest:
    return RunRequest.model_validate(request)


@pytest.fixture
def url() -> str:
    """A fresh database of the tests' throwaway PostgreSQL server, whatever --store says."""
    if os.environ.get("C10K_SKIP_DOCKER_TESTS") == "1":
        pytest.skip("C10K_SKIP_DOCKER_TESTS=1")
    name = f"hosts_{uuid.uuid4().hex[:12]}"
    postgres.server().create_database(name)
    return postgres.server().url(name)


class Runners:
    """Runner processes started as `make runner` starts one, each with its own log."""

    def __init__(self, url: str, logs: Path) -> None:
        self.url, self.logs = url, logs
        self.processes: dict[str, subprocess.Popen[bytes]] = {}

    def start(self, name: str) -> None:
        env = os.environ | {
            "C10K_DATABASE_URL": self.url,
            "C10K_RUNNER_ID": name,
            "C10K_SERVER_CPUS": "0",
            "C10K_LOADGEN_CPUS": "1",
            "C10K_CALIBRATION_RUNS": "0",
        }
        log = (self.logs / f"{name}.log").open("ab")
        self.processes[name] = subprocess.Popen(
            [sys.executable, "-m", "c10klab", "runner"],
            cwd=BACKEND,
            env=env,
            stdout=log,
            stderr=log,
        )

    def log(self, name: str) -> str:
        return (self.logs / f"{name}.log").read_text(errors="replace")

    def stop_all(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


@pytest.fixture
def runners(url: str, tmp_path: Path) -> Iterator[Runners]:
    started = Runners(url, tmp_path)
    yield started
    started.stop_all()


def wait_for(what: str, check: Callable[[], Any], within_s: float, logs: Runners) -> Any:
    found = poll(check, within_s, every_s=0.2)
    if found:
        return found
    pytest.fail(
        f"{what} within {within_s:.0f} s; runner logs:\n"
        + "\n".join(f"--- {name}\n{logs.log(name)[-3000:]}" for name in logs.processes)
    )


def status(store: RunStore, run_id: str) -> str | None:
    run = store.get_run(run_id)
    return run.status if run else None


def live_runners(url: str) -> set[str]:
    return {r.id for r in RunnerStore(url).hosts() if r.alive and r.docker.get("reachable")}


def test_two_runners_claim_every_run_once_in_fair_share_order(url: str, runners: Runners) -> None:
    store = RunStore(url)
    students = [Admission(owner_id=who, class_id="class-1") for who in ("ana", "ben", "cai")]
    ids = [store.create_run(asking(SHORT_RUN), students[i % 3])[0].id for i in range(20)]
    with store.connect() as db:  # the order the queue says they must start in
        planned = [row.id for row in db.execute(runs.select().order_by(*QUEUE_ORDER))]

    runners.start("runner-a")
    runners.start("runner-b")
    wait_for(
        "every run ended",
        lambda: all(status(store, i) in ENDED for i in ids),
        240,
        runners,
    )

    ended = [store.get_run(i) for i in ids]
    assert [r.status for r in ended if r] == ["done"] * 20, [r.error for r in ended if r]
    for run_id in ids:  # claimed once: one `started`, and one end
        types = [e.type for e in store.events_after(run_id)]
        assert types.count("started") == 1 and types.count("done") == 1, types
    with store.connect() as db:
        rows = db.execute(runs.select().order_by(runs.c.started_unix)).all()
    assert [row.id for row in rows] == planned  # claims took the queue's order, one at a time
    assert {row.claimed_by for row in rows} == {"runner-a", "runner-b"}
    # Both pin the same CPUs on this host: every run says with whom it shared them.
    provenance = [r.result["provenance"] for r in ended if r and r.result]
    assert all(p["runner"] in ("runner-a", "runner-b") for p in provenance)
    assert any(p["shares_cpus_with"] for p in provenance)


def test_a_killed_runner_loses_its_run_and_cleans_up_when_it_returns(
    url: str, runners: Runners
) -> None:
    store = RunStore(url)
    runners.start("runner-a")
    runners.start("runner-b")
    wait_for(
        "both runners ready", lambda: live_runners(url) == {"runner-a", "runner-b"}, 60, runners
    )

    long_run = dict(SHORT_RUN, duration_s=30)
    run, _ = store.create_run(asking(long_run))
    measuring = wait_for(
        "the long run's load started",
        lambda: (
            (r := store.get_run(run.id))
            and r.status == "running"
            and any(e.type == "progress" for e in store.events_after(run.id))
            and r
        ),
        60,
        runners,
    )
    with store.connect() as db:
        holder = db.execute(runs.select().where(runs.c.id == run.id)).one().claimed_by
    other = "runner-b" if holder == "runner-a" else "runner-a"
    assert measuring.status == "running"
    runners.processes[holder].send_signal(signal.SIGKILL)
    killed_at = time.monotonic()
    label = store_label(Settings(database_url=url, runner_id=holder))
    engine = docker.from_env()
    left = engine.containers.list(all=True, filters={"label": f"{LABEL}={label}"}, sparse=True)
    assert left, "the killed runner's containers should still be there"

    # The API's housekeeping ends lost leases; here the test does its part.
    def failed() -> bool:
        store.expire_leases()
        return status(store, run.id) == "failed"

    wait_for("the killed runner's run failed", failed, LEASE_S + 10, runners)
    assert time.monotonic() - killed_at <= LEASE_S + 5
    reason = store.events_after(run.id)[-1].data["reason"]
    assert reason.startswith(f"runner {holder} lost at "), reason

    after, _ = store.create_run(asking(SHORT_RUN))  # the other carries on
    wait_for("the other runner's run", lambda: status(store, after.id) == "done", 60, runners)
    with store.connect() as db:
        assert db.execute(runs.select().where(runs.c.id == after.id)).one().claimed_by == other

    runners.start(holder)  # back: it removes what it left before it claims anything
    wait_for(
        "the returning runner removed its leftover containers",
        lambda: (
            not engine.containers.list(all=True, filters={"label": f"{LABEL}={label}"}, sparse=True)
        ),
        60,
        runners,
    )
    wait_for("the returning runner is live", lambda: holder in live_runners(url), 30, runners)


def test_a_runner_frozen_past_its_lease_writes_nothing_once_another_took_its_run(
    url: str, runners: Runners
) -> None:
    """Issue 23.8: a runner paused (SIGSTOP) past its lease lost its run to the queue, and on
    waking still ended it. Now the run, queued again, is the other runner's to measure and
    end; the woken one's writes are refused, it gives the run up and removes what it began."""
    store = RunStore(url)
    runners.start("runner-a")
    wait_for("runner-a ready", lambda: live_runners(url) == {"runner-a"}, 60, runners)

    run, _ = store.create_run(asking(SHORT_RUN))

    def begun_by_a() -> bool:  # claimed, and its `started` written (no write half-done)
        with store.connect() as db:
            row = db.execute(runs.select().where(runs.c.id == run.id)).one()
        return row.claimed_by == "runner-a" and any(
            e.type == "started" for e in store.events_after(run.id)
        )

    wait_for("runner-a began the run", begun_by_a, 30, runners)
    runners.processes["runner-a"].send_signal(signal.SIGSTOP)
    try:
        frozen = store.get_run(run.id)
        assert frozen is not None and frozen.lease is not None
        with store.connect() as db:
            measuring = db.execute(runs.select().where(runs.c.id == run.id)).one().measuring_unix
        assert measuring is None, "runner-a began measuring before it was frozen: try again"

        def requeued() -> bool:
            store.expire_leases()  # the API's housekeeping, done here
            return status(store, run.id) == "queued"

        wait_for("the frozen runner's run queued again", requeued, LEASE_S + 10, runners)
        runners.start("runner-b")
        wait_for("runner-b measured the run", lambda: status(store, run.id) == "done", 90, runners)
    finally:
        runners.processes["runner-a"].send_signal(signal.SIGCONT)

    ended = store.get_run(run.id)
    assert ended is not None and ended.result is not None
    assert ended.result["provenance"]["runner"] == "runner-b"
    events_then = store.events_after(run.id)
    wait_for(
        "runner-a gave the run up",
        lambda: "no longer ours" in runners.log("runner-a"),
        30,
        runners,
    )
    # Nothing runner-a meant to write got in: the run and its events are as runner-b left them.
    assert store.events_after(run.id) == events_then
    assert store.get_run(run.id) == ended
    assert [e.type for e in events_then].count("done") == 1
    label = store_label(Settings(database_url=url, runner_id="runner-a"))
    wait_for(
        "runner-a removed the containers it began",
        lambda: (
            not docker.from_env().containers.list(
                all=True, filters={"label": f"{LABEL}={label}"}, sparse=True
            )
        ),
        30,
        runners,
    )
    after, _ = store.create_run(asking(SHORT_RUN))  # and both carry on
    wait_for("the next run", lambda: status(store, after.id) == "done", 60, runners)
