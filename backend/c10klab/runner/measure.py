"""Pure pieces of a run's bookkeeping: reading the load generator's JSON lines, turning Docker
stats into CPU/memory figures, and judging whether a result is valid."""

import json
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


def progress_event(line: dict[str, Any], t_s: float) -> dict[str, Any]:
    return {
        "t_s": round(t_s, 3),
        "phase": line["phase"],
        "qps": line["qps"],
        "requests": line["requests"],
        "errors": line["errors"],
        "latency_us": {k: line["latency_us"][k] for k in ("p50", "p90", "p99", "p999", "max")},
    }


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
    "duration_s",
    "errors",
    "error_total",
    "connect_failures",
    "latency_us",
    "percentiles",
)


def judge(summary: dict[str, Any], max_error_rate: float) -> str | None:
    """Why a result must not be shown as a clean number, or None if it may."""
    requests, errors = summary["requests"], summary["error_total"]
    if requests == 0:
        return "no request completed during the measured time"
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
