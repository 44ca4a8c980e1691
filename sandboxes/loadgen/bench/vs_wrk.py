#!/usr/bin/env python3
"""Is loadgen as fast as wrk? Both against the same server, turn and turn about.

Starts the c-epoll server (HTTP, port 18080) pinned to CPU 0, then runs wrk and loadgen
pinned to CPU 1 — one thread each, the same connections (10, 100, 1000), 5 s each, three
interleaved repetitions — and writes results/loadgen-vs-wrk.md: the median requests per
second of each, their spread, the ratio loadgen/wrk, and p50/p99 latency as each reports it.
More rows run loadgen in open loop at about half its closed-loop rate at 100 connections, and
at a low rate, and report the achieved rate and the send lag (how precisely requests left on
schedule).

If loadgen reaches less than 95% of wrk's rate at some level, loadgen, not the server, is the
bottleneck there: the report says so, and so does the exit status (1).

Needs: the C servers built (`make servers`), loadgen built (`make loadgen`), wrk
(`apt-get install wrk`), taskset (util-linux), 2 CPUs. Usage, from the repository root:

    python3 sandboxes/loadgen/bench/vs_wrk.py [--seconds 5] [--repetitions 3]

Simplifications: one server (c-epoll), one request (`GET /`), loopback only. The machine may
be shared; the load average before and after is recorded so a noisy run can be recognised.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
SERVER = ROOT / "sandboxes/servers/c/build/c-epoll"
LOADGEN = ROOT / "sandboxes/loadgen/target/release/loadgen"
WRK = Path("/usr/bin/wrk")
RESULTS = ROOT / "results/loadgen-vs-wrk.md"

PORT = 18080
SERVER_CPU = "0"
CLIENT_CPU = "1"
CONNECTIONS = (10, 100, 1000)
# loadgen below this share of wrk's rate means loadgen is the bottleneck.
MIN_RATIO = 0.95
# The open-loop rows ask for this share of loadgen's closed-loop rate at 100 connections…
OPEN_LOOP_SHARE = 0.5
OPEN_LOOP_CONNECTIONS = 100
# … and for a rate low enough that every reply is back long before its connection's next
# request is due, so the send lag shows the pacing alone.
LOW_RATE = 1000.0


CLOSED_HEADER = "\n".join(
    [
        "| connections | wrk req/s | wrk spread | loadgen req/s | loadgen spread | loadgen / wrk "
        "| wrk p50 / p99 µs | loadgen p50 / p99 µs | errors wrk / loadgen |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
)
OPEN_HEADER = "\n".join(
    [
        "| run | target req/s | achieved req/s | achieved / target | send lag p50 / p99 / max µs "
        "| latency p50 / p99 µs (corrected) | latency p50 / p99 µs (actual) |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
)


@dataclass
class Result:
    """One run of one tool: requests per second and latency in microseconds, as reported."""

    qps: float
    p50_us: float
    p99_us: float
    errors: int


def wrk_command(connections: int, seconds: int) -> list[str]:
    return [
        "taskset", "-c", CLIENT_CPU, str(WRK), "-t1", f"-c{connections}", f"-d{seconds}s",
        "--latency", f"http://127.0.0.1:{PORT}/",
    ]  # fmt: skip


def loadgen_command(connections: int, seconds: int, rate: float = 0.0) -> list[str]:
    command = [
        "taskset", "-c", CLIENT_CPU, str(LOADGEN), "--host", "127.0.0.1", "--port", str(PORT),
        "--protocol", "http", "--connections", str(connections), "--threads", "1",
        "--duration-s", str(seconds), "--warmup-s", "0",
    ]  # fmt: skip
    if rate > 0:
        # Open loop: a second of warm-up lets the wake-up window settle first.
        command[-1] = "1"
        command += ["--rate", f"{rate:.0f}"]
    return command


WRK_UNITS = {"us": 1.0, "ms": 1e3, "s": 1e6}


def parse_wrk(text: str) -> Result:
    """wrk's report: `Requests/sec:`, the `--latency` distribution, and any errors."""
    qps = re.search(r"^Requests/sec:\s+([\d.]+)", text, re.M)
    if not qps:
        raise RuntimeError(f"no Requests/sec in wrk's output:\n{text}")
    latency = {
        p: float(v) * WRK_UNITS[unit]
        for p, v, unit in re.findall(r"^\s+(50|99)%\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
    }
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", text))
    non_2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text)
    errors += int(non_2xx.group(1)) if non_2xx else 0
    return Result(float(qps.group(1)), latency["50"], latency["99"], errors)


