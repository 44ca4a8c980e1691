"""What a cpu or offcpu profile costs the server it watches: the same load, profiled and not.

Every run goes through the course's own runner (the harness), so what is measured is what a
learner's Profile button does: perf record in the profiler's container beside the server, on
from the measured phase, its stacks named after the run. Four kinds of server, echo 64 B:
an event loop in C and in Rust (c-epoll, rust-tokio) and a thread per connection (c-threaded),
each with 100 keep-alive connections, and a process per connection (c-forking) with 10
connections and a new one per request, so a process is started for every request while it is
recorded. Each case runs
unprofiled and profiled each way in interleaved rounds, the order turned every round, and the
cost is the paired change of throughput with its 95 % interval (uncertainty.paired_change).
The extra wall time a profiled run takes (perf names its stacks after the load) is reported
too: the issue asks for both flame graphs within the run's time plus a few seconds.

    python -m c10klab_bench.profile [--rounds 5] [--seconds 5] [--output results/profile.md]
"""

import argparse
import statistics
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from c10klab.config import Settings
from c10klab.runner.worker import cpu_model
from c10klab.uncertainty import Interval, paired_change
from c10klab_bench.harness import Harness, harness, write_result

RESULT = Path(__file__).resolve().parents[2] / "results" / "profile.md"
KEEP_ALIVE = {"connections": 100}
PER_REQUEST = {"connections": 10, "new_connection_per_request": True}


@dataclass(frozen=True)
class Case:
    server: str
    load: dict[str, Any]
    words: str
    profiles: tuple[str, ...]


CASES = (
    Case("c-epoll", KEEP_ALIVE, "100 keep-alive connections", ("cpu",)),
    Case("rust-tokio", KEEP_ALIVE, "100 keep-alive connections", ("cpu",)),
    # Keep-alive, not a new connection per request: with one per request the load generator's
    # ports in TIME_WAIT cap c-threaded near 14,000 req/s with its core half idle
    # (results/frame-pointers.md), where no cost could show in its speed.
    Case("c-threaded", KEEP_ALIVE, "100 keep-alive connections", ("cpu", "offcpu")),
    Case("c-forking", PER_REQUEST, "10 connections, a new one per request", ("cpu", "offcpu")),
)
PLAIN = "throughput"


@dataclass
class Measured:
    """One way of one case over the rounds: each round's req/s (None: no valid result), the
    wall time of each run, and the last profile's summary."""

    qps: list[float | None] = field(default_factory=list)
    wall_s: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    summary: str = ""


def measure(bench: Harness, case: Case, profile: str, seconds: float, into: Measured) -> None:
    request = {
        "server": case.server,
        "protocol": "echo",
        "payload_bytes": 64,
        "duration_s": seconds,
        "warmup_s": 1,
        "profile": profile,
        **case.load,
    }
    started = time.monotonic()
    outcome = bench.run(request)
    into.wall_s.append(time.monotonic() - started)
    into.qps.append(outcome.qps)
    if outcome.failure:
        into.failures.append(outcome.failure)
    stacks = (outcome.result or {}).get("stacks")
    if stacks:
        into.summary = summary_words(stacks)


def summary_words(stacks: dict[str, Any]) -> str:
    if stacks.get("refused"):
        return f"refused: {stacks['refused']}"
    if stacks.get("shares"):
        shares = stacks["shares"]
        return ", ".join(f"{kind} {share:.0%}" for kind, share in shares.items())
    offcpu = stacks.get("offcpu") or {}
    return (
        f"blocked {offcpu.get('blocked_s', 0):.1f} s, waiting for a CPU "
        f"{offcpu.get('runnable_s', 0):.1f} s, {offcpu.get('switches_per_request')} switches "
        "per request"
    )


def cost_words(change: Interval | None) -> str:
    """A change of throughput as a cost: how much slower profiled than not (negative: faster)."""
    if change is None:
        return "no interval (fewer than 3 rounds with both figures)"
    return (
        f"{-change.estimate:+.1%} (95 % interval {-change.high:+.1%} to {-change.low:+.1%}, "
        f"{change.count} rounds)"
    )


def table(case: Case, ways: dict[str, Measured]) -> list[str]:
    rows = [
        "| profile | each round (req/s) | median req/s | median wall time of a run | summary |",
        "|---|---|---:|---:|---|",
    ]
    for way, measured in ways.items():
        rounds = ", ".join("–" if q is None else f"{q:,.0f}" for q in measured.qps)
        valid = [q for q in measured.qps if q is not None]
        median = f"{statistics.median(valid):,.0f}" if valid else "–"
        wall = f"{statistics.median(measured.wall_s):.1f} s" if measured.wall_s else "–"
        rows.append(f"| {way} | {rounds} | {median} | {wall} | {measured.summary or '–'} |")
    failures = [f for m in ways.values() for f in m.failures]
    return [f"### {case.server}, echo 64 B, {case.words}", "", *rows, "", *failures[:3], ""]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--output", type=Path, default=RESULT)
    args = parser.parse_args()

    started = datetime.now(UTC)
    results: dict[str, dict[str, Measured]] = {}
    with harness(Settings(calibration_runs=0)) as bench:
        for case in CASES:
            ways = [PLAIN, *case.profiles]
            measured = {way: Measured() for way in ways}
            for number in range(args.rounds):
                turn = number % len(ways)
                for way in ways[turn:] + ways[:turn]:
                    print(f"{case.server} round {number + 1}: {way}", flush=True)
                    measure(bench, case, way, args.seconds, measured[way])
            results[case.server] = measured
        settings = bench.settings

    lines = [
        "# What profiling costs the server (make bench-profile)",
        "",
        f"Written by `make bench-profile` (backend/c10klab_bench/profile.py), started "
        f"{started:%Y-%m-%d %H:%M} UTC on {cpu_model()}: the server on CPU "
        f"{settings.server_cpus}, the load generator on {settings.loadgen_cpus}. Every run "
        f"through the course's runner: {args.seconds:g} s measured after 1 s of warm-up, "
        f"{args.rounds} interleaved rounds (the order turned every round). The cost is how many "
        "fewer requests a second a profiled run served than an unprofiled one, paired by "
        "round, with the 95 % interval of those pairs' log ratios. A profiled run's speed is "
        "compared only with runs profiled the same way, and the page says so.",
        "",
        "## Cost",
        "",
    ]
    for case in CASES:
        measured = results[case.server]
        plain = measured[PLAIN]
        for way in case.profiles:
            change = paired_change(measured[way].qps, plain.qps)
            extra = statistics.median(measured[way].wall_s) - statistics.median(plain.wall_s)
            lines.append(
                f"- {case.server} ({case.words}), {way}: {cost_words(change)}; a run took "
                f"{extra:+.1f} s longer (median), perf naming its stacks after the load."
            )
    lines += ["", "## Every round", ""]
    for case in CASES:
        lines += table(case, results[case.server])
    write_result(args.output, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
