"""Pure pieces of a run's bookkeeping: turning the load generator's lines into events and Docker
stats into CPU/memory figures, judging whether a result is valid and whether it was disturbed
while it was measured, combining repetitions, and reading perf's syscall counts."""

import statistics
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TypedDict, TypeVar

from c10klab.config import parse_cpus
from c10klab.results.schemas import (
    Aggregate,
    Client,
    CpuUse,
    Drift,
    DriftedInterval,
    Interference,
    ProgressData,
    Repetition,
    RepetitionSpread,
    RunResult,
    ServerFigures,
    ServerStatsData,
    Summary,
    SyscallRow,
    Syscalls,
    SyscallTotal,
)
from c10klab.runner.lines import ProgressLine


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


def progress_event(line: ProgressLine, t_s: float) -> ProgressData:
    """A progress line as the `progress` event the charts read; the open-loop digests, idle
    drops and the server's process profile pass through when the line has them."""
    return ProgressData(
        t_s=round(t_s, 3),
        phase=line.phase,
        qps=line.qps,
        requests=line.requests,
        errors=line.errors,
        latency_us=line.latency_us,
        latency_actual_us=line.latency_actual_us,
        send_lag_us=line.send_lag_us,
        idle_dropped=line.idle_dropped or None,
        procs=line.procs,
    )


# --- Docker's stats (one sample a second of a container): the fields read -------------------


class CpuUsage(TypedDict, total=False):
    total_usage: int  # nanoseconds of CPU time since the container started
    percpu_usage: list[int] | None  # cgroup v1 only


class CpuStats(TypedDict, total=False):
    cpu_usage: CpuUsage
    system_cpu_usage: int
    online_cpus: int


class MemoryStats(TypedDict, total=False):
    usage: int
    stats: dict[str, int]  # cgroup v1: total_inactive_file; v2: inactive_file


class PidsStats(TypedDict, total=False):
    current: int


class DockerStats(TypedDict, total=False):
    """One sample of Docker's stats stream, as far as the runner reads it."""

    cpu_stats: CpuStats
    precpu_stats: CpuStats  # the previous sample's
    memory_stats: MemoryStats
    pids_stats: PidsStats


def cpu_percent(stats: DockerStats) -> float | None:
    """CPU use since the previous sample, as `docker stats` shows it: 100 = one whole core."""
    cpu, pre = stats.get("cpu_stats", CpuStats()), stats.get("precpu_stats", CpuStats())
    try:
        cpu_delta = cpu["cpu_usage"]["total_usage"] - pre["cpu_usage"]["total_usage"]
        system_delta = cpu["system_cpu_usage"] - pre["system_cpu_usage"]
    except (KeyError, TypeError):
        return None
    cpus = cpu.get("online_cpus") or len(cpu["cpu_usage"].get("percpu_usage") or []) or 1
    if system_delta <= 0 or cpu_delta < 0:
        return None
    return round(float(cpu_delta) / float(system_delta) * float(cpus) * 100.0, 2)


def memory_bytes(stats: DockerStats) -> int | None:
    """Memory in use without the reclaimable page cache (cgroup v1 and v2 name it differently)."""
    mem = stats.get("memory_stats", MemoryStats())
    if "usage" not in mem:
        return None
    detail = mem.get("stats", {})
    cache = detail.get("total_inactive_file", detail.get("inactive_file", 0))
    return int(max(mem["usage"] - cache, 0))


def server_sample(stats: DockerStats, t_s: float) -> ServerStatsData | None:
    cpu, mem = cpu_percent(stats), memory_bytes(stats)
    if cpu is None or mem is None:
        return None
    pids = stats.get("pids_stats", PidsStats()).get("current")
    return ServerStatsData(t_s=round(t_s, 3), cpu_percent=cpu, memory_bytes=mem, pids=pids)


