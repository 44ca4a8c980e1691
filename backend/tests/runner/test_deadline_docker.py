"""A benchmark container ends by itself at its deadline, with no runner left to stop it."""

import time

import docker
import pytest

from c10klab.config import Settings
from c10klab.runner.docker_engine import Engine
from c10klab.runner.plan import LABEL, ContainerSpec, plan_run, self_deadline, store_label
from c10klab.runs.schemas import RunRequest
from c10klab.sandboxes.service import load_catalog

pytestmark = pytest.mark.docker


def test_the_server_container_ends_itself_at_its_deadline(settings: Settings) -> None:
    if not Engine.probe()["reachable"]:
        pytest.fail("no Docker engine; `make test` starts one")
    server = load_catalog(settings.sandboxes_dir).get("c-forking")
    assert server is not None
    request = RunRequest(server="c-forking", duration_s=1)
    planned = plan_run("deadline-test", server, request, settings).server
    # The same container as a run's, with a 3-second deadline instead of the run's.
    spec = ContainerSpec(planned.image, planned.command, planned.kwargs | self_deadline(3))
    engine = Engine()
    container = engine.start(spec)
    try:
        time.sleep(1)
        assert Engine.is_running(container)[0]
        deadline = time.monotonic() + 30
        while Engine.is_running(container)[0] and time.monotonic() < deadline:
            time.sleep(0.5)
        running, code = Engine.is_running(container)
        assert not running, "the container outlived its deadline"
        assert code == 0  # c-forking stopped cleanly on the SIGTERM its deadline sent
    finally:
        container.remove(force=True)
    label = f"{LABEL}={store_label(settings)}"
    assert docker.from_env().containers.list(all=True, filters={"label": label}, sparse=True) == []
