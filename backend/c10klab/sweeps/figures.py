"""A finished run's headline figures, and what a sweep derives from them: pure functions of
the recorded data, shared by the sweeps domain (a sweep's table) and the lessons' figures
(content.figures), so a lesson's prose and its table never compute a figure twice."""

from typing import Any

from c10klab.sweeps.schemas import Point


def point_from_result(base: dict[str, Any], result: dict[str, Any]) -> Point:
    """The headline figures of a finished run's result (its `done` event's data), or of one of
    its repetitions: a lesson's recorded figures are read by this too (content.figures)."""
    summary, server = result["summary"], result["server"]
    profile = server.get("profile") or {}
    aggregate = result.get("aggregate") or {}
    return Point(
        **base,
        status="done",
        reason=result.get("invalid_reason"),
        valid=bool(result.get("valid")),
        stable=result.get("stable"),
        unstable_reason=result.get("unstable_reason"),
        client_bound=(result.get("client") or {}).get("bound"),
        qps=summary["qps"],
        spread=(aggregate.get("qps") or {}).get("spread"),
        noisy=aggregate.get("noisy"),
        p50_us=summary["latency_us"]["p50"],
        p99_us=summary["latency_us"]["p99"],
        errors=summary["error_total"],
        cpu_percent=server.get("cpu_percent_mean"),
        rss_bytes=profile.get("rss_mean_bytes") or server.get("memory_peak_bytes"),
        threads=profile.get("threads_peak"),
        voluntary_ctxt_switches_per_s=profile.get("voluntary_ctxt_switches_per_s"),
        nonvoluntary_ctxt_switches_per_s=profile.get("nonvoluntary_ctxt_switches_per_s"),
        idle_dropped=(summary.get("idle") or {}).get("dropped"),
        idle_dropped_connections=(summary.get("idle") or {}).get("dropped_connections"),
        calls_per_request=(result.get("syscalls") or {}).get("calls_per_request"),
        syscalls=(result.get("syscalls") or {}).get("rows") or None,
    )


# The least growth in resident memory that says something about connections: 16 pages.
MIN_MEMORY_RISE = 64 * 1024


def memory_per_connection(points: list[Point], vary: str) -> dict[str, float | None]:
    """Per server: the slope of resident memory against the connection count, between its
    smallest and largest valid point. What one more connection costs the server; None when
    there are not two such points or the memory barely moved between them."""
    if vary not in ("connections", "idle_connections"):
        return {}
    slopes: dict[str, float | None] = {}
    for server in dict.fromkeys(p.server for p in points):
        measured = sorted(
            (p.value, p.rss_bytes)
            for p in points
            if p.server == server and p.valid and p.rss_bytes is not None
        )
        if len(measured) < 2 or measured[-1][0] == measured[0][0]:
            slopes[server] = None
            continue
        (low, low_rss), (high, high_rss) = measured[0], measured[-1]
        rise = high_rss - low_rss
        # A fixed pool's resident memory wanders by a few pages whatever the connections;
        # a slope from that would be noise (even negative), not a cost per connection.
        slopes[server] = round(rise / (high - low), 1) if rise >= MIN_MEMORY_RISE else None
    return slopes