@dataclass
class ServerStats:
    """Server samples of one run; the mean CPU counts only samples taken while measuring."""

    samples: list[ServerStatsData] = field(default_factory=list)
    measure_from_s: float | None = None

    def summary(self) -> ServerFigures:
        measured = [
            s
            for s in self.samples
            if self.measure_from_s is not None and s.t_s >= self.measure_from_s
        ]
        cpus = [s.cpu_percent for s in measured]
        return ServerFigures(
            cpu_percent_mean=round(sum(cpus) / len(cpus), 2) if cpus else None,
            memory_peak_bytes=max((s.memory_bytes for s in self.samples), default=None),
            pids_peak=max((s.pids or 0 for s in self.samples), default=None),
            samples=len(self.samples),
        )


def judge(summary: Summary, max_error_rate: float, min_rate_fraction: float = 0.0) -> str | None:
    """Why a result must not be shown as a clean number, or None if it may."""
    requests, errors = summary.requests, summary.error_total
    if requests == 0:
        return "no request completed during the measured time"
    open_loop = summary.open_loop
    if open_loop and open_loop.achieved_fraction < min_rate_fraction:
        return (
            f"only {open_loop.achieved_qps:,.0f} of the {open_loop.target_qps:,.0f} "
            f"requests/s asked for were answered ({open_loop.achieved_fraction:.0%}, under "
            f"{min_rate_fraction:.0%}): past its capacity a server's latency only grows with "
            "the queue, so the figures describe the queue, not the server"
        )
    starved = summary.starved or 0
    if starved:
        return (
            f"{starved} connection{'s' if starved != 1 else ''} got no reply during the whole "
            "measured time: the server served fewer clients at once than it was given, and "
            "their waiting is in no percentile"
        )
    timeouts = summary.errors.get("timeout", 0)
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
        kinds = ", ".join(f"{k}: {v}" for k, v in summary.errors.items() if v)
        return (
            f"{rate:.1%} of requests failed ({kinds}), over the {max_error_rate:.0%} limit: "
            "the figures describe a failing server, not its speed"
        )
    return None


# --- Stability: was the run disturbed while it was measured? -------------------------------------
#
# "Invalid" says the figures describe something other than a working server (errors, timeouts,
# a missed rate). "Unstable" says they describe this server *disturbed*: something else ran on
# its CPUs, or its throughput moved during the measurement. Two checks, both over the measure
# phase of one repetition:
# - interference: the CPU time the host's /proc/stat shows as busy on the CPUs a container is
#   pinned to, minus the time that container itself used (Docker's cumulative total_usage), is
#   time other processes took from it; steal is time the hypervisor gave to other machines.
#   /proc/stat is host-wide even inside a container, so this works when the runner runs in one.
# - drift: measured intervals whose QPS left the run's median interval QPS, which is how a
#   disturbance looks from outside, whatever its cause.

PROC_STAT_COLUMNS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")
TASK_COLUMNS = ("user", "nice", "system")
IRQ_COLUMNS = ("irq", "softirq")
# Which /proc/stat columns count as busy depends on where the kernel charges interrupt time.
# Most of the benchmark's own loopback traffic is softirq work, done on the sending container's
# CPU in its context (on a quiet c-epoll echo run here: 31-38 % of each CPU).
# - Without CONFIG_IRQ_TIME_ACCOUNTING (the course's reference host, kernel 6.18) that time is
#   in the running task's runtime, so in the container's usage, while /proc/stat counts those
#   ticks as irq/softirq. Measured on a quiet run: user+nice+system 0.62 of CPU 0, irq+softirq
#   0.37, the server container 0.96. Busy must then include irq and softirq (0.99 - 0.96: 3 %
#   others); without them busy would fall a third of a CPU short of the container's own, and
#   as much interference would go unseen.
# - With it (most distribution kernels; not measured here, the reference host lacks it: this
#   is the kernel's irqtime accounting as documented), interrupt time is taken out of every
#   task's runtime, so the containers' usage lacks it, and counting it as busy would call the
#   benchmark's own packets "other processes" and flag every quiet run: busy is
#   user+nice+system.
# When the kernel's configuration cannot be read (a runner in a container on a host without
# /proc/config.gz), user+nice+system it is: that can miss a disturbance as large as the run's
# softirq share, but never flags a quiet run for its own traffic.


