"""Every server as the course ships it passes the load generator's correctness check
(`loadgen --check`): the check a learner's edited copy must pass before it is measured. An
original that failed it would fail every unedited copy, for a reason the learner did not
make. The check opens as many connections at once as the server serves, as the runner does."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from conftest import SANDBOXES, StartServer, Variant

# The host's build (make loadgen), or the one the course runs, copied from its image
# (make test: C10K_LOADGEN, see the Makefile's test-conformance).
LOADGEN = Path(
    os.environ.get("C10K_LOADGEN", SANDBOXES / "loadgen" / "target" / "release" / "loadgen")
)
MOST_CONNECTIONS = 64  # the runner's CHECK_CONNECTIONS, loadgen --check's most
CHECK_TIMEOUT_S = 120  # the check bounds itself at 60 s; this is for a hang of ours


@pytest.mark.default_knobs
@pytest.mark.parametrize("protocol", ["echo", "http"])
def test_the_original_passes_the_correctness_check(
    start_server: StartServer, variant: Variant, protocol: str
) -> None:
    if protocol not in variant.server["protocols"]:
        pytest.skip(f"{variant.id} does not speak {protocol}")
    assert LOADGEN.exists(), f"{LOADGEN} is missing: build it with make loadgen"
    server = start_server(protocol)
    connections = min(variant.concurrency, MOST_CONNECTIONS)
    checked = subprocess.run(
        [
            str(LOADGEN),
            "--check",
            "--host",
            "127.0.0.1",
            "--port",
            str(server.port),
            "--protocol",
            protocol,
            "--connections",
            str(connections),
        ],
        capture_output=True,
        text=True,
        timeout=CHECK_TIMEOUT_S,
    )
    report = json.loads(checked.stdout.splitlines()[-1])
    assert report["ok"], f"{report['failed']}\nthe server said:\n{server.stderr()}"
    assert server.alive(), f"server died:\n{server.stderr()}"
