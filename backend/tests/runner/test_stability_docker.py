"""The stability checks against the real engine: a quiet run is stable, and the same run with a
CPU burner on the server's core is unstable, with the interference figures that say so.

These share the machine with whatever else runs on it: the quiet one fails, with its figures,
when something else really did take the server's or the load generator's CPU meanwhile.
"""

from collections.abc import Iterator
from typing import Any

import docker
import pytest

from c10klab.config import Settings
from c10klab.runner.docker_engine import Engine
from c10klab.runs.store import RunStore
from tests.runner.engines import QUICK_RUN, engine_with, run_here

pytestmark = pytest.mark.docker

# Long enough for Docker's ~1/s stats to put at least two samples inside the measure phase,
# and for at least three intervals to judge drift by.
RUN = QUICK_RUN | {"connections": 50, "duration_s": 4}
BURNER_IMAGE = "c10klab/base:bookworm"
BURNER_LABEL = {"c10klab.test": "stability-cpu-burner"}


@pytest.fixture(scope="module")
def engine() -> Engine:
    return engine_with(["c10klab/server:c-epoll", "c10klab/loadgen:latest", BURNER_IMAGE])


@pytest.fixture
def burner(settings: Settings) -> Iterator[None]:
    """A container that spins on the server's CPU for as long as the test runs."""
    container = docker.from_env().containers.run(
        BURNER_IMAGE,
        ["sh", "-c", "while :; do :; done"],
        detach=True,
        cpuset_cpus=settings.server_cpus,
        labels=BURNER_LABEL,
        network_mode="none",
        read_only=True,
        cap_drop=["ALL"],
        user="65534:65534",
    )
    try:
        yield
    finally:
        container.remove(force=True)


def measured(engine: Engine, settings: Settings, store: RunStore) -> dict[str, Any]:
    last = run_here(engine, settings, store, RUN)
    assert last.type == "done", last.data
    result: dict[str, Any] = last.data
    return result


def figures(result: dict[str, Any]) -> str:
    interference, drift = result["interference"], result["drift"]
    keys = ("seconds", "busy", "container", "irq", "others", "steal", "interference")
    return (
        f"server {[interference['server'].get(k) for k in keys]}, "
        f"loadgen {[interference['loadgen'].get(k) for k in keys]}, "
        f"drifted {drift['drifted']} of {drift['intervals']} (median {drift.get('median_qps')})"
    )


# Run alone (make test-quiet): beside the other suites, the machine is not quiet.
@pytest.mark.quiet
def test_a_quiet_run_is_stable(engine: Engine, settings: Settings, store: RunStore) -> None:
    result = measured(engine, settings, store)
    interference = result["interference"]
    for role in ("server", "loadgen"):
        use = interference[role]
        assert use["judged"] and use["samples"] >= 2, use
        # The window is the part of the measure phase between two Docker samples.
        phase = interference["measure_phase"]
        assert phase["from_s"] <= use["from_s"] < use["to_s"] <= phase["to_s"], (phase, use)
        assert 0 < use["container"] <= 1.05 and 0 <= use["interference"] <= 1, use
    assert result["drift"]["judged"] and result["drift"]["intervals"] >= 3
    assert result["valid"], result["invalid_reason"]
    assert result["stable"], f"{result['unstable_reason']}: {figures(result)}"
    assert result["unstable_reason"] is None
    print(f"quiet: {figures(result)}")


@pytest.mark.usefixtures("burner")
def test_a_cpu_burner_on_the_servers_core_makes_the_run_unstable(
    engine: Engine, settings: Settings, store: RunStore
) -> None:
    result = measured(engine, settings, store)
    server = result["interference"]["server"]
    assert server["judged"], server
    assert server["interference"] > settings.max_interference_server, figures(result)
    assert not result["stable"]
    reason = result["unstable_reason"]
    assert reason.startswith("other processes") and "the server's CPU 0" in reason, reason
    # "(limit 10%)", or "(52% + 1% steal; limit 10%)" on a host whose hypervisor stole time
    assert f"limit {settings.max_interference_server:.0%})" in reason, reason
    assert result["valid"], result["invalid_reason"]  # disturbed, not broken: a separate verdict
    repetition = result["repetitions"][0]
    assert repetition["stable"] is False and repetition["unstable_reason"] == reason
    print(f"burner: {figures(result)}")