def irq_time_accounted(kernel_config: str | None, cmdline: str) -> bool | None:
    """Whether the kernel keeps interrupt time out of tasks' runtime (CONFIG_IRQ_TIME_ACCOUNTING,
    unless `tsc=noirqtime` switched it off at boot), or None when its configuration is unknown.
    (x86 also switches it off by itself on an unstable TSC; that is not visible here.)"""
    if "tsc=noirqtime" in cmdline.split():
        return False
    if kernel_config is None:
        return None
    return "CONFIG_IRQ_TIME_ACCOUNTING=y" in kernel_config.splitlines()


def busy_columns(irq_accounted: bool | None) -> tuple[str, ...]:
    """The /proc/stat columns whose time the containers' usage also counts (see above)."""
    return TASK_COLUMNS + IRQ_COLUMNS if irq_accounted is False else TASK_COLUMNS


def parse_proc_stat(text: str, cpus: set[int] | None = None) -> dict[int, dict[str, int]]:
    """The per-CPU rows of /proc/stat (`cpu0 user nice system idle iowait irq softirq steal
    …`, in USER_HZ ticks since boot), of `cpus` only when given."""
    rows: dict[int, dict[str, int]] = {}
    for line in text.splitlines():
        name, *values = line.split()
        if not (name.startswith("cpu") and name[3:].isdigit()):
            continue
        cpu = int(name[3:])
        if cpus is None or cpu in cpus:
            rows[cpu] = dict(zip(PROC_STAT_COLUMNS, map(int, values), strict=False))
    return rows


@dataclass(frozen=True)
class CpuSample:
    """One container's cumulative CPU time (Docker's `total_usage`) and /proc/stat's rows for
    the CPUs it is pinned to, read together when the Docker sample arrived (`t_s`, the run's
    clock)."""

    t_s: float
    usage_ns: int
    cpus: dict[int, dict[str, int]]


def cpu_sample(
    stats: DockerStats, t_s: float, proc_stat: dict[int, dict[str, int]]
) -> CpuSample | None:
    try:
        usage = int(stats["cpu_stats"]["cpu_usage"]["total_usage"])
    except (KeyError, TypeError, ValueError):
        return None
    return CpuSample(t_s, usage, proc_stat)


def cpu_use(
    samples: list[CpuSample],
    cpuset: str,
    window: tuple[float, float],
    user_hz: float,
    columns: tuple[str, ...] = TASK_COLUMNS,
    ours: Callable[[float, float], float] | None = None,
) -> CpuUse:
    """How the CPUs `cpuset` were used between the first and the last Docker sample inside
    `window` (the measure phase), as fractions of their capacity over that time: busy (the
    /proc/stat `columns`, see busy_columns), the container's own use, irq+softirq, others
    (busy beyond the container's own), steal, and interference = others + steal.

    Docker's samples come about once a second, so the window is the part of the measure phase
    between two samples; it is given (`from_s`, `to_s`) so a reader sees what was compared.
    `ours` gives the CPU seconds the course's own helper on these CPUs (the observer) used
    between two moments: that time is the run's, not interference."""
    cpus = parse_cpus(cpuset)
    start, end = window
    inside = [s for s in samples if start <= s.t_s <= end and cpus <= s.cpus.keys()]
    if len(inside) < 2 or inside[-1].t_s <= inside[0].t_s:
        return CpuUse(
            cpus=cpuset,
            samples=len(inside),
            judged=False,
            note="fewer than two Docker stats samples (about one a second) fell inside the "
            "measured time",
        )
    first, last = inside[0], inside[-1]
    seconds = last.t_s - first.t_s
    capacity = seconds * len(cpus)

    def share(columns: tuple[str, ...]) -> float:
        ticks = sum(last.cpus[c][k] - first.cpus[c][k] for c in cpus for k in columns)
        return ticks / user_hz / capacity

    busy, steal = share(columns), share(("steal",))
    container = (last.usage_ns - first.usage_ns) / 1e9 / capacity
    helper = ours(first.t_s, last.t_s) / capacity if ours else 0.0
    others = max(busy - container - helper, 0.0)
    return CpuUse(
        cpus=cpuset,
        samples=len(inside),
        judged=True,
        from_s=round(first.t_s, 3),
        to_s=round(last.t_s, 3),
        seconds=round(seconds, 3),
        busy_columns="+".join(columns),
        busy=round(busy, 4),
        container=round(container, 4),
        helper=round(helper, 4) if ours else None,
        irq=round(share(IRQ_COLUMNS), 4),
        others=round(others, 4),
        steal=round(steal, 4),
        interference=round(others + steal, 4),
    )


