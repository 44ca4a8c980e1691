"""Pure pieces of a run's bookkeeping: reading the load generator's JSON lines, turning Docker
stats into CPU/memory figures, judging whether a result is valid, combining repetitions, and
reading strace's syscall table."""

import json
import re
import statistics
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any


def split_lines(chunks: Iterable[bytes]) -> Iterator[str]:
    """Lines from a stream of byte chunks that may cut a line anywhere."""
    pending = b""
    for chunk in chunks:
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for line in lines:
            yield line.decode(errors="replace")
    if pending:
        yield pending.decode(errors="replace")


def parse_line(line: str) -> dict[str, Any] | None:
    """A load generator JSON object, or None for anything else (blank or stray text)."""
    line = line.strip()
    if not line.startswith("{"):
        return None
    try:
        obj = json.loads(line)
    except json.JSONDecodeError:
        return None
    return obj if isinstance(obj, dict) and "type" in obj else None


DIGEST_KEYS = ("p50", "p90", "p99", "p999", "max")


def progress_event(line: dict[str, Any], t_s: float) -> dict[str, Any]:
    """A progress line as the `progress` event the charts read; the open-loop digests, idle
    drops and the server's process profile pass through when the line has them."""
    event: dict[str, Any] = {
        "t_s": round(t_s, 3),
        "phase": line["phase"],
        "qps": line["qps"],
        "requests": line["requests"],
        "errors": line["errors"],
        "latency_us": {k: line["latency_us"][k] for k in DIGEST_KEYS},
    }
    for digest in ("latency_actual_us", "send_lag_us"):
        if isinstance(line.get(digest), dict):
            event[digest] = {k: line[digest][k] for k in DIGEST_KEYS}
    if line.get("idle_dropped"):
        event["idle_dropped"] = line["idle_dropped"]
    if isinstance(line.get("procs"), dict):
        event["procs"] = line["procs"]
    return event


def cpu_percent(stats: dict[str, Any]) -> float | None:
    """CPU use since the previous sample, as `docker stats` shows it: 100 = one whole core."""
    cpu, pre = stats.get("cpu_stats", {}), stats.get("precpu_stats", {})
    try:
        cpu_delta = cpu["cpu_usage"]["total_usage"] - pre["cpu_usage"]["total_usage"]
        system_delta = cpu["system_cpu_usage"] - pre["system_cpu_usage"]
    except (KeyError, TypeError):
        return None
    cpus = cpu.get("online_cpus") or len(cpu["cpu_usage"].get("percpu_usage") or []) or 1
    if system_delta <= 0 or cpu_delta < 0:
        return None
    return round(float(cpu_delta) / float(system_delta) * float(cpus) * 100.0, 2)


def memory_bytes(stats: dict[str, Any]) -> int | None:
    """Memory in use without the reclaimable page cache (cgroup v1 and v2 name it differently)."""
    mem = stats.get("memory_stats", {})
    if "usage" not in mem:
        return None
    detail = mem.get("stats", {})
    cache = detail.get("total_inactive_file", detail.get("inactive_file", 0))
    return int(max(mem["usage"] - cache, 0))


def server_sample(stats: dict[str, Any], t_s: float) -> dict[str, Any] | None:
    cpu, mem = cpu_percent(stats), memory_bytes(stats)
    if cpu is None or mem is None:
        return None
    return {
        "t_s": round(t_s, 3),
        "cpu_percent": cpu,
        "memory_bytes": mem,
        "pids": stats.get("pids_stats", {}).get("current"),
    }


@dataclass
class ServerStats:
    """Server samples of one run; the mean CPU counts only samples taken while measuring."""

    samples: list[dict[str, Any]] = field(default_factory=list)
    measure_from_s: float | None = None

    def summary(self) -> dict[str, Any]:
        measured = [
            s
            for s in self.samples
            if self.measure_from_s is not None and s["t_s"] >= self.measure_from_s
        ]
        cpus = [s["cpu_percent"] for s in measured]
        return {
            "cpu_percent_mean": round(sum(cpus) / len(cpus), 2) if cpus else None,
            "memory_peak_bytes": max((s["memory_bytes"] for s in self.samples), default=None),
            "pids_peak": max((s["pids"] or 0 for s in self.samples), default=None),
            "samples": len(self.samples),
        }


SUMMARY_KEYS = (
    "qps",
    "requests",
    "requests_total",
    "starved",
    "duration_s",
    "errors",
    "error_total",
    "connect_failures",
    "latency_us",
    "percentiles",
    "mode",
    "connection_mode",
    "open_loop",
    "idle",
    "procs",
)


