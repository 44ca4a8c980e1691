"""Waiting for this machine to be quiet before a test that needs it so (`make test-quiet`).

After the other suites the host goes on working for a while: the kernel writes the builds'
files back and reclaims their memory, Docker removes what they left. A quiet test started
then measures that, not the course: on 2026-12-07, right after `make test`'s lanes, quiet runs
found 6-10 % of the server's core taken by others, and 2-3 % once the host had settled."""

import os
import time
from pathlib import Path

import pytest

from c10klab.runner.measure import parse_proc_stat

# Settled: at most this share of all CPUs busy, in this many one-second looks in a row.
SETTLED_BUSY = 0.05
SETTLED_LOOKS = 3
# Long enough for what the lanes leave behind: on 2026-12-07 the kernel's writeback and vsock
# workers kept this host 6 % busy for over 180 s after them, and it was quiet within 4 minutes.
SETTLE_TIMEOUT_S = 360
NOT_BUSY = ("idle", "iowait")


def cpu_ticks() -> tuple[int, int]:
    """(busy, all) ticks since boot, over every CPU."""
    rows = parse_proc_stat(Path("/proc/stat").read_text()).values()
    total = sum(sum(row.values()) for row in rows)
    return total - sum(row[c] for row in rows for c in NOT_BUSY), total


def process_ticks() -> dict[str, int]:
    """Each process's CPU ticks since it started (user + system), by "pid name"."""
    ticks = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue  # it ended meanwhile
        name, fields = text[text.index("(") + 1 : text.rindex(")")], text.rsplit(")", 1)[1].split()
        ticks[f"{stat.parent.name} {name}"] = int(fields[11]) + int(fields[12])
    return ticks


def busiest(before: dict[str, int], after: dict[str, int], count: int = 3) -> str:
    used = sorted(((t - before.get(p, 0), p) for p, t in after.items()), reverse=True)
    return ", ".join(f"{p} ({ticks} ticks)" for ticks, p in used[:count] if ticks > 0) or "none"


def wait_until_settled() -> None:
    """Return once the host has been quiet for SETTLED_LOOKS seconds in a row; fail, naming
    what kept it busy, if it is not within SETTLE_TIMEOUT_S."""
    os.sync()  # what the builds wrote, written now rather than during the measurement
    deadline, quiet_looks = time.monotonic() + SETTLE_TIMEOUT_S, 0
    while quiet_looks < SETTLED_LOOKS:
        (busy, total), processes = cpu_ticks(), process_ticks()
        time.sleep(1)
        (busy_after, total_after), processes_after = cpu_ticks(), process_ticks()
        share = (busy_after - busy) / max(total_after - total, 1)
        quiet_looks = quiet_looks + 1 if share <= SETTLED_BUSY else 0
        if quiet_looks < SETTLED_LOOKS and time.monotonic() > deadline:
            pytest.fail(
                f"this machine was not quiet for {SETTLE_TIMEOUT_S} s ({share:.0%} of its CPUs "
                f"busy in the last second, more than {SETTLED_BUSY:.0%}; busiest: "
                f"{busiest(processes, processes_after)}): a quiet test measures nothing else "
                "running. Stop what runs and run it again (make test-quiet)."
            )