# Drift needs a median worth the name, and intervals long enough to mean something: loadgen's
# last interval is shorter when the duration is not a whole number of intervals.
MIN_DRIFT_INTERVALS = 3
MIN_INTERVAL_S = 0.5


@dataclass(frozen=True)
class Interval:
    """One measured progress interval: when it ended (the run's clock), its QPS, and how long
    it was when the load generator said so."""

    t_s: float
    qps: float
    interval_s: float | None = None


def drift(intervals: list[Interval], max_drift: float, open_loop: bool) -> Drift:
    """The measured intervals whose QPS departs from the median interval QPS by more than
    `max_drift`, each as (t_s, qps, departure).

    An open loop's QPS is the schedule's while the server keeps up, so there a departure means
    the server fell behind (or caught up) in that interval; a disturbance it absorbed shows in
    the latency alone, which is what the interference check is for."""
    usable = [i for i in intervals if (i.interval_s or 1.0) >= MIN_INTERVAL_S]

    def unjudged(note: str) -> Drift:
        return Drift(
            limit=max_drift, open_loop=open_loop, intervals=len(usable), judged=False, note=note
        )

    if len(usable) < MIN_DRIFT_INTERVALS:
        return unjudged(
            f"{len(usable)} measured interval{'s' if len(usable) != 1 else ''}: at "
            f"least {MIN_DRIFT_INTERVALS} are needed to tell drift from noise"
        )
    median = statistics.median(i.qps for i in usable)
    if median <= 0:
        return unjudged("no interval had requests")
    drifted = [
        DriftedInterval(t_s=i.t_s, qps=i.qps, departure=round(i.qps / median - 1, 4))
        for i in usable
        if abs(i.qps / median - 1) > max_drift
    ]
    return Drift(
        limit=max_drift,
        open_loop=open_loop,
        intervals=len(usable),
        judged=True,
        median_qps=round(median, 1),
        drifted=drifted,
    )


# What a disturbance does to the figures (a share of its CPUs taken: usually fewer requests,
# but not always in one direction, so "may"), and what the learner can do about it.
ROLES = {
    "server": "the server lost that time, so its figures may not be what it does undisturbed",
    "loadgen": "it may have sent fewer requests than the server could answer, so the figures "
    "may be lower than this server can do",
}
WHAT_TO_DO = (
    "close what else runs on this machine (another tab drawing charts, a build, a second "
    "benchmark), wait for it to finish, and run again"
)
ROLE_NAMES = {"server": "the server", "loadgen": "the load generator"}


def _cpu_words(cpuset: str) -> str:
    return f"CPU {cpuset}" if cpuset.isdigit() else f"CPUs {cpuset}"


def judge_stability(interference: Interference, drift: Drift) -> str | None:
    """Why a repetition's figures are not this server's undisturbed ones, or None. The first
    cause found is given: the server's CPUs, the load generator's, then drift."""
    for role, use in (("server", interference.server), ("loadgen", interference.loadgen)):
        limit = use.limit if use.limit is not None else interference.limit
        # A judged use has every figure; `or 0.0` only says so to the type checker.
        taken_share, others, steal = use.interference or 0.0, use.others or 0.0, use.steal or 0.0
        if not use.judged or taken_share <= limit:
            continue
        whose = f"{ROLE_NAMES[role]}'s {_cpu_words(use.cpus)}"
        if steal >= 0.005:
            taken = (
                f"other processes and the hypervisor (steal) took {taken_share:.0%} "
                f"of {whose} while it was measured ({others:.0%} + "
                f"{steal:.0%} steal; limit {limit:.0%})"
            )
        else:
            taken = (
                f"other processes used {others:.0%} of {whose} while it was measured "
                f"(limit {limit:.0%})"
            )
        return f"{taken}: {ROLES[role]}. To measure it undisturbed: {WHAT_TO_DO}"
    if drift.judged and drift.drifted:
        moved = drift.drifted
        shown = ", ".join(f"{d.qps:,.0f} at {d.t_s:.1f} s" for d in moved[:3])
        more = f" and {len(moved) - 3} more" if len(moved) > 3 else ""
        cause = (
            "the server fell behind the load generator's schedule there (or caught up)"
            if drift.open_loop
            else "something disturbed the run while it was measured"
        )
        return (
            f"the throughput left the run's median of {drift.median_qps or 0.0:,.0f} "
            f"requests/s by more than {drift.limit:.0%} in {len(moved)} of its "
            f"{drift.intervals} measured intervals ({shown}{more}): {cause}, so the figures "
            f"are not steady. To measure it undisturbed: {WHAT_TO_DO}"
        )
    return None


