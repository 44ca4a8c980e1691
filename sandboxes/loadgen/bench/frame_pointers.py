#!/usr/bin/env python3
"""What frame pointers cost the C servers: the same servers built with them and without.

Every C server is built with -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer
(sandboxes/servers/c/Makefile, FRAME_POINTERS) so that perf can walk its stacks for a cpu or
offcpu profile, and the lessons measure those builds. This builds the servers twice on the
host, into two temporary directories (`make -C sandboxes/servers/c BUILD=DIR`, then the same
with `FRAME_POINTERS=`), and runs each case's two builds in interleaved rounds (the order
turned every round), every server started afresh on CPU 0, loadgen (io_uring, echo 64 B) on
CPU 1, as counting.py does. Four cases: c-epoll and c-io-uring with 100 keep-alive
connections; c-threaded and c-forking with 10 connections, every request on a new one (a
thread, or a process, per request).

The cost is the paired change of req/s, with frame pointers against without, with its 95 %
interval (c10klab.uncertainty.paired_change, so this runs in the backend's venv); the same
for the server's CPU per request, which shows a cost where something other than the server
holds req/s. A difference is called real only when its whole interval is on one side of zero.

Writes results/frame-pointers.md. Needs loadgen (`make loadgen`), cc, make, liburing-dev,
the backend's venv (`make venv`), 2 CPUs.

    .venv/bin/python sandboxes/loadgen/bench/frame_pointers.py [--seconds 5] [--rounds 5]
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from c10klab.uncertainty import Interval, compare, paired_change
from counting import Case
from peers import (
    CLIENT_CPU,
    PORT,
    SATURATED,
    SERVER_CPU,
    Contender,
    Run,
    Section,
    Server,
    any_bound,
    exit_if_missing,
    loadgen_args,
    median,
    rounds,
    section_table,
)
from vs_wrk import LOADGEN, ROOT, load_average, machine, port_is_free, raise_nofile

RESULTS = ROOT / "results/frame-pointers.md"
SOURCES = ROOT / "sandboxes/servers/c"
WITH, WITHOUT = "with frame pointers", "without"
CASES = (
    Case("c-epoll", 100, False),
    Case("c-io-uring", 100, False),
    Case("c-threaded", 10, True),
    Case("c-forking", 10, True),
)
TOOLS = (("cc", "gcc"), ("make", "make"), ("taskset", "util-linux"))
CALLS = {
    "higher": "higher with frame pointers, beyond this host's noise",
    "lower": "lower with frame pointers, beyond this host's noise",
    "no_difference": "no difference this host can detect",
}


def build(into: Path, *variables: str) -> None:
    """The C servers, built as `make` builds them (plus `variables`), into `into`."""
    print(f"make -C {SOURCES.relative_to(ROOT)} BUILD={into} {' '.join(variables)}", flush=True)
    subprocess.run(["make", "-s", "-C", str(SOURCES), f"BUILD={into}", *variables], check=True)


def build_both(workdir: Path) -> dict[str, Path]:
    """Both builds; stops if they are the same bytes (FRAME_POINTERS no longer reaching cc)."""
    builds = {WITH: workdir / "with", WITHOUT: workdir / "without"}
    build(builds[WITH])
    build(builds[WITHOUT], "FRAME_POINTERS=")
    same = [
        case.server
        for case in CASES
        if (builds[WITH] / case.server).read_bytes() == (builds[WITHOUT] / case.server).read_bytes()
    ]
    if same:
        sys.exit(f"frame-pointers: built the same with and without: {', '.join(same)}")
    return builds


def built_server(builds: Path, name: str) -> Server:
    return Server([str(builds / name), "--port", str(PORT), "--protocol", "echo"])


def measure(case: Case, builds: dict[str, Path], seconds: int, count: int) -> Section:
    print(f"{case.title}, {case.connections} connections", flush=True)
    client = loadgen_args("io_uring", "echo", case.connections, seconds)
    if case.new_connection_per_request:
        client.append("--new-connection-per-request")
    contenders = [
        Contender(label, functools.partial(built_server, builds[label], case.server), client)
        for label in (WITHOUT, WITH)
    ]
    before = load_average()
    runs = rounds(contenders, seconds, count)
    return Section(case.title, case.connections, runs, (before, load_average()))


def said(found: Interval | None) -> str:
    """A paired change, its 95 % interval and what it allows us to say."""
    if found is None:
        return "no interval: fewer than 3 rounds"
    words = CALLS[compare(WITH, WITHOUT, "qps", found).call]
    return (
        f"{found.estimate:+.1%} (95 % interval {found.low:+.1%} to {found.high:+.1%}, "
        f"{found.count} rounds): {words}"
    )


def per_request(run: Run) -> float:
    return run.server_cpu / run.qps


def cost(section: Section) -> str:
    """req/s, then the server's CPU per request, with frame pointers against without, paired
    by round; and why req/s may not show the server's cost."""
    with_them, without = section.runs[WITH], section.runs[WITHOUT]
    qps = paired_change([r.qps for r in with_them], [r.qps for r in without])
    cpu = paired_change([per_request(r) for r in with_them], [per_request(r) for r in without])
    bound = [label for label in (WITH, WITHOUT) if any_bound(section, label)]
    notes = [f"{label} client-bound in some rounds" for label in bound]
    if all(median([r.server_cpu for r in runs]) < SATURATED for runs in (with_them, without)):
        notes.append(
            f"the server below {SATURATED:.0%} of its core with either build: something else "
            "held the rate, so req/s cannot show a cost; CPU per request can"
        )
    text = f"req/s {said(qps)}; server CPU per request {said(cpu)}"
    return text + "".join(f" ({note})" for note in notes)


