"""What the runner's Docker tests share: the engine they drive, the run they ask for when any
short echo run will do, and carrying a run out in the test's own thread."""

import os
from typing import Any

import pytest

from c10klab.config import Settings
from c10klab.runner.docker_engine import Engine
from c10klab.runner.worker import Runner
from c10klab.runs.schemas import RunRequest
from c10klab.runs.store import Event, RunStore

# A short echo run on c-epoll: enough for a result with figures, quick on any machine.
QUICK_RUN = {
    "server": "c-epoll",
    "connections": 20,
    "payload_bytes": 64,
    "duration_s": 3,
    "warmup_s": 1,
    "protocol": "echo",
    "knobs": {},
}


def engine_with(images: list[str]) -> Engine:
    """The Docker engine, with these images built. Without a reachable engine or an image the
    test fails, saying how to get it, unless C10K_SKIP_DOCKER_TESTS=1 (a quick run on a
    machine without Docker) skips it."""
    if os.environ.get("C10K_SKIP_DOCKER_TESTS") == "1":
        pytest.skip("C10K_SKIP_DOCKER_TESTS=1")
    state = Engine.probe()
    if not state["reachable"]:
        pytest.fail(
            f"no Docker engine ({state['error']}); `make test` starts one, or set "
            "C10K_SKIP_DOCKER_TESTS=1 to leave these tests out"
        )
    missing = [t for t, ok in Engine().images_present(images).items() if not ok]
    if missing:
        pytest.fail(f"images missing: {missing}; run `make images`")
    return Engine()


def run_here(engine: Engine, settings: Settings, store: RunStore, request: dict[str, Any]) -> Event:
    """Queue a run and carry it out as a runner would, in this thread; its last event."""
    run, _ = store.create_run(RunRequest.model_validate(request))
    claimed = store.claim_next()
    assert claimed is not None
    Runner(settings, store, engine).execute(claimed)
    return store.events_after(run.id)[-1]
