"""Runs `make test`'s suites in lanes: the lanes side by side, each lane's suites one after
another, then the suites that need the machine to themselves, alone.

Two lanes fit two cores because one of them mostly waits: the Docker lane's suites start
containers, wait for runs and for pages to draw, while the host lane's compile and check. A
suite is `make <suite>`; its output goes to var/test-logs/<suite>.log and a line says when it
passed. The first suite to fail stops everything: the end of its log is printed, the suites
running beside it are stopped, and the exit status is 1. The times, suite by suite, are kept in
var/test-times.txt (docs/test-times.md has them before and after).

A suite may wait for one in another lane (--after test-exercises=images): it starts only once
that one has passed, so what the other lane builds is not built twice at once.

Usage: scripts/test_lanes.py --lane host lint test-units --lane docker images test-e2e
                             [--after SUITE=FIRST] [--alone test-quiet]
"""

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "var" / "test-logs"
TIMES = ROOT / "var" / "test-times.txt"
TAIL_LINES = 80  # of a failed suite's log


@dataclass
class Outcome:
    suite: str
    lane: str
    seconds: float
    passed: bool
    stopped: bool = False  # by another suite's failure, so its own verdict is unknown


@dataclass
class Run:
    """What the lanes share: who failed first, and the suites running now (to stop them)."""

    failed: threading.Event = field(default_factory=threading.Event)
    running: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    outcomes: list[Outcome] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    # suite -> the suite it waits for; and the suites passed so far.
    after: dict[str, str] = field(default_factory=dict)
    passed: set[str] = field(default_factory=set)
    progress: threading.Condition = field(default_factory=threading.Condition)
    started: float = field(default_factory=time.monotonic)

    def say(self, text: str) -> None:
        with self.lock:
            print(f"[{time.monotonic() - self.started:6.0f} s] {text}", flush=True)


def run_suite(run: Run, lane: str, suite: str) -> bool:
    log = LOGS / f"{suite}.log"
    began = time.monotonic()
    with log.open("wb") as out:
        # A session of its own, so that stopping it stops everything it started.
        process = subprocess.Popen(
            ["make", "--no-print-directory", suite],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        with run.lock:
            run.running[suite] = process
        status = process.wait()
        with run.lock:
            del run.running[suite]
    seconds = time.monotonic() - began
    passed = status == 0
    with run.lock:
        # The first failure stops the others: those failed because they were stopped.
        first_failure = not passed and not run.failed.is_set()
        if first_failure:
            run.failed.set()
        stopped = not passed and not first_failure
        run.outcomes.append(Outcome(suite, lane, seconds, passed, stopped))
    if passed:
        run.say(f"{lane}: {suite} passed in {seconds:.0f} s")
        with run.progress:
            run.passed.add(suite)
            run.progress.notify_all()
    elif first_failure:
        lines = log.read_text(errors="replace").splitlines()[-TAIL_LINES:]
        run.say(f"{lane}: {suite} FAILED after {seconds:.0f} s; the end of {log}:")
        print("\n".join(lines), flush=True)
        stop_the_rest(run)
        with run.progress:
            run.progress.notify_all()
    return passed


def wait_for_first(run: Run, lane: str, suite: str) -> None:
    """Until the suite `suite` waits for has passed, or any has failed."""
    first = run.after.get(suite)
    if first is None:
        return
    with run.progress:
        if first not in run.passed and not run.failed.is_set():
            run.say(f"{lane}: {suite} waits for {first}")
        run.progress.wait_for(lambda: first in run.passed or run.failed.is_set())


def stop_the_rest(run: Run) -> None:
    with run.lock:
        processes = list(run.running.values())
    for process in processes:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)


def run_lane(run: Run, lane: str, suites: list[str]) -> None:
    for suite in suites:
        wait_for_first(run, lane, suite)
        if run.failed.is_set() or not run_suite(run, lane, suite):
            return


def write_times(run: Run, wall: float) -> None:
    rows = [f"{o.suite} {o.lane} {o.seconds:.0f}" for o in run.outcomes]
    TIMES.write_text("\n".join([*rows, f"all - {wall:.0f}"]) + "\n")
    print(f"\n{'suite':<20} {'lane':<8} {'time':>7}")
    for o in run.outcomes:
        verdict = "" if o.passed else "  stopped" if o.stopped else "  FAILED"
        print(f"{o.suite:<20} {o.lane:<8} {o.seconds:>5.0f} s{verdict}")
    lanes = sorted({o.lane for o in run.outcomes})
    for lane in lanes:
        total = sum(o.seconds for o in run.outcomes if o.lane == lane)
        print(f"{'(lane ' + lane + ')':<20} {'':<8} {total:>5.0f} s")
    print(f"{'all, wall clock':<29} {wall:>5.0f} s ({wall / 60:.1f} min)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--lane",
        nargs="+",
        action="append",
        default=[],
        metavar=("NAME", "SUITE"),
        help="a lane: its name, then its suites in order",
    )
    parser.add_argument(
        "--after",
        action="append",
        default=[],
        metavar="SUITE=FIRST",
        help="SUITE starts only once FIRST (in another lane) has passed",
    )
    parser.add_argument("--alone", nargs="*", default=[], help="suites run after, one at a time")
    args = parser.parse_args()
    LOGS.mkdir(parents=True, exist_ok=True)
    run = Run(after=dict(pair.split("=", 1) for pair in args.after))
    run.say("lanes: " + "; ".join(f"{lane[0]}: {' '.join(lane[1:])}" for lane in args.lane))
    threads = [
        threading.Thread(target=run_lane, args=(run, lane[0], lane[1:]), name=lane[0])
        for lane in args.lane
    ]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            thread.join()
        if not run.failed.is_set():
            run_lane(run, "alone", args.alone)
    except KeyboardInterrupt:
        run.failed.set()
        stop_the_rest(run)
        for thread in threads:
            thread.join()
    write_times(run, time.monotonic() - run.started)
    return 1 if run.failed.is_set() else 0


if __name__ == "__main__":
    sys.exit(main())
