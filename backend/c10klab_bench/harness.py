"""Run benchmark requests through a real runner, one after another, and collect their results.

The harness queues each request through runs.service (so the catalog's limits apply exactly as
for a learner) into a store of its own, runs a Runner in this process, and waits for the run's
terminal event.
"""

import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from c10klab.config import Settings
from c10klab.errors import DomainError
from c10klab.runner.docker_engine import Engine
from c10klab.runner.worker import Runner
from c10klab.runs.schemas import RunRequest
from c10klab.runs.service import create_run
from c10klab.runs.store import TERMINAL_EVENTS, RunStore
from c10klab.sandboxes.service import load_catalog

POLL_S = 0.2


@dataclass(frozen=True)
class Outcome:
    """One run's end: `result` for a finished run, else why it did not give one."""

    request: dict[str, Any]
    result: dict[str, Any] | None
    failure: str | None

    @property
    def qps(self) -> float | None:
        if self.result is None or not self.result["valid"]:
            return None
        return float(self.result["summary"]["qps"])


class Harness:
    def __init__(self, settings: Settings, store: RunStore) -> None:
        self.settings, self.store = settings, store
        self.catalog = load_catalog(settings.sandboxes_dir)

    def run(self, request: dict[str, Any], timeout_s: float = 600) -> Outcome:
        try:
            run, _ = create_run(RunRequest(**request), self.catalog, self.settings, self.store)
        except DomainError as refused:
            return Outcome(request, None, f"refused: {refused.message}")
        deadline = time.monotonic() + timeout_s
        seen = 0
        while time.monotonic() < deadline:
            for event in self.store.events_after(run.id, seen):
                seen = event.seq
                if event.type in TERMINAL_EVENTS:
                    if event.type == "done":
                        return Outcome(request, event.data, None)
                    return Outcome(request, None, str(event.data.get("reason")))
            time.sleep(POLL_S)
        self.store.request_cancel(run.id)
        return Outcome(request, None, f"no result within {timeout_s:.0f} s")


@contextmanager
def harness(settings: Settings | None = None) -> Iterator[Harness]:
    """A runner on a throwaway store, stopped (and its containers removed) on exit."""
    with tempfile.TemporaryDirectory(prefix="c10klab-bench-") as tmp:
        settings = (settings or Settings()).model_copy(
            update={"db_path": Path(tmp) / "bench.sqlite3"}
        )
        store = RunStore(settings.store)
        runner = Runner(settings, store, Engine())
        thread = threading.Thread(target=runner.serve, daemon=True, name="runner")
        thread.start()
        try:
            yield Harness(settings, store)
        finally:
            runner.stopping.set()
            thread.join(timeout=120)


def median_and_spread(values: list[float]) -> tuple[float, float] | None:
    """The median and the spread ((max - min) / median) of repeated measurements."""
    if not values:
        return None
    median = statistics.median(values)
    spread = (max(values) - min(values)) / median if median else 0.0
    return median, spread


def write_result(path: Path, lines: list[str]) -> None:
    """A bench's Markdown, written where it was asked for, and said so."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines))
    print(f"wrote {path}")
