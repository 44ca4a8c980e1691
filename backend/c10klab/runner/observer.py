"""The server's side of a run: `observe` (sandboxes/loadgen/src/observe.rs) in a container
of its own that joins the server's pid and network namespaces as the measurer's user.

The load generator shares nothing with the server but the network path (its own pid
namespace, another user), so what the lessons read from the server's processes (threads,
memory, context switches) comes from here, and so does the check that keeps a result honest:
every byte the load generator says it exchanged crossed the server's network namespace, whose
counters no process of the server can change. A summary that claims more traffic than the
kernel carried fails the run.

The observer prints a line as it starts (before the load generator does: the traffic's
baseline), one a second, and a last one when the runner stops it after the load has ended.
"""

import threading
from collections.abc import Callable
from dataclasses import dataclass

from docker.models.containers import Container

from c10klab.results.schemas import ProcessProfile, Summary, Traffic
from c10klab.run_request import RunRequest
from c10klab.runner import measure
from c10klab.runner.counter import first_line
from c10klab.runner.docker_engine import Engine, EngineError
from c10klab.runner.lines import NetCounters, ObserveLine, ServerProcesses, parse_line
from c10klab.runner.plan import ContainerOptions, ContainerSpec

FIRST_LINE_WAIT_S = 10.0
STOP_WAIT_S = 5
# The least an echo or http request and its reply put on the wire, in payload bytes: an echo
# request's payload twice; "GET / HTTP/1.1\r\n\r\n" and at least "HTTP/1.1 200" back.
HTTP_LEAST_BYTES = 18 + 12


class ObserverFailed(Exception):
    """The observer could not count the server's side: the run cannot be trusted."""


@dataclass(frozen=True)
class Observation:
    """One line of the observer's, stamped with the run's clock when it arrived."""

    t_s: float
    interval_s: float
    last: bool
    procs: ServerProcesses | None
    net: NetCounters | None
    cpu_s: float

    @classmethod
    def of(cls, line: ObserveLine, t_s: float) -> "Observation":
        return cls(t_s, line.interval_s, line.final, line.procs, line.net, line.cpu_s)


class Observer:
    """The observer's container for one repetition, and the lines it has printed so far."""

    def __init__(self, engine: Engine, spec: ContainerSpec, clock: Callable[[], float]) -> None:
        self.engine, self.spec, self.clock = engine, spec, clock
        self.container: Container | None = None
        self.lines: list[Observation] = []
        self.first = threading.Event()
        self.follower: threading.Thread | None = None

    def start(self, server: Container) -> None:
        """Join the server's namespaces and wait for the first line (the traffic's baseline),
        so it is counted before the load generator sends a byte."""
        namespaces = ContainerOptions(
            pid_mode=f"container:{server.id}", network_mode=f"container:{server.id}"
        )
        try:
            self.container = self.engine.start(self.spec, **namespaces)
        except EngineError as exc:
            raise ObserverFailed(f"the observer did not start: {first_line(exc)}") from exc
        self.follower = threading.Thread(target=self.follow, daemon=True, name="observer")
        self.follower.start()
        if not self.first.wait(FIRST_LINE_WAIT_S):
            tail = " / ".join(Engine.log_tail(self.container, 5)) or "no output"
            raise ObserverFailed(
                f"the observer printed nothing within {FIRST_LINE_WAIT_S:.0f} s: {tail}"
            )

    def follow(self) -> None:
        assert self.container is not None
        for text in measure.split_lines(Engine.stdout_chunks(self.container)):
            line = parse_line(text)
            if isinstance(line, ObserveLine):
                self.lines.append(Observation.of(line, self.clock()))
                self.first.set()

    def latest_procs(self) -> ServerProcesses | None:
        """The server's processes as last seen: what a progress event shows beside its QPS."""
        return self.lines[-1].procs if self.lines else None

    def stop(self) -> list[Observation]:
        """Ask for the last line (SIGTERM), wait for it, and return every line."""
        if self.container is not None:
            Engine.stop(self.container, STOP_WAIT_S)
        if self.follower is not None:
            self.follower.join(STOP_WAIT_S)
        return list(self.lines)

    def cpu_between(self, start_s: float, end_s: float) -> float:
        """The observer's own CPU seconds between two moments of the run's clock, from the
        lines around them (it runs on the load generator's CPUs: its time is not
        interference)."""
        return cpu_between(self.lines, start_s, end_s)


