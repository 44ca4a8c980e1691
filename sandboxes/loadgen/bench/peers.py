#!/usr/bin/env python3
"""The course's servers and load generator beside their peers, at full speed.

Three comparisons, each in interleaved rounds (A, B, A, B …, the order turned about every
round, so neither side always meets a machine fresh from a rest), the server pinned to CPU 0
and the client to CPU 1, every server started afresh for each run:

1. Clients on c-epoll (http): wrk, and loadgen with each engine (epoll, io_uring). How fast
   each drives the same server, and how much of its own core it burns doing so.
2. Servers: c-epoll against c-io-uring (echo, 64 B) at 100, 1,000 and 15,000 connections,
   driven by loadgen's io_uring engine, with the server's system calls counted at full speed
   by `perf stat -e raw_syscalls:sys_enter` (a tracepoint counter: no ptrace, the server is
   not slowed) and divided by the round trips loadgen made.
3. c-epoll (http) against nginx with one worker returning a fixed body of the same size,
   at 100 and 1,000 connections, driven by loadgen's io_uring engine.

Every run records the client's and the server's CPU use (their /proc/<pid>/stat over the
run): a run whose client was saturated (>= 90 % of its core) while the server was not is
client-bound, and its figures measure the client. The goals of issue 12 are checked and
reported as met or missed, never tuned: c-io-uring >= 1.1x c-epoll at 100 and 1,000
connections, neither client-bound; c-epoll http >= 1.3x nginx (one worker) at both.

Writes results/peers.md. Needs the C servers and loadgen built (`make servers loadgen`), wrk
and perf (`make bench-peers` installs both), root (perf counts another process's calls),
2 CPUs. nginx is Debian's, unpacked into var/peers/ (not installed: no service is started).

    python3 sandboxes/loadgen/bench/peers.py [--seconds 5] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from vs_wrk import (
    LOADGEN,
    ROOT,
    WRK,
    load_average,
    machine,
    parse_loadgen,
    parse_wrk,
    port_is_free,
    raise_nofile,
    wait_for_port,
)

SERVERS = ROOT / "sandboxes/servers/c/build"
RESULTS = ROOT / "results/peers.md"
NGINX_DIR = ROOT / "var/peers/nginx"
NGINX = NGINX_DIR / "usr/sbin/nginx"
PORT = 18090
SERVER_CPU, CLIENT_CPU = "0", "1"
HZ = os.sysconf("SC_CLK_TCK")
SATURATED = 0.9  # the runner's threshold (backend/c10klab/runner/measure.py)
# c-epoll's http body (protocol.c): nginx returns the same 20 bytes.
HTTP_BODY = "Hello from C10K Lab\n"


@dataclass
class Run:
    """One client against one server: what the client reports and what both cost."""

    label: str
    qps: float
    p99_us: float
    errors: int
    client_cpu: float  # share of one core over the client's lifetime
    server_cpu: float
    calls_per_round_trip: float | None = None
    engine: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def client_bound(self) -> bool:
        return self.client_cpu >= SATURATED and self.server_cpu < SATURATED


# --- processes and their CPU time -----------------------------------------------------------


def cpu_ticks(pid: int) -> int:
    """utime + stime of a process and its threads (and of its children that were reaped); 0
    for one that has gone since it was listed (c-forking reaps a child between `family`
    listing it and this reading it: its time is then in the parent's cutime and cstime)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0
    return sum(int(f) for f in fields[11:15])


def family(pid: int) -> list[int]:
    """A process and its children (nginx's master and its worker)."""
    children = Path(f"/proc/{pid}/task/{pid}/children")
    return [pid, *(int(c) for c in children.read_text().split())] if children.exists() else [pid]


def family_ticks(pid: int) -> int:
    return sum(cpu_ticks(p) for p in family(pid))


class Server:
    """A server process pinned to SERVER_CPU, listening on PORT until stopped."""

    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(
            ["taskset", "-c", SERVER_CPU, *command],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            wait_for_port(PORT)
        except RuntimeError:
            self.process.kill()
            raise RuntimeError(
                f"{command[0]} did not start: {self.process.communicate()[1]}"
            ) from None

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def c_server(name: str, protocol: str) -> Server:
    return Server([str(SERVERS / name), "--port", str(PORT), "--protocol", protocol])


def nginx_server(workdir: Path) -> Server:
    """Debian's nginx with one worker, answering every request with HTTP_BODY."""
    conf = workdir / "nginx.conf"
    temp = "".join(
        f"    {kind}_temp_path {workdir}/{kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    conf.write_text(
        "worker_processes 1;\nworker_rlimit_nofile 19000;\ndaemon off;\n"
        f"pid {workdir}/nginx.pid;\nerror_log stderr error;\n"
        "events { worker_connections 18000; }\n"
        "http {\n    access_log off;\n    keepalive_requests 100000000;\n"
        f"    keepalive_timeout 300s;\n{temp}"
        f"    server {{\n        listen 127.0.0.1:{PORT} backlog=4096;\n"
        f'        location / {{ default_type text/plain; return 200 "{HTTP_BODY[:-1]}\\n"; }}\n'
        "    }\n}\n"
    )
    return Server([str(NGINX), "-p", str(workdir), "-e", "stderr", "-c", str(conf)])


class Counter(Protocol):
    """Counts a server's system calls from its creation until stop(), which returns them."""

    def stop(self) -> int: ...


class SyscallCount:
    """perf stat counting every system call of `pid` (and what it starts) until stopped."""

    def __init__(self, pid: int) -> None:
        self.process = subprocess.Popen(
            ["perf", "stat", "-x,", "-e", "raw_syscalls:sys_enter", "-p", str(pid)],
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(0.3)  # perf attaches well within this; the load has not begun

    def stop(self) -> int:
        self.process.send_signal(signal.SIGINT)
        _, err = self.process.communicate(timeout=10)
        for line in err.splitlines():
            fields = line.split(",")
            if len(fields) > 2 and fields[2] == "raw_syscalls:sys_enter" and fields[0].isdigit():
                return int(fields[0])
        raise RuntimeError(f"perf counted nothing:\n{err}")


# --- clients ----------------------------------------------------------------------------------


def loadgen_args(engine: str, protocol: str, connections: int, seconds: int) -> list[str]:
    # 15,000 connections are opened over 2 s, within the warm-up, so the server's backlog is
    # never the question
    warmup, ramp = (3, 2) if connections > 5000 else (1, 0)
    return [
        str(LOADGEN), "--host", "127.0.0.1", "--port", str(PORT), "--protocol", protocol,
        "--connections", str(connections), "--threads", "1", "--duration-s", str(seconds),
        "--warmup-s", str(warmup), "--ramp-s", str(ramp), "--engine", engine,
    ]  # fmt: skip


def drive(
    label: str,
    client: list[str],
    server: Server,
    seconds: int,
    count_calls: Callable[[int], Counter] | None = None,
) -> Run:
    """Runs `client` on CLIENT_CPU against `server`; stops the server afterwards."""
    counter = count_calls(server.process.pid) if count_calls else None
    server_before, client_before = family_ticks(server.process.pid), reaped_cpu_s()
    started = time.monotonic()
    process = subprocess.Popen(
        ["taskset", "-c", CLIENT_CPU, *client], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    out, err = process.communicate(timeout=seconds + 120)  # reaped: its CPU time is ours now
    wall = time.monotonic() - started
    client_cpu = (reaped_cpu_s() - client_before) / wall
    server_cpu = (family_ticks(server.process.pid) - server_before) / HZ / wall
    calls = counter.stop() if counter else None
    server.stop()
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(client)} exited {process.returncode}:\n{err}")
    if client[0] == str(WRK):
        result = parse_wrk(out)
        return Run(label, result.qps, result.p99_us, result.errors, client_cpu, server_cpu)
    summary = parse_loadgen(out)
    round_trips = int(summary.get("requests_total") or summary["requests"]) + 1
    return Run(
        label,
        summary["qps"],
        summary["latency_us"]["p99"],
        summary["error_total"],
        client_cpu,
        server_cpu,
        calls_per_round_trip=calls / round_trips if calls is not None else None,
        engine=summary.get("engine"),
        notes=[summary["engine_note"]] if summary.get("engine_note") else [],
    )


def reaped_cpu_s() -> float:
    """CPU seconds of this script's children that have ended (taskset execs the client, so
    the client is one of them once it is reaped)."""
    usage = os.times()
    return usage.children_user + usage.children_system


def wrk_args(connections: int, seconds: int) -> list[str]:
    url = f"http://127.0.0.1:{PORT}/"
    return [str(WRK), "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", url]


# --- rounds -----------------------------------------------------------------------------------


@dataclass
class Contender:
    label: str
    server: Callable[[], Server]
    client: list[str]
    count_calls: Callable[[int], Counter] | None = None  # SyscallCount, or None: not counted


def rounds(contenders: list[Contender], seconds: int, count: int) -> dict[str, list[Run]]:
    """Every contender `count` times, interleaved, the order reversed every other round."""
    runs: dict[str, list[Run]] = {c.label: [] for c in contenders}
    for number in range(count):
        for contender in contenders if number % 2 == 0 else contenders[::-1]:
            run = drive(contender.label, contender.client, contender.server(), seconds,
                        contender.count_calls)  # fmt: skip
            runs[contender.label].append(run)
            calls = (
                f", {run.calls_per_round_trip:.3f} calls/round trip"
                if run.calls_per_round_trip is not None
                else ""
            )
            print(
                f"  round {number + 1} {run.label:<34} {run.qps:>10,.0f}/s p99 "
                f"{run.p99_us:>8,.0f} µs  client {run.client_cpu:.0%} server "
                f"{run.server_cpu:.0%}{calls}{' CLIENT-BOUND' if run.client_bound else ''}",
                flush=True,
            )
    return runs


@dataclass
class Section:
    title: str
    connections: int
    runs: dict[str, list[Run]]
    loads: tuple[str, str]


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def median_qps(section: Section, label: str) -> float:
    return median([r.qps for r in section.runs[label]])


def any_bound(section: Section, label: str) -> bool:
    return any(r.client_bound for r in section.runs[label])


def section_table(section: Section) -> list[str]:
    lines = [
        f"### {section.title}, {section.connections:,} connections",
        "",
        f"Load average before / after: {section.loads[0]} / {section.loads[1]}.",
        "",
        "| who | each round (req/s) | median req/s | median p99 µs | client CPU | server CPU "
        "| calls / round trip | client-bound |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for label, runs in section.runs.items():
        calls = [r.calls_per_round_trip for r in runs if r.calls_per_round_trip is not None]
        bound = sum(r.client_bound for r in runs)
        lines.append(
            f"| {label} | {', '.join(f'{r.qps:,.0f}' for r in runs)} "
            f"| {median_qps(section, label):,.0f} | {median([r.p99_us for r in runs]):,.0f} "
            f"| {median([r.client_cpu for r in runs]):.0%} "
            f"| {median([r.server_cpu for r in runs]):.0%} "
            f"| {f'{median(calls):.3f} ({min(calls):.3f}–{max(calls):.3f})' if calls else '–'} "
            f"| {f'{bound} of {len(runs)}' if bound else 'no'} |"
        )
    notes = sorted({n for runs in section.runs.values() for r in runs for n in r.notes})
    lines += ["", *(f"Note: {n}" for n in notes), ""] if notes else [""]
    return lines


def goal(
    sections: list[Section], title: str, fast: str, slow: str, at_least: float
) -> tuple[bool, str]:
    """Whether `fast` reached `at_least` times `slow` in every section of `title`, neither
    client-bound; the line that says so, with the figures."""
    met, parts = True, []
    for section in (s for s in sections if s.title == title):
        ratio = median_qps(section, fast) / median_qps(section, slow)
        bound = [w for w in (fast, slow) if any_bound(section, w)]
        ok = ratio >= at_least and not bound
        met &= ok
        parts.append(
            f"{section.connections:,} connections: {ratio:.2f}x"
            + (f" ({' and '.join(bound)} client-bound)" if bound else "")
        )
    verdict = "met" if met else "**missed**"
    return met, f"- {fast} ≥ {at_least}x {slow}: {verdict} — {'; '.join(parts)}."


# --- the three comparisons ----------------------------------------------------------------------

CLIENTS = "Clients on c-epoll (http)"
SERVERS_TITLE = "c-epoll against c-io-uring (echo 64 B, loadgen io_uring)"
NGINX_TITLE = "c-epoll against nginx, one worker (http, loadgen io_uring)"


def measure_all(seconds: int, count: int, workdir: Path) -> list[Section]:
    sections = []

    def section(title: str, connections: int, contenders: list[Contender]) -> None:
        print(f"{title}, {connections:,} connections", flush=True)
        before = load_average()
        runs = rounds(contenders, seconds, count)
        sections.append(Section(title, connections, runs, (before, load_average())))

    for connections in (100, 1000):
        http_epoll = lambda: c_server("c-epoll", "http")  # noqa: E731
        section(CLIENTS, connections, [
            Contender("wrk", http_epoll, wrk_args(connections, seconds)),
            Contender("loadgen epoll", http_epoll,
                      loadgen_args("epoll", "http", connections, seconds)),
            Contender("loadgen io_uring", http_epoll,
                      loadgen_args("io_uring", "http", connections, seconds)),
        ])  # fmt: skip
    for connections in (100, 1000, 15000):
        client = loadgen_args("io_uring", "echo", connections, seconds)
        section(SERVERS_TITLE, connections, [
            Contender("c-epoll", lambda: c_server("c-epoll", "echo"), client,
                      count_calls=SyscallCount),
            Contender("c-io-uring", lambda: c_server("c-io-uring", "echo"), client,
                      count_calls=SyscallCount),
        ])  # fmt: skip
    for connections in (100, 1000):
        client = loadgen_args("io_uring", "http", connections, seconds)
        section(NGINX_TITLE, connections, [
            Contender("c-epoll", lambda: c_server("c-epoll", "http"), client),
            Contender("nginx", lambda: nginx_server(workdir), client),
        ])  # fmt: skip
    return sections


def report(sections: list[Section], seconds: int, count: int) -> tuple[str, bool]:
    info = machine()
    goals = [
        goal(sections, SERVERS_TITLE, "c-io-uring", "c-epoll", 1.1),
        goal(sections, NGINX_TITLE, "c-epoll", "nginx", 1.3),
    ]
    clients = [s for s in sections if s.title == CLIENTS]
    engine_lines = [
        f"- {s.connections:,} connections: loadgen io_uring / epoll "
        f"{median_qps(s, 'loadgen io_uring') / median_qps(s, 'loadgen epoll'):.2f}x, "
        f"loadgen io_uring / wrk {median_qps(s, 'loadgen io_uring') / median_qps(s, 'wrk'):.2f}x, "
        f"loadgen epoll / wrk {median_qps(s, 'loadgen epoll') / median_qps(s, 'wrk'):.2f}x."
        for s in clients
    ]
    text = [
        "# The course's servers and load generator beside their peers",
        "",
        "Written by `make bench-peers` (sandboxes/loadgen/bench/peers.py). "
        f"{info['date']}; kernel {info['kernel']}; {info['cpu']}. Each run: {seconds} s measured "
        f"after a warm-up (1 s; 3 s with a 2 s ramp at 15,000 connections), {count} interleaved "
        f"rounds, server on CPU {SERVER_CPU} and client on CPU {CLIENT_CPU}, every server "
        "started afresh. CPU use is each process's own over the client's lifetime, as a share "
        f"of one core; client-bound: the client at ≥ {SATURATED:.0%} and the server below. "
        "Calls per round trip: the server's system calls counted by perf's "
        "`raw_syscalls:sys_enter` tracepoint (no ptrace) over the whole run, divided by every "
        "round trip loadgen made (warm-up included, plus its one verification).",
        "",
        "## Goals (issue 12)",
        "",
        *(line for _, line in goals),
        "",
        "## loadgen's engines against each other and against wrk",
        "",
        *engine_lines,
        "",
        "## Every round",
        "",
    ]
    for section in sections:
        text += section_table(section)
    return "\n".join(text), all(met for met, _ in goals)


def fetch_nginx() -> None:
    """Debian's nginx, unpacked (not installed, so no service starts) into var/peers/."""
    if NGINX.exists():
        return
    NGINX_DIR.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as download:
        os.chmod(download, 0o777)  # apt's download runs as the _apt user where it can
        subprocess.run(["apt-get", "download", "-qq", "nginx"], cwd=download, check=True)
        package = next(Path(download).glob("nginx_*.deb"))
        subprocess.run(["dpkg-deb", "-x", str(package), str(NGINX_DIR)], check=True)


def missing_for_counting(needed: list[tuple[Path, str]]) -> list[str]:
    """What a benchmark that counts a server's calls with perf lacks on this machine: the
    `needed` files (path, how to get it), perf, root, two CPUs, the port."""
    missing = [f"{path} is missing: {how}" for path, how in needed if not path.exists()]
    if subprocess.run(["perf", "--version"], capture_output=True).returncode != 0:
        missing.append("perf is missing: apt-get install linux-perf")
    if os.geteuid() != 0:
        missing.append("root is needed: perf counts another process's system calls")
    if (os.cpu_count() or 1) < 2:
        missing.append("2 CPUs are needed (server on CPU 0, client on CPU 1)")
    if not port_is_free(PORT):
        missing.append(f"port {PORT} is in use")
    return missing


def exit_if_missing(bench: str, missing: list[str]) -> None:
    """Stop before measuring anything, with everything this machine lacks listed at once."""
    if missing:
        sys.exit(f"{bench}: cannot run:\n  " + "\n  ".join(missing))


def rounds_arguments(doc: str) -> argparse.Namespace:
    """The options of a benchmark that counts (peers, counting): seconds a round, rounds."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    return parser.parse_args()


def check_prerequisites() -> None:
    missing = missing_for_counting(
        [
            (SERVERS / "c-epoll", "make servers"),
            (SERVERS / "c-io-uring", "make servers"),
            (LOADGEN, "make loadgen"),
            (WRK, "apt-get install wrk"),
        ]
    )
    exit_if_missing("peers", missing)


def main() -> int:
    args = rounds_arguments(__doc__)
    check_prerequisites()
    fetch_nginx()
    raise_nofile()
    with tempfile.TemporaryDirectory() as workdir:
        sections = measure_all(args.seconds, args.rounds, Path(workdir))
    text, met = report(sections, args.seconds, args.rounds)
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(text + "\n")
    print(f"wrote {RESULTS.relative_to(ROOT)}; goals {'met' if met else 'missed'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
