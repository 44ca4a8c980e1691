"""The supervisor's own pieces; tests/test_supervisor_docker.py runs the whole of it."""

import os
import subprocess
import sys
import time

import pytest

from c10klab import config, supervisor
from c10klab.config import Settings, format_cpus, online_cpus, spare_cpus
from c10klab.runner import plan
from c10klab.supervisor import Child


def test_the_course_keeps_off_the_benchmark_cpus_only_where_there_are_spare_ones() -> None:
    settings = Settings(server_cpus="0", loadgen_cpus="1")
    assert spare_cpus({0, 1}, settings) is None  # two CPUs: nowhere else to go
    assert spare_cpus({0, 1, 2, 3}, settings) == {2, 3}
    wide = Settings(server_cpus="0-1", loadgen_cpus="2-3")
    assert spare_cpus({0, 1, 2, 3}, wide) is None
    assert spare_cpus({0, 1, 2, 3, 4, 5}, wide) == {4, 5}


def test_the_spare_cpus_are_the_hosts_online_ones_and_watchers_go_there_when_there_are(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert online_cpus() >= os.sched_getaffinity(0)  # sysfs: the host's, not this mask
    assert format_cpus({3, 2, 10}) == "2,3,10"
    settings = Settings(server_cpus="0", loadgen_cpus="1")
    monkeypatch.setattr(config, "online_cpus", lambda: {0, 1})
    assert plan.watcher_cpus(settings) == "1"  # a 2-CPU host: the load generator's, never 0
    monkeypatch.setattr(config, "online_cpus", lambda: {0, 1, 2, 3})
    assert plan.watcher_cpus(settings) == "2,3"


def test_a_process_started_on_a_host_with_spare_cpus_moves_itself_there() -> None:
    """A real process: the benchmark's pinned on (made-up) CPUs 5 and 6 of a host whose online
    CPUs are 1, 5 and 6, so CPU 1, which this machine has, is the spare one."""
    moves = (
        "import os; from c10klab import config, supervisor; from c10klab.config import Settings; "
        "config.online_cpus = lambda: {1, 5, 6}; "
        "spare = supervisor.keep_off_benchmark(Settings(server_cpus='5', loadgen_cpus='6')); "
        "print(spare, sorted(os.sched_getaffinity(0)))"
    )
    found = subprocess.run(
        [sys.executable, "-c", moves], capture_output=True, text=True, check=True
    )
    assert found.stdout.strip() == "{1} [1]"
    # only the benchmark's CPUs: it stays where it was
    stays = moves.replace("{1, 5, 6}", "{5, 6}")
    found = subprocess.run(
        [sys.executable, "-c", stays], capture_output=True, text=True, check=True
    )
    assert found.stdout.strip() == f"None {sorted(os.sched_getaffinity(0))}"


def test_a_child_that_dies_is_started_again_after_a_growing_back_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(supervisor, "BACKOFF_FIRST_S", 0.2)
    crashing = Child("runner", [sys.executable, "-c", "raise SystemExit(3)"], backoff_s=0.2)
    crashing.start()
    first = crashing.process
    assert first is not None and first.wait(timeout=10) == 3
    crashing.check()  # sees the death, schedules a start 0.2 s later
    assert crashing.restart_at is not None and crashing.backoff_s == pytest.approx(0.4)
    crashing.check()
    assert crashing.process is first  # not yet
    time.sleep(0.25)
    crashing.check()
    assert crashing.process is not first and crashing.restarts == 1
    assert crashing.process is not None and crashing.process.wait(timeout=10) == 3


def test_stopping_kills_a_child_that_ignores_sigterm() -> None:
    stubborn = Child(
        "api",
        [
            sys.executable,
            "-c",
            "import signal, time; signal.signal(15, signal.SIG_IGN); "
            "print('ready', flush=True); time.sleep(60)",
        ],
    )
    stubborn.start()
    time.sleep(0.5)
    stubborn.stop()
    began = time.monotonic()
    stubborn.wait_or_kill(time.monotonic() + 0.5)
    assert time.monotonic() - began < 5
    assert stubborn.process is not None and stubborn.process.returncode == -9
