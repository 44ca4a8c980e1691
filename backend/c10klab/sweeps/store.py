"""The sweeps domain's queries: a sweep is a series of runs, one per (server, value) point,
queued together (its table is declared in tables.py; its runs are the runs domain's)."""

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Row, insert, select

from c10klab.db import Database, from_row, now_iso
from c10klab.runs.schemas import RunRequest
from c10klab.runs.store import Admission, Mine, RunStore
from c10klab.sweeps.tables import sweeps

ANYONE = Admission()  # no limits: for tools and tests that queue directly

# A planned sweep point: (server, value, run request or None, why skipped).
PlannedPoint = tuple[str, float, RunRequest | None, str]


@dataclass(frozen=True)
class Sweep:
    id: str
    request: dict[str, Any]
    # [{"server", "value", "run_id" (None if skipped), "skipped" (why, or None)}], in order
    points: list[dict[str, Any]]
    created_at: str
    owner_id: str = "solo"
    class_id: str | None = None


def _sweep(row: Row[Any]) -> Sweep:
    return from_row(Sweep, row, request=json.loads(row.request), points=json.loads(row.points))


class SweepStore(Database):
    def __init__(self, where: str | Path) -> None:
        super().__init__(where)
        self.runs = RunStore(where)

    def create_sweep(
        self,
        request: dict[str, Any],
        points: Sequence[PlannedPoint],
        admission: Admission = ANYONE,
    ) -> Sweep:
        """Admit and queue a sweep's runs and record it, all in one transaction: either every
        point is queued, or none."""
        sweep_id = uuid.uuid4().hex
        stored: list[dict[str, Any]] = []
        new_runs: list[tuple[str, RunRequest]] = []
        for server, value, run_request, skipped in points:
            run_id = None
            if run_request is not None:
                run_id = uuid.uuid4().hex
                # The point keeps its entry ("variant:<id>"); the run, the server it runs.
                new_runs.append((run_id, run_request))
            why = None if run_id else skipped
            stored.append({"server": server, "value": value, "run_id": run_id, "skipped": why})
        created = now_iso()
        with self.write() as db:
            self.runs.queue(db, admission, new_runs)
            db.execute(
                insert(sweeps).values(
                    id=sweep_id,
                    request=json.dumps(request),
                    points=json.dumps(stored),
                    created_at=created,
                    owner_id=admission.owner_id,
                    class_id=admission.class_id,
                    browser=admission.browser,
                )
            )
        return Sweep(sweep_id, request, stored, created, admission.owner_id, admission.class_id)

    def get_sweep(self, sweep_id: str) -> Sweep | None:
        row = self.first_row(select(sweeps).where(sweeps.c.id == sweep_id))
        return _sweep(row) if row else None

    def class_sweeps(self, class_id: str) -> list[Sweep]:
        with self.connect() as db:
            rows = db.execute(
                select(sweeps).where(sweeps.c.class_id == class_id).order_by(sweeps.c.created_at)
            )
            return [_sweep(r) for r in rows]

    def history(self, mine: Mine, limit: int) -> list[Sweep]:
        """One learner's newest sweeps: see Mine."""
        return [_sweep(r) for r in self.rows(mine.newest(sweeps).limit(limit))]