def cpu_between(lines: list[Observation], start_s: float, end_s: float) -> float:
    """The CPU seconds the observer used between two moments, its cumulative `cpu_s`
    interpolated between the lines around each (held at the first or last line outside
    them)."""

    def at(t_s: float) -> float:
        if not lines:
            return 0.0
        before = next((line for line in reversed(lines) if line.t_s <= t_s), lines[0])
        after = next((line for line in lines if line.t_s >= t_s), lines[-1])
        if after.t_s <= before.t_s:
            return before.cpu_s
        share = (t_s - before.t_s) / (after.t_s - before.t_s)
        return before.cpu_s + (after.cpu_s - before.cpu_s) * share

    return max(at(end_s) - at(start_s), 0.0)


def process_profile(lines: list[Observation], window: tuple[float, float]) -> ProcessProfile | None:
    """The summary's `procs` over the measured time: peaks and means of the lines that
    arrived inside `window` (the run's clock), switches per second over their intervals.
    None when no line with processes fell inside it."""
    start, end = window
    inside = [(line.procs, line.interval_s) for line in lines if start < line.t_s <= end]
    procs = [p for p, _ in inside if p is not None]
    if not procs:
        return None
    seconds = sum(interval for p, interval in inside if p is not None) or 1.0

    def per_s(switches: Callable[[ServerProcesses], int]) -> float:
        return round(sum(switches(p) for p in procs) / seconds, 1)

    return ProcessProfile(
        samples=len(procs),
        processes_peak=max(p.processes for p in procs),
        threads_peak=max(p.threads for p in procs),
        rss_peak_bytes=max(p.rss_bytes for p in procs),
        rss_mean_bytes=sum(p.rss_bytes for p in procs) // len(procs),
        voluntary_ctxt_switches_per_s=per_s(lambda p: p.voluntary_ctxt_switches),
        nonvoluntary_ctxt_switches_per_s=per_s(lambda p: p.nonvoluntary_ctxt_switches),
    )


def least_bytes(request: RunRequest, requests: int) -> int:
    """The fewest bytes `requests` completed requests of `request` put on the wire."""
    if request.protocol == "echo":
        return requests * 2 * request.payload_bytes
    return requests * HTTP_LEAST_BYTES


def traffic(lines: list[Observation], request: RunRequest, summary: Summary) -> Traffic:
    """What crossed the server's network namespace from the observer's first line (before
    the load began) to its last (after it ended), against the least the load generator's
    figures need: every request it completed (warm-up, measure and its one verification)."""
    requests = max(summary.requests_total or 0, summary.requests) + 1
    least = least_bytes(request, requests)
    counted = [line.net for line in lines if line.net is not None]
    if len(counted) < 2 or not lines[-1].last:
        return Traffic(judged=False, least_bytes=least, requests=requests)
    first, last = counted[0], counted[-1]
    return Traffic(
        judged=True,
        requests=requests,
        least_bytes=least,
        # On loopback every packet is received as it is sent; received is the one count.
        bytes=last.rx_bytes - first.rx_bytes,
        packets=last.rx_packets - first.rx_packets,
    )


def traffic_problem(figures: Traffic) -> str | None:
    """Why the load generator's figures cannot be this run's, or None when they can be."""
    if not figures.judged or figures.bytes is None:
        return (
            "the traffic on the server's side could not be counted (the observer stopped "
            "early), so nothing confirms the load generator's figures; run it again"
        )
    if figures.bytes < figures.least_bytes:
        return (
            f"the figures disagree with the traffic counted on the server's side: "
            f"{figures.requests:,} requests need at least {figures.least_bytes:,} bytes, "
            f"but only {figures.bytes:,} crossed the server's network"
        )
    return None


def summary_problem(summary: Summary) -> str | None:
    """Why a summary cannot describe any real run, or None: its throughput is not its
    requests over its duration, or its percentiles are out of order."""
    requests, duration, qps = summary.requests, summary.duration_s, summary.qps
    if duration <= 0 or abs(requests / duration - qps) > max(0.01 * qps, 1.0):
        return (
            f"the load generator's summary contradicts itself: {requests:,} requests in "
            f"{duration} s are not {qps:,.1f} requests/s"
        )
    latency = summary.latency_us
    ordered = [latency.p50, latency.p90, latency.p99, latency.p999, latency.max]
    if requests > 0 and ordered != sorted(ordered):
        return "the load generator's summary contradicts itself: its percentiles are out of order"
    return None
