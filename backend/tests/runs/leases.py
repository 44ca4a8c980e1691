"""Runs held as a runner holds them, for tests that play the runner's part: every write a
runner makes about a run goes through its lease (runs/store.py)."""

from sqlalchemy import update

from c10klab.db import unix_now
from c10klab.runs.store import Lease, RunStore
from c10klab.runs.tables import runs


def claim(store: RunStore, runner_id: str = "local", lease_s: float = 3600) -> Lease:
    """Claim the next run in the queue's order, as a runner does; the test expects one."""
    run = store.claim_next(runner_id, lease_s)
    assert run is not None and run.lease is not None, "no run was waiting"
    return run.lease


def hold(store: RunStore, run_id: str, runner_id: str = "local") -> Lease:
    """Hold one given run whatever its place in the queue (for tests that end a sweep's runs
    in their own order): a claim without the queue's bookkeeping."""
    with store.write() as db:
        db.execute(
            update(runs)
            .where(runs.c.id == run_id)
            .values(
                status="running",
                claimed_by=runner_id,
                claims=runs.c.claims + 1,
                lease_until=unix_now() + 3600,
            )
        )
    run = store.get_run(run_id)
    assert run is not None and run.lease is not None
    return run.lease
