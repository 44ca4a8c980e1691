"""A run's result as the runner writes it, for tests that put one straight into the store:
every field the contract (c10klab.results.schemas.RunResult) requires, figures of choice."""

from typing import Any

from c10klab.results.schemas import (
    CheckedEvent,
    CheckResult,
    DoneEvent,
    ProgressData,
    ProgressEvent,
    RunResult,
    StartedData,
    StartedEvent,
)


def a_result(
    qps: float = 1000.0,
    p99_us: float = 400.0,
    valid: bool = True,
    rss_bytes: int | None = None,
    **more: Any,
) -> dict[str, Any]:
    latency = {"p50": 90.0, "p90": 200.0, "p99": p99_us, "p999": p99_us * 2, "max": p99_us * 4}
    server: dict[str, Any] = {"cpu_percent_mean": 95.0, "memory_peak_bytes": None}
    if rss_bytes is not None:
        server["memory_peak_bytes"] = rss_bytes * 2
        server["profile"] = {
            "rss_mean_bytes": rss_bytes,
            "threads_peak": 1,
            "voluntary_ctxt_switches_per_s": 3.0,
            "nonvoluntary_ctxt_switches_per_s": 1.0,
        }
    return {
        "summary": {
            "qps": qps,
            "requests": int(qps * 5),
            "duration_s": 5.0,
            "error_total": 0,
            "latency_us": latency,
            "idle": {"requested": 0, "open_at_start": 0, "dropped": 0},
        },
        "server": server,
        "valid": valid,
        "invalid_reason": None if valid else "too many errors",
        "aggregate": {
            "count": 1,
            "qps": {"median": qps, "min": qps, "max": qps, "spread": 0.02},
            "noisy": False,
            "noisy_threshold": 0.1,
        },
    } | more


def a_progress(t_s: float, qps: float = 1000.0) -> dict[str, Any]:
    """A `progress` event's data (c10klab.results.schemas.ProgressData)."""
    latency = {"p50": 90, "p90": 200, "p99": 400, "p999": 800, "max": 1600}
    return {
        "t_s": t_s,
        "phase": "measure",
        "qps": qps,
        "requests": int(qps),
        "errors": 0,
        "latency_us": latency,
    }


# --- the events a runner writes, for tests that play its part (runs/store.py takes models) ---


def done(result: dict[str, Any]) -> DoneEvent:
    """The `done` event that ends a run with `result` (a_result's, or one of its own)."""
    return DoneEvent(type="done", data=RunResult.model_validate(result))


def progress(t_s: float, qps: float = 1000.0) -> ProgressEvent:
    """A `progress` event (a_progress's data)."""
    return ProgressEvent(type="progress", data=ProgressData.model_validate(a_progress(t_s, qps)))


def started(server: str = "c-epoll") -> StartedEvent:
    return StartedEvent(type="started", data=StartedData(server=server))


def checked(result: dict[str, Any]) -> CheckedEvent:
    """The `checked` event that ends a variant's check run with `result`."""
    return CheckedEvent(type="checked", data=CheckResult.model_validate(result))