def parse_loadgen(text: str) -> dict[str, Any]:
    """loadgen's summary line (the last JSON line)."""
    summary: dict[str, Any] = json.loads(text.strip().splitlines()[-1])
    if summary.get("type") != "summary":
        raise RuntimeError(f"loadgen failed: {summary}")
    return summary


def loadgen_result(summary: dict[str, Any]) -> Result:
    latency = summary["latency_us"]
    return Result(summary["qps"], latency["p50"], latency["p99"], summary["error_total"])


def run(command: list[str], seconds: int) -> str:
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=seconds + 120, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}:\n{done.stderr}")
    return done.stdout


def wait_for_port(port: int, within_s: float = 10.0) -> None:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing accepts connections on port {port}")


def port_is_free(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


def check_prerequisites() -> None:
    missing = []
    if not WRK.exists():
        missing.append(f"{WRK} not found: install it with `apt-get install wrk`")
    if not shutil.which("taskset"):
        missing.append("taskset not found: install it with `apt-get install util-linux`")
    if not SERVER.exists():
        missing.append(f"{SERVER} not found: build the C servers with `make servers`")
    if not LOADGEN.exists():
        missing.append(f"{LOADGEN} not found: build it with `make loadgen`")
    if (os.cpu_count() or 1) < 2:
        missing.append("2 CPUs needed (server on CPU 0, client on CPU 1)")
    if not port_is_free(PORT):
        missing.append(f"port {PORT} is in use")
    if missing:
        sys.exit("vs_wrk: " + "\n  ".join(["cannot run:", *missing]))


def raise_nofile() -> None:
    """1000 connections need more descriptors than the common soft limit of 1024; the
    children inherit this."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def machine() -> dict[str, str]:
    cpu = "unknown"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    return {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "kernel": platform.release(),
        "cpu": f"{cpu} ({os.cpu_count()} CPUs)",
    }


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def spread(values: list[float]) -> float:
    """(max − min) / median, in percent."""
    middle = statistics.median(values)
    return (max(values) - min(values)) / middle * 100 if middle else 0.0


def measure_closed_loop(seconds: int, repetitions: int) -> dict[int, dict[str, list[Result]]]:
    """Every level, both tools, `repetitions` times, interleaved; the tool that goes first
    alternates, so neither always meets a server fresh from a rest."""
    runs: dict[int, dict[str, list[Result]]] = {c: {"wrk": [], "loadgen": []} for c in CONNECTIONS}
    for rep in range(repetitions):
        for connections in CONNECTIONS:
            tools = ["wrk", "loadgen"] if rep % 2 == 0 else ["loadgen", "wrk"]
            for tool in tools:
                if tool == "wrk":
                    result = parse_wrk(run(wrk_command(connections, seconds), seconds))
                else:
                    text = run(loadgen_command(connections, seconds), seconds)
                    result = loadgen_result(parse_loadgen(text))
                runs[connections][tool].append(result)
                print(
                    f"  rep {rep + 1} c={connections:<5} {tool:<8} {result.qps:>10,.0f} req/s"
                    f"  p50 {result.p50_us:>8,.0f} µs  p99 {result.p99_us:>8,.0f} µs"
                    f"  errors {result.errors}",
                    flush=True,
                )
    return runs


def measure_open_loop(rate: float, seconds: int, repetitions: int) -> list[dict[str, Any]]:
    """`repetitions` open-loop runs at `rate`; their summaries."""
    results = []
    for rep in range(repetitions):
        text = run(loadgen_command(OPEN_LOOP_CONNECTIONS, seconds, rate), seconds)
        summary = parse_loadgen(text)
        lag = summary["open_loop"]["send_lag_us"]
        print(
            f"  rep {rep + 1} open loop {rate:,.0f} req/s: achieved {summary['qps']:,.0f}, "
            f"send lag p50 {lag['p50']} µs p99 {lag['p99']} µs max {lag['max']} µs",
            flush=True,
        )
        results.append(summary)
    return results


def report(
    info: dict[str, str],
    runs: dict[int, dict[str, list[Result]]],
    open_runs: list[dict[str, Any]],
    rate: float,
    seconds: int,
    repetitions: int,
    loads: tuple[str, str],
) -> tuple[str, bool]:
    """The Markdown report, and whether loadgen kept up with wrk at every level."""
    rows = []
    all_ok = True
    for connections in CONNECTIONS:
        wrk, lg = runs[connections]["wrk"], runs[connections]["loadgen"]
        wrk_qps = statistics.median(r.qps for r in wrk)
        lg_qps = statistics.median(r.qps for r in lg)
        ratio = lg_qps / wrk_qps
        all_ok &= ratio >= MIN_RATIO

        def latency(results: list[Result]) -> str:
            p50 = statistics.median(r.p50_us for r in results)
            p99 = statistics.median(r.p99_us for r in results)
            return f"{p50:,.0f} / {p99:,.0f}"

        rows.append(
            f"| {connections:,} | {wrk_qps:,.0f} | {spread([r.qps for r in wrk]):.1f}% "
            f"| {lg_qps:,.0f} | {spread([r.qps for r in lg]):.1f}% | {ratio:.3f} "
            f"| {latency(wrk)} | {latency(lg)} "
            f"| {sum(r.errors for r in wrk)} / {sum(r.errors for r in lg)} |"
        )
    raw = []
    for connections in CONNECTIONS:
        for tool in ("wrk", "loadgen"):
            qps = ", ".join(f"{r.qps:,.0f}" for r in runs[connections][tool])
            raw.append(f"| {connections:,} | {tool} | {qps} |")
    open_rows = []
    for i, summary in enumerate(open_runs, 1):
        lag = summary["open_loop"]["send_lag_us"]
        actual = summary["open_loop"]["latency_actual_us"]
        open_rows.append(
            f"| {i} | {summary['open_loop']['target_qps']:,.0f} | {summary['qps']:,.1f} "
            f"| {summary['open_loop']['achieved_fraction']:.4f} "
            f"| {lag['p50']} / {lag['p99']} / {lag['max']} "
            f"| {summary['latency_us']['p50']} / {summary['latency_us']['p99']} "
            f"| {actual['p50']} / {actual['p99']} |"
        )
    lag_medians = []
    for target in sorted({s["open_loop"]["target_qps"] for s in open_runs}, reverse=True):
        lags = [
            s["open_loop"]["send_lag_us"]
            for s in open_runs
            if s["open_loop"]["target_qps"] == target
        ]
        median = {key: statistics.median(x[key] for x in lags) for key in ("p50", "p99", "max")}
        lag_medians.append(
            f"- {target:,.0f} req/s: send lag p50 {median['p50']:.0f} µs, "
            f"p99 {median['p99']:.0f} µs, max {median['max']:.0f} µs"
        )
    verdict = (
        f"loadgen reached at least {MIN_RATIO:.0%} of wrk's rate at every level."
        if all_ok
        else f"**loadgen fell under {MIN_RATIO:.0%} of wrk's rate at some level: there, "
        "loadgen is the bottleneck.**"
    )
    server_cmd = f"taskset -c {SERVER_CPU} {SERVER.relative_to(ROOT)} --protocol http --port {PORT}"
    wrk_cmd = " ".join(wrk_command(100, seconds)).replace("-c100", "-c$C")
    lg_cmd = " ".join(loadgen_command(100, seconds)).replace(" 100 ", " $C ")
    open_cmd = " ".join(loadgen_command(OPEN_LOOP_CONNECTIONS, seconds, rate)).replace(
        f"--rate {rate:.0f}", "--rate $R"
    )
    text = f"""# loadgen vs wrk

Generated by `sandboxes/loadgen/bench/vs_wrk.py` (`make bench-loadgen`); do not edit by hand.

- Date: {info["date"]}
- Kernel: {info["kernel"]}
- CPU: {info["cpu"]}
- Load average (1, 5, 15 min) before: {loads[0]}; after: {loads[1]} (the machine is shared:
  other work running meanwhile shows up as spread)

Server, pinned to CPU 0:

```
{server_cmd}
```

Clients, pinned to CPU 1, one thread each, for C = 10, 100, 1000 connections, {seconds} s each,
{repetitions} repetitions interleaved (each repetition runs every level with both tools; the
tool going first alternates):

```
{wrk_cmd.replace(str(ROOT) + "/", "")}
{lg_cmd.replace(str(ROOT) + "/", "")}
```

## Closed loop

Medians over the repetitions. Spread = (max − min) / median of the rate. Latency is each
tool's own report (both measure from writing a request to its complete reply, closed loop),
the median of the repetitions' p50 and p99.

{CLOSED_HEADER}
{chr(10).join(rows)}

{verdict}

Every run's rate (req/s):

| connections | tool | repetitions |
|---:|---|---|
{chr(10).join(raw)}

## Open loop: pacing precision

loadgen at R = {rate:,.0f} req/s ({OPEN_LOOP_SHARE:.0%} of its closed-loop median at
{OPEN_LOOP_CONNECTIONS} connections) and at R = {LOW_RATE:,.0f} req/s, 1 s warm-up then
{seconds} s:

```
{open_cmd.replace(str(ROOT) + "/", "")}
```

Send lag = actual send − intended send time. While replies come back before the next request
of their connection is due, it measures the pacing alone; a late reply adds its lateness (at
{rate:,.0f} req/s a connection's next request is due {OPEN_LOOP_CONNECTIONS / rate * 1e3:.1f} ms
after its last). Beyond that the tail is the machine's: loadgen arms a timerfd ahead of each
due time by a window learnt from how late the timer fires (the 99th percentile, at most
500 µs) and spins the rest of the way, so a wake-up later than the window, or a stall of the
CPU itself (a VM's vCPU can be descheduled for milliseconds), shows up in full.

{OPEN_HEADER}
{chr(10).join(open_rows)}

Medians over the runs:

{chr(10).join(lag_medians)}
"""
    return text, all_ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=5, help="length of each run")
    parser.add_argument("--repetitions", type=int, default=3)
    args = parser.parse_args()
    check_prerequisites()
    raise_nofile()
    info = machine()
    load_before = load_average()
    server = subprocess.Popen(
        ["taskset", "-c", SERVER_CPU, str(SERVER), "--protocol", "http", "--port", str(PORT)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(PORT)
        print(f"vs_wrk: c-epoll on CPU {SERVER_CPU}, clients on CPU {CLIENT_CPU}", flush=True)
        runs = measure_closed_loop(args.seconds, args.repetitions)
        closed = statistics.median(r.qps for r in runs[OPEN_LOOP_CONNECTIONS]["loadgen"])
        rate = round(closed * OPEN_LOOP_SHARE, -2)
        open_runs = measure_open_loop(rate, args.seconds, args.repetitions)
        open_runs += measure_open_loop(LOW_RATE, args.seconds, args.repetitions)
    finally:
        server.terminate()
        server.wait(timeout=10)
    loads = (load_before, load_average())
    text, all_ok = report(info, runs, open_runs, rate, args.seconds, args.repetitions, loads)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(text)
    print(f"vs_wrk: wrote {RESULTS.relative_to(ROOT)}")
    if not all_ok:
        print(f"vs_wrk: loadgen fell under {MIN_RATIO:.0%} of wrk's rate", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