Figures = TypeVar("Figures", Interference, Client, Drift)


def _marked(figures: Figures | None, repetition: int) -> Figures | None:
    """Figures shown beside a result, saying which repetition's they are."""
    return figures.model_copy(update={"repetition": repetition}) if figures else None


def _spread(values: list[float]) -> float:
    """(max - min) / median: how far repetitions of one measurement disagree."""
    median = statistics.median(values)
    return (max(values) - min(values)) / median if median else 0.0


# A core this busy has nothing left to give: past it, whoever runs there sets the pace.
SATURATED = 0.9


def client_use(interference: Interference) -> Client:
    """How busy the load generator kept its own CPUs, and whether that, not the server, set
    the pace: its CPUs saturated while the server's were not means the figures measure the
    client (`bound`), however fast the server could go. Unjudged without CPU samples."""
    client, server = interference.loadgen, interference.server
    if not (client.judged and server.judged):
        return Client(cpu=client.container, bound=None, reason=None)
    # A judged use has every figure; `or 0.0` only says so to the type checker.
    theirs, ours = client.container or 0.0, server.container or 0.0
    bound = theirs >= SATURATED and ours < SATURATED
    reason = (
        f"the load generator used {theirs:.0%} of its {_cpu_words(client.cpus)} and the "
        f"server only {ours:.0%} of its {_cpu_words(server.cpus)}: this measures the load "
        "generator, not the server"
        if bound
        else None
    )
    return Client(cpu=client.container, bound=bound, reason=reason)


