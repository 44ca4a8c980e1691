"""A finished run's headline figures, and what a sweep derives from them: pure functions of
the recorded data, shared by the sweeps domain (a sweep's table) and the lessons' figures
(content.figures), so a lesson's prose and its table never compute a figure twice."""

from typing import Any

from c10klab.sweeps.schemas import EntryFigures, Point
from c10klab.uncertainty import (
    Comparison,
    HostNoise,
    Interval,
    Metric,
    compare,
    median_interval,
    paired_change,
    single_change,
    single_interval,
)


def point_from_result(base: dict[str, Any], result: dict[str, Any]) -> Point:
    """The headline figures of a finished run's result (its `done` event's data), or of one of
    its repetitions: a lesson's recorded figures are read by this too (content.figures)."""
    summary, server = result["summary"], result["server"]
    profile = server.get("profile") or {}
    aggregate = result.get("aggregate") or {}
    repetitions = [r["summary"] for r in result.get("repetitions") or []]
    noise = _noise(result.get("host_noise"))
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
        host_noise=noise,
        qps_interval=_repeated([r["qps"] for r in repetitions])
        or single_interval(summary["qps"], noise),
        p99_interval=_repeated([r["latency_us"]["p99"] for r in repetitions]),
    )


def _repeated(figures: list[float | None]) -> Interval | None:
    """The median of a repeated figure with its interval; None for a figure measured once."""
    return median_interval(figures) if len(figures) > 1 else None


def _noise(found: dict[str, Any] | None) -> HostNoise | None:
    return HostNoise.model_validate(found) if found is not None else None


def with_host_noise(point: Point, noise: HostNoise | None) -> Point:
    """The point with this host noise where its run did not carry its own (a recording made
    before runners measured it says what its host's was), and, for a figure measured once
    that has none yet (recorded before points had one), the interval its noise gives it."""
    noise = point.host_noise or noise
    if noise is None or (point.host_noise is not None and point.qps_interval is not None):
        return point
    repeated = bool(point.spread)  # a single run's spread is 0
    interval = point.qps_interval or (None if repeated else single_interval(point.qps, noise))
    return point.model_copy(update={"host_noise": noise, "qps_interval": interval})


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


def _undisturbed(point: Point) -> bool:
    """A point whose figures a comparison may use: valid, and nothing foreign ran during it
    (a disturbed run is an outlier with a known cause; it is shown, not compared)."""
    return point.status == "done" and bool(point.valid) and point.stable is not False


def _by_round(points: list[Point], entry: str, metric: Metric, rounds: int) -> list[float | None]:
    """An entry's figure in each round 1..rounds, None where it has none to compare."""
    figures: list[float | None] = [None] * rounds
    for p in points:
        if p.server == entry and _undisturbed(p) and 1 <= p.value <= rounds:
            figures[int(p.value) - 1] = getattr(p, metric)
    return figures


def round_entries(points: list[Point], entries: list[str], rounds: int) -> list[EntryFigures]:
    """Each entry's QPS and p99 over its undisturbed rounds: medians with their intervals."""
    return [
        EntryFigures(
            server=entry,
            qps=median_interval(_by_round(points, entry, "qps", rounds)),
            p99_us=median_interval(_by_round(points, entry, "p99_us", rounds)),
        )
        for entry in entries
    ]


def round_verdicts(points: list[Point], entries: list[str], rounds: int) -> list[Comparison]:
    """Every entry after the first against the first, QPS then p99, round by round."""
    reference, *others = entries
    return [
        compare(
            entry,
            reference,
            metric,
            paired_change(
                _by_round(points, entry, metric, rounds),
                _by_round(points, reference, metric, rounds),
            ),
        )
        for entry in others
        for metric in ("qps", "p99_us")
    ]


def single_verdict(
    subject: Point, reference: Point, subject_name: str, reference_name: str
) -> Comparison | None:
    """One run's QPS against another's, each measured once, read against the hosts' run-to-run
    spread; None when either has no figure a comparison may use (failed, invalid, disturbed).
    Throughput only: the hosts' noise is measured on QPS, and p99 scatters by more."""
    if not (_undisturbed(subject) and _undisturbed(reference)):
        return None
    change = single_change(subject.qps, reference.qps, subject.host_noise, reference.host_noise)
    return compare(subject_name, reference_name, "qps", change)
