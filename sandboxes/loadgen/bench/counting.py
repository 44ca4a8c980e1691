#!/usr/bin/env python3
"""What counting a server's system calls costs it: the same load, counted and not.

A syscall profile's perf counters are inherited by every process and thread the server starts
(perf stat -p inherits unless told --no-inherit), so a forking server's children are counted;
docs/ARCHITECTURE.md says each fork, copying them, gets dearer. Three cases, echo 64 B:
c-epoll with 100 keep-alive connections (no fork, no clone); c-forking (a process per
connection) and c-threaded (a thread per connection) with 10 connections, every request on a
new connection (a fork, or a clone, per request; c-prethreaded and c-preforked start their
workers once, so they would be c-epoll's case again).

Each three ways, in interleaved rounds (the order turned about every round), the server
started afresh every run on CPU 0, loadgen (io_uring, as the runner uses it) on CPU 1: not
counted; counted as peers.py counts (raw_syscalls:sys_enter alone); counted as the runner
counts (count-syscalls.sh's perf command line, the runner's events read from
backend/c10klab/runner/measure.py, perf on the client's CPU as in the runner).

Writes results/counting.md. Needs `make servers loadgen`, perf, root, 2 CPUs.

    python3 sandboxes/loadgen/bench/counting.py [--seconds 5] [--rounds 3]
"""

from __future__ import annotations

import ast
import functools
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

from peers import (
    CLIENT_CPU,
    SERVER_CPU,
    SERVERS,
    Contender,
    Section,
    SyscallCount,
    c_server,
    exit_if_missing,
    loadgen_args,
    median_qps,
    missing_for_counting,
    rounds,
    rounds_arguments,
    section_table,
)
from vs_wrk import LOADGEN, ROOT, load_average, machine, raise_nofile

RESULTS = ROOT / "results/counting.md"
MEASURE = ROOT / "backend/c10klab/runner/measure.py"
TRACEPOINTS = "/sys/kernel/tracing/events"
TOTAL = "raw_syscalls:sys_enter"
NOT_COUNTED, TOTAL_ONLY, AS_RUNNER = "not counted", "counted: total only", "counted as the runner"


@dataclass
class Case:
    server: str
    connections: int
    new_connection_per_request: bool

    @property
    def title(self) -> str:
        load = "a new connection per request" if self.new_connection_per_request else "keep-alive"
        return f"{self.server}, echo 64 B, {load}"


CASES = (Case("c-epoll", 100, False), Case("c-forking", 10, True), Case("c-threaded", 10, True))


def runner_names() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The runner's NAMED_SYSCALLS and ERROR_SYSCALLS, read from its source: importing it
    would need the backend's virtualenv, and a copy here could drift from it."""
    wanted = ("NAMED_SYSCALLS", "ERROR_SYSCALLS")
    values = {
        target.id: ast.literal_eval(node.value)
        for node in ast.parse(MEASURE.read_text()).body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name) and target.id in wanted
    }
    return values["NAMED_SYSCALLS"], values["ERROR_SYSCALLS"]


def runner_events() -> list[str]:
    """count-syscalls.sh's perf events for the runner's names: those this kernel has."""
    named, failed = runner_names()
    has = lambda event: os.path.isdir(f"{TRACEPOINTS}/syscalls/{event}")  # noqa: E731
    return [
        "-e", TOTAL,
        *(a for n in named if has(f"sys_enter_{n}") for a in ("-e", f"syscalls:sys_enter_{n}")),
        *(a for n in failed if has(f"sys_exit_{n}")
          for a in ("-e", f"syscalls:sys_exit_{n}", "--filter", "ret<0")),
    ]  # fmt: skip


def runner_perf(pid: str) -> list[str]:
    return ["perf", "stat", "--no-big-num", "-x,", "-I", "250", *runner_events(), "-p", pid]