def judge(
    summary: dict[str, Any], max_error_rate: float, min_rate_fraction: float = 0.0
) -> str | None:
    """Why a result must not be shown as a clean number, or None if it may."""
    requests, errors = summary["requests"], summary["error_total"]
    if requests == 0:
        return "no request completed during the measured time"
    open_loop = summary.get("open_loop")
    if open_loop and open_loop["achieved_fraction"] < min_rate_fraction:
        return (
            f"only {open_loop['achieved_qps']:,.0f} of the {open_loop['target_qps']:,.0f} "
            f"requests/s asked for were answered ({open_loop['achieved_fraction']:.0%}, under "
            f"{min_rate_fraction:.0%}): past its capacity a server's latency only grows with "
            "the queue, so the figures describe the queue, not the server"
        )
    starved = summary.get("starved") or 0
    if starved:
        return (
            f"{starved} connection{'s' if starved != 1 else ''} got no reply during the whole "
            "measured time: the server served fewer clients at once than it was given, and "
            "their waiting is in no percentile"
        )
    timeouts = summary["errors"].get("timeout", 0)
    if timeouts:
        # A request that timed out has no latency in the histogram: the percentiles would
        # describe only the lucky requests, so no error rate is small enough to ignore it.
        return (
            f"{timeouts} request{'s' if timeouts != 1 else ''} got no reply in time: their "
            "latency is missing from the percentiles, which would look better than the "
            "server is (often: more connections than the server serves at once)"
        )
    rate = errors / (requests + errors)
    if rate > max_error_rate:
        kinds = ", ".join(f"{k}: {v}" for k, v in summary["errors"].items() if v)
        return (
            f"{rate:.1%} of requests failed ({kinds}), over the {max_error_rate:.0%} limit: "
            "the figures describe a failing server, not its speed"
        )
    return None


def _spread(values: list[float]) -> float:
    """(max - min) / median: how far repetitions of one measurement disagree."""
    median = statistics.median(values)
    return (max(values) - min(values)) / median if median else 0.0


def combine(outcomes: list[dict[str, Any]], noisy_spread: float) -> dict[str, Any]:
    """One result from R repetitions: the median repetition's figures, every repetition's,
    the median and spread of QPS and p99, a noisy flag, and valid only if all are valid."""
    ranked = sorted(outcomes, key=lambda o: o["summary"]["qps"] or 0.0)
    middle = ranked[(len(ranked) - 1) // 2]
    qps = [float(o["summary"]["qps"] or 0.0) for o in outcomes]
    p99 = [float(o["summary"]["latency_us"]["p99"]) for o in outcomes]
    invalid = [o for o in outcomes if not o["valid"]]
    reason = None
    if invalid:
        first = invalid[0]
        reason = first["invalid_reason"]
        if len(outcomes) > 1:
            reason = f"repetition {first['repetition']} of {len(outcomes)}: {reason}"
    spread = _spread(qps)
    result: dict[str, Any] = {
        "summary": middle["summary"],
        "server": middle["server"],
        "valid": not invalid,
        "invalid_reason": reason,
        "repetitions": outcomes,
        "aggregate": {
            "count": len(outcomes),
            "median_repetition": middle["repetition"],
            "qps": {
                "median": round(statistics.median(qps), 1),
                "min": min(qps),
                "max": max(qps),
                "spread": round(spread, 4),
            },
            "p99_us": {"median": statistics.median(p99), "min": min(p99), "max": max(p99)},
            "noisy": len(outcomes) > 1 and spread > noisy_spread,
            "noisy_threshold": noisy_spread,
        },
    }
    if "syscalls" in middle:
        result["syscalls"] = middle["syscalls"]
    return result


# Enough of the server's log for strace's table (one line per distinct syscall) after the
# server's own last messages.
STRACE_LOG_LINES = 400
_STRACE_HEADER = re.compile(r"^\s*% time\s+seconds\s+usecs/call\s+calls\s+errors\s+syscall")
_STRACE_ROW = re.compile(
    r"^\s*(?P<percent>[\d.]+)\s+(?P<seconds>[\d.]+)\s+(?P<usecs>\d+)\s+(?P<calls>\d+)"
    r"\s+(?P<errors>\d+)?\s+(?P<name>\w+)\s*$"
)


def parse_strace(lines: list[str]) -> dict[str, Any] | None:
    """The last `strace -c` table in `lines`: one row per syscall and the total, or None.

    The table looks like:
        % time     seconds  usecs/call     calls    errors syscall
        ------ ----------- ----------- --------- --------- ----------------
         40.38    0.000409         409         1           execve
          1.58    0.000016          16         1         1 epoll_wait
        ------ ----------- ----------- --------- --------- ----------------
        100.00    0.001013           9       104         3 total
    (the errors column is blank when there were none).
    """
    starts = [i for i, line in enumerate(lines) if _STRACE_HEADER.match(line)]
    if not starts:
        return None
    rows: list[dict[str, Any]] = []
    total: dict[str, Any] | None = None
    for line in lines[starts[-1] + 1 :]:
        found = _STRACE_ROW.match(line)
        if found is None:
            continue
        row = {
            "syscall": found["name"],
            "calls": int(found["calls"]),
            "errors": int(found["errors"] or 0),
            "seconds": float(found["seconds"]),
            "percent_time": float(found["percent"]),
        }
        if row["syscall"] == "total":
            total = row
            break
        rows.append(row)
    if total is None:
        return None
    return {"rows": rows, "total": total}


def per_request(table: dict[str, Any], requests: int) -> dict[str, Any]:
    """The syscall table with calls per request: the whole run's calls over its requests
    (start-up and shutdown included, which many requests make negligible)."""
    requests = max(requests, 1)
    rows = [
        row | {"per_request": round(row["calls"] / requests, 4)}
        for row in sorted(table["rows"], key=lambda r: -r["calls"])
    ]
    return {
        "requests": requests,
        "rows": rows,
        "total": table["total"],
        "calls_per_request": round(table["total"]["calls"] / requests, 4),
    }