def combine(outcomes: list[Repetition], noisy_spread: float) -> RunResult:
    """One result from R repetitions: the median repetition's figures, every repetition's,
    the median and spread of QPS and p99, a noisy flag, valid only if all are valid, and
    stable only if all are stable (with the first unstable one's figures, else the median's)."""
    ranked = sorted(outcomes, key=lambda o: o.summary.qps)
    middle = ranked[(len(ranked) - 1) // 2]
    qps = [o.summary.qps for o in outcomes]
    p99 = [o.summary.latency_us.p99 for o in outcomes]
    invalid = [o for o in outcomes if not o.valid]
    reason = None
    if invalid:
        first = invalid[0]
        reason = first.invalid_reason
        if len(outcomes) > 1:
            reason = f"repetition {first.repetition} of {len(outcomes)}: {reason}"
    bound = [o for o in outcomes if o.client and o.client.bound]
    # Results recorded before the stability checks have no `stable`: they count as stable.
    unstable = [o for o in outcomes if o.stable is False]
    disturbed = unstable[0] if unstable else middle
    unstable_reason = disturbed.unstable_reason if unstable else None
    if unstable_reason and len(outcomes) > 1:
        unstable_reason = f"repetition {disturbed.repetition} of {len(outcomes)}: {unstable_reason}"
    spread = _spread(qps)
    client = bound[0] if bound else middle  # client-bound if any repetition was
    return RunResult(
        summary=middle.summary,
        server=middle.server,
        valid=not invalid,
        invalid_reason=reason,
        stable=not unstable,
        unstable_reason=unstable_reason,
        interference=_marked(disturbed.interference, disturbed.repetition),
        client=_marked(client.client, client.repetition),
        drift=_marked(disturbed.drift, disturbed.repetition),
        syscalls=middle.syscalls,
        # The median repetition's stacks, once: every repetition's would multiply what a
        # result stores by their number.
        stacks=middle.stacks,
        traffic=middle.traffic,
        repetitions=[o.model_copy(update={"stacks": None}) for o in outcomes],
        aggregate=Aggregate(
            count=len(outcomes),
            median_repetition=middle.repetition,
            qps=RepetitionSpread(
                median=round(statistics.median(qps), 1),
                min=min(qps),
                max=max(qps),
                spread=round(spread, 4),
            ),
            p99_us=RepetitionSpread(median=statistics.median(p99), min=min(p99), max=max(p99)),
            noisy=len(outcomes) > 1 and spread > noisy_spread,
            noisy_threshold=noisy_spread,
        ),
    )


# --- the syscall profile: perf's counts (counter/count-syscalls.sh) ---------------------------

# The calls counted by name, the rest only in the total (as "other"): what the course's
# servers call while they serve, from reading and writing to waiting, accepting, forking.
NAMED_SYSCALLS = (
    "read", "write", "readv", "writev", "recvfrom", "sendto", "recvmsg", "sendmsg",
    "sendfile64", "splice", "accept", "accept4", "close", "shutdown", "epoll_wait",
    "epoll_pwait", "epoll_pwait2", "epoll_ctl", "poll", "ppoll", "select", "pselect6",
    "io_uring_enter", "futex", "sched_yield", "clone", "clone3", "wait4", "exit",
    "mmap", "munmap", "madvise", "brk", "getsockopt", "setsockopt", "fcntl",
    "rt_sigprocmask", "clock_nanosleep",
)  # fmt: skip
# ...and how many of these failed: a non-blocking server's EAGAIN (nothing to read, no room
# to write, no connection waiting) is the lesson, and a failed call is a call all the same.
ERROR_SYSCALLS = ("read", "recvfrom", "recvmsg", "write", "sendto", "sendmsg", "accept4")
TOTAL_EVENT = "raw_syscalls:sys_enter"


def counter_args() -> list[str]:
    return [*NAMED_SYSCALLS, "--errors", *ERROR_SYSCALLS]


def parse_perf_counts(lines: list[str]) -> dict[str, int]:
    """perf stat's interval lines (`-x, -I`) summed per event. Each line reads
    `time,count,unit,event,...`; an interval in which an event never ran (every counted
    thread asleep throughout) reads `<not counted>`, which is zero calls."""
    counts: dict[str, int] = {}
    for line in lines:
        fields = line.strip().split(",")
        if len(fields) < 4 or not fields[0].replace(".", "", 1).isdigit():
            continue
        event, count = fields[3], fields[1]
        counts[event] = counts.get(event, 0) + (int(count) if count.isdigit() else 0)
    return counts


def syscall_profile(counts: dict[str, int], requests: int) -> Syscalls | None:
    """The counts as a table, per request served; None if perf counted nothing at all."""
    total = counts.get(TOTAL_EVENT)
    if total is None:
        return None
    requests = max(requests, 1)
    named = {
        event.removeprefix("syscalls:sys_enter_"): calls
        for event, calls in counts.items()
        if event.startswith("syscalls:sys_enter_") and calls > 0
    }
    rows = [
        SyscallRow(
            syscall=name,
            calls=calls,
            errors=counts.get(f"syscalls:sys_exit_{name}"),
            per_request=round(calls / requests, 4),
        )
        for name, calls in sorted(named.items(), key=lambda item: -item[1])
    ]
    other = total - sum(named.values())
    if other > 0:
        rows.append(
            SyscallRow(
                syscall="other", calls=other, errors=None, per_request=round(other / requests, 4)
            )
        )
    return Syscalls(
        method="perf",
        refused=None,
        requests=requests,
        rows=rows,
        total=SyscallTotal(syscall="total", calls=total),
        calls_per_request=round(total / requests, 4),
    )


def refused_profile(reason: str) -> Syscalls:
    """A syscall profile the host would not count: why, instead of any figure."""
    return Syscalls(
        method="perf", refused=reason, requests=None, rows=[], total=None, calls_per_request=None
    )