class RunnerCount:
    """perf as count-syscalls.sh runs it, until stopped. The runner names every process in
    the server's namespace; here only the server (threads included) is named: the child
    forked for the port probe may be gone by the time perf opens it, which perf refuses."""

    def __init__(self, pid: int) -> None:
        # perf prints every event 4 times a second: a pipe nobody reads would fill and stall
        # it. Closed in stop().
        self.log = tempfile.TemporaryFile("w+")  # noqa: SIM115
        self.process = subprocess.Popen(
            ["taskset", "-c", CLIENT_CPU, *runner_perf(str(pid))], stderr=self.log, text=True
        )
        # as in the runner, the load starts once perf has printed its first counts
        deadline = time.monotonic() + 10
        while f",{TOTAL}," not in self.text():
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"perf did not start counting: {self.text()}")
            time.sleep(0.05)

    def text(self) -> str:
        self.log.seek(0)
        return self.log.read()

    def stop(self) -> int:
        """perf's interval lines (`time,count,unit,event,...`) summed for the total."""
        self.process.send_signal(signal.SIGINT)
        self.process.wait(10)
        text = self.text()
        self.log.close()
        lines = [line.split(",") for line in text.splitlines()]
        counts = [int(f[1]) for f in lines if len(f) > 3 and f[3] == TOTAL and f[1].isdigit()]
        if not counts:
            raise RuntimeError(f"perf counted nothing:\n{text}")
        return sum(counts)


def measure(case: Case, seconds: int, count: int) -> Section:
    print(f"{case.title}, {case.connections} connections", flush=True)
    server = functools.partial(c_server, case.server, "echo")
    client = loadgen_args("io_uring", "echo", case.connections, seconds)
    client += ["--new-connection-per-request"] if case.new_connection_per_request else []
    before = load_average()
    contenders = [
        Contender(NOT_COUNTED, server, client),
        Contender(TOTAL_ONLY, server, client, count_calls=SyscallCount),
        Contender(AS_RUNNER, server, client, count_calls=RunnerCount),
    ]
    runs = rounds(contenders, seconds, count)
    return Section(case.title, case.connections, runs, (before, load_average()))


def cost(section: Section, counted: str) -> str:
    """How many fewer req/s counted than not: medians against medians, then round by round."""
    each = ", ".join(
        f"{(1 - c.qps / n.qps) * 100:+.1f} %"
        for n, c in zip(section.runs[NOT_COUNTED], section.runs[counted], strict=True)
    )
    ratio = median_qps(section, counted) / median_qps(section, NOT_COUNTED)
    return f"{counted} {(1 - ratio) * 100:+.1f} % (rounds: {each})"


def report(sections: list[Section], seconds: int, count: int) -> str:
    info = machine()
    command = " ".join(runner_perf("PID")).replace("ret<0", "'ret<0'")
    text = [
        "# What counting system calls costs a server",
        "",
        f"Written by `make bench-counting` (sandboxes/loadgen/bench/counting.py). {info['date']}; "
        f"kernel {info['kernel']}; {info['cpu']}. Each run: {seconds} s measured after a 1 s "
        f"warm-up, {count} interleaved rounds (the order turned about every round), server on "
        f"CPU {SERVER_CPU} and loadgen (io_uring, echo 64 B) on CPU {CLIENT_CPU}, every server "
        "started afresh. Three ways per case: not counted; counted as peers.py counts "
        f"(`perf stat -x, -e {TOTAL} -p PID`); counted as the runner counts (its "
        "count-syscalls.sh command line and events, perf pinned to the client's CPU):",
        "",
        f"    taskset -c {CLIENT_CPU} {command}",
        "",
        "PID: the server's, once it listens; perf stat -p gives its counters to the server's "
        "threads and to every process and thread started afterwards, so children are counted "
        "(calls per round trip: the server's, children's included, over loadgen's round "
        "trips). Unlike the runner: on the host, no containers, the server running as root.",
        "",
        "## Cost: how many fewer req/s counted than not (negative: more)",
        "",
        *(
            f"- {s.title}, {s.connections} connections: {cost(s, TOTAL_ONLY)}; "
            f"{cost(s, AS_RUNNER)}."
            for s in sections
        ),
        "",
        "## Every round",
        "",
    ]
    for section in sections:
        text += section_table(section)
    return "\n".join(text)


def check_prerequisites() -> None:
    missing = missing_for_counting(
        [
            *((SERVERS / case.server, "make servers") for case in CASES),
            (LOADGEN, "make loadgen"),
        ]
    )
    if not os.path.isdir(f"{TRACEPOINTS}/raw_syscalls"):
        missing.append(f"no tracepoints at {TRACEPOINTS} (is tracefs mounted?)")
    exit_if_missing("counting", missing)


def main() -> int:
    args = rounds_arguments(__doc__)
    check_prerequisites()
    raise_nofile()
    sections = [measure(case, args.seconds, args.rounds) for case in CASES]
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(report(sections, args.seconds, args.rounds) + "\n")
    print(f"wrote {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