def compiler() -> str:
    done = subprocess.run(["cc", "--version"], capture_output=True, text=True, check=True)
    return done.stdout.splitlines()[0]


def report(sections: list[Section], seconds: int, count: int) -> str:
    info = machine()
    text = [
        "# What frame pointers cost the C servers",
        "",
        "Written by `make bench-frame-pointers` (sandboxes/loadgen/bench/frame_pointers.py). "
        f"{info['date']}; kernel {info['kernel']}; {info['cpu']}; {compiler()}. The C servers "
        "were built twice on the host from the same sources, as the course builds them "
        "(`make -C sandboxes/servers/c BUILD=DIR`: -O2 and, by default, "
        "`-fno-omit-frame-pointer -mno-omit-leaf-frame-pointer`) and with "
        "`FRAME_POINTERS=` (the same, without them). In each case the two builds ran in "
        f"{count} interleaved rounds (the order turned every round), {seconds} s measured after "
        f"a 1 s warm-up, every server started afresh on CPU {SERVER_CPU}, loadgen (io_uring, "
        f"echo 64 B) on CPU {CLIENT_CPU}. The cost is the paired change, with frame pointers "
        "against without, of req/s and of the server's CPU per request (its CPU time over the "
        "run, as a share of one core, over req/s): the geometric mean of the rounds' ratios "
        "with Student's t 95 % interval on their logs (c10klab.uncertainty.paired_change, as "
        "the course compares two servers). req/s shows the server's cost only where the "
        "server is what holds it; where it is not, CPU per request still does. A difference "
        "is one this host can detect only when its whole interval is on one side of zero; "
        "the interval's width is about the smallest cost these rounds could tell from none.",
        "",
        "## Cost: with frame pointers against without",
        "",
        *(f"- {s.title}, {s.connections} connections: {cost(s)}." for s in sections),
        "",
        "## Every round",
        "",
        *(line for section in sections for line in section_table(section)),
    ]
    return "\n".join(text)


def check_prerequisites() -> None:
    problems = {
        f"{LOADGEN} is missing: make loadgen": not LOADGEN.exists(),
        "2 CPUs are needed (server on CPU 0, client on CPU 1)": (os.cpu_count() or 1) < 2,
        f"port {PORT} is in use": not port_is_free(PORT),
        **{
            f"{tool} is missing: apt-get install {package}": not shutil.which(tool)
            for tool, package in TOOLS
        },
    }
    exit_if_missing("frame-pointers", [problem for problem, found in problems.items() if found])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args()
    check_prerequisites()
    raise_nofile()
    with tempfile.TemporaryDirectory(prefix="c10k-frame-pointers-") as workdir:
        builds = build_both(Path(workdir))
        sections = [measure(case, builds, args.seconds, args.rounds) for case in CASES]
    args.output.parent.mkdir(exist_ok=True)
    args.output.write_text(report(sections, args.seconds, args.rounds) + "\n")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
