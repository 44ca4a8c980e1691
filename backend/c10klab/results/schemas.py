"""What a run produces, as the API shows it: the events of its stream and its result.

The runner builds these models as it measures, so a figure is checked when it is made; the
store keeps their JSON and the API sends them: a run's `result`, its SSE events, and the
recorded baselines (content/baselines/*.json, which must all still validate). Recordings made
before a figure existed lack it, so every figure added later is optional. Result objects keep
unknown fields (`extra="allow"`): a stored row or recording with a figure this file does not
describe (the load generator's nested extras among them) passes it on rather than dropping it.
"""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel

from c10klab.run_request import RunRequest
from c10klab.uncertainty import HostNoise


class Figures(BaseModel):
    """An object of the runner's figures: known fields checked, later ones passed on. Lists
    and dicts default to literal `[]`/`{}` (pydantic copies them per object): unlike a default
    factory, the schema shows the default, so generated clients read it as always present."""

    model_config = ConfigDict(extra="allow")


# --- the load generator's summary ----------------------------------------------------------


class Latency(Figures):
    """A latency digest in microseconds (HdrHistogram's percentiles)."""

    p50: float
    p90: float
    p99: float
    p999: float
    max: float


class LatencySummary(Latency):
    min: float | None = None
    mean: float | None = None
    stdev: float | None = None


class PercentilePoint(Figures):
    percentile: float = Field(description="0 to 100")
    latency_us: float


class OpenLoop(Figures):
    """An open loop's target against what it achieved, and its other two latencies: from the
    moment a request was really sent (`latency_actual_us`) and how late sends were."""

    target_qps: float
    achieved_qps: float
    achieved_fraction: float
    short_of_target: bool
    latency_actual_us: LatencySummary
    send_lag_us: LatencySummary
    percentiles_actual: list[PercentilePoint] | None = None


class IdleConnections(Figures):
    requested: int
    open_at_start: int
    dropped: int = Field(description="drops while the load ran, reconnects dropped again included")
    dropped_connections: int | None = Field(
        None,
        description="how many distinct idle connections were dropped (at most `requested`); "
        "`dropped` less this is reconnects dropped again. Null in runs recorded before it "
        "was counted",
    )


class ProcessProfile(Figures):
    """The server's processes read from /proc/<pid>/status over the measured time."""

    samples: int | None = None
    processes_peak: int | None = None
    threads_peak: int | None = None
    rss_peak_bytes: int | None = None
    rss_mean_bytes: int | None = None
    voluntary_ctxt_switches_per_s: float | None = None
    nonvoluntary_ctxt_switches_per_s: float | None = None


class Summary(Figures):
    """The load generator's summary of the measured time."""

    qps: float
    requests: int
    requests_total: int | None = Field(None, description="warm-up included")
    starved: int | None = Field(None, description="connections that completed no request")
    duration_s: float
    errors: dict[str, int] = Field({}, description="count per kind")
    error_total: int = 0
    connect_failures: int | None = None
    latency_us: LatencySummary
    percentiles: list[PercentilePoint] = Field([])
    mode: Literal["closed", "open"] | None = None
    connection_mode: str | None = Field(None, description="keep_alive or per_request")
    open_loop: OpenLoop | None = None
    idle: IdleConnections | None = None
    procs: ProcessProfile | None = None


class ServerFigures(Figures):
    """Docker's view of the server container (CPU, memory, pids), and its processes'."""

    cpu_percent_mean: float | None = Field(
        None, description="percent of one CPU, over the measured time: 200 = two cores busy"
    )
    memory_peak_bytes: int | None = Field(None, description="the container's memory (cgroup)")
    pids_peak: int | None = None
    samples: int | None = None
    exit_code: int | None = None
    exit_note: str | None = None
    profile: ProcessProfile | None = None


# --- stability: interference, drift, the client ----------------------------------------------


class CpuUse(Figures):
    """How a CPU set was used while the run was measured, as fractions of its capacity:
    `others` is busy time beyond the container's own, `interference` others plus steal.
    `judged: false` (with a `note`) when too few Docker samples fell inside that time."""

    cpus: str
    judged: bool
    note: str | None = None
    samples: int | None = None
    from_s: float | None = None
    to_s: float | None = None
    seconds: float | None = None
    busy_columns: str | None = None
    busy: float | None = None
    container: float | None = None
    helper: float | None = Field(
        None, description="the course's own observer on these CPUs: not counted as others"
    )
    irq: float | None = None
    others: float | None = None
    steal: float | None = None
    interference: float | None = None
    limit: float | None = Field(
        None,
        description="the most `interference` this set may have (null in older results: "
        "the Interference's `limit` held for both)",
    )


class Window(Figures):
    from_s: float
    to_s: float


class Interference(Figures):
    limit: float = Field(description="the server's CPUs' limit; each set's own is its `limit`")
    measure_phase: Window | None = None
    server: CpuUse
    loadgen: CpuUse
    repetition: int | None = None


class DriftedInterval(Figures):
    t_s: float
    qps: float
    departure: float = Field(description="qps / median - 1")


class Drift(Figures):
    """Measured intervals whose QPS left the median interval QPS by more than `limit`."""

    limit: float
    judged: bool
    note: str | None = None
    intervals: int
    open_loop: bool | None = None
    median_qps: float | None = None
    drifted: list[DriftedInterval] = Field([])
    repetition: int | None = None


class Client(Figures):
    """The load generator's side: how busy it kept its CPUs, the engine it drove sockets with,
    and `bound` when its CPUs were saturated and the server's were not (the figures then
    measure the client)."""

    cpu: float | None = None
    bound: bool | None = None
    reason: str | None = None
    engine: str | None = None
    engine_note: str | None = None
    repetition: int | None = None


# --- repetitions and the syscall profile -----------------------------------------------------


class RepetitionSpread(Figures):
    median: float
    min: float
    max: float
    spread: float | None = Field(None, description="(max - min) / median")


class Aggregate(Figures):
    count: int
    median_repetition: int | None = None
    qps: RepetitionSpread
    p99_us: RepetitionSpread | None = None
    noisy: bool
    noisy_threshold: float


class SyscallRow(Figures):
    syscall: str
    calls: int
    errors: int | None = Field(description="failed calls; null where not counted")
    per_request: float


class SyscallTotal(Figures):
    syscall: str = "total"
    calls: int


class Syscalls(Figures):
    """perf's counts (no ptrace), per request served; or, where the host would not count, why
    (`refused`) and no figure."""

    method: Literal["perf"]
    refused: str | None
    requests: int | None
    calls_per_request: float | None
    rows: list[SyscallRow]
    total: SyscallTotal | None = None


class FoldedStack(Figures):
    stack: str = Field(
        description="frames root first, ';'-separated, starting with the command's name; "
        "kernel frames end in _[k]; names only, never an address"
    )
    weight: int = Field(description="samples (cpu) or microseconds off the CPU (offcpu)")


class CpuShares(Figures):
    """Where the server's CPUs' time went in a cpu profile, over the measured window: shares of
    every sample taken on them (they sum to 1)."""

    user: float = Field(description="the server's own code and its libraries")
    syscalls: float = Field(description="the kernel serving its system calls, less softirq")
    softirq: float = Field(
        description="the kernel's network receive and transmit work (softirq) run on the "
        "server's time: on loopback, the TCP stack of both ends"
    )
    other_kernel: float = Field(description="page faults, interrupts and other kernel work")
    idle: float = Field(description="the server's CPUs ran nothing: the server waited")
    other_work: float = Field(
        description="the server's CPUs ran something not the server's: the kernel's own threads "
        "(ksoftirqd's deferred network work among them) or another program"
    )


class OffCpuTotals(Figures):
    """An offcpu profile's totals, summed over the server's threads."""

    blocked_s: float = Field(description="time asleep: waiting for I/O, a lock, a connection")
    runnable_s: float = Field(description="time ready but switched out: waiting for a CPU")
    switches: int
    switches_per_request: float | None


class Stacks(Figures):
    """A cpu or offcpu profile (perf's call stacks beside the server, sandboxes/counter/
    profile-stacks.sh) over the measured window; or, where the host would not profile, why
    (`refused`) and no stacks."""

    mode: Literal["cpu", "offcpu"]
    refused: str | None
    unit: Literal["samples", "microseconds"]
    frequency_hz: int | None = Field(description="cpu: samples a second of a busy CPU")
    window_s: float | None = Field(description="how long recording ran: the measured phase")
    total: int = Field(description="the sum of every stack's weight, merged ones included")
    stacks: list[FoldedStack]
    merged: int = Field(
        0, description="stacks beyond the kept ones, merged into one '[other stacks]' line"
    )
    shares: CpuShares | None = None
    offcpu: OffCpuTotals | None = None


class Image(Figures):
    tag: str
    id: str | None


class Provenance(Figures):
    """Where and how a result was measured."""

    request: RunRequest | None = Field(
        None, description="the run's request, every default filled in; a series' has none"
    )
    server_image: Image
    loadgen_image: Image
    server_argv: list[str]
    server_pids_limit: int | None = Field(
        None,
        description="the processes and threads the server's container could hold: for a "
        "server with one per connection, its connections plus 100 (null in older runs)",
    )
    loadgen_argv: list[str]
    loadgen_version: str | None = None
    server_cpus: str
    loadgen_cpus: str
    runner: str | None = None
    runner_host: str | None = None
    shares_cpus_with: list[str] = Field([])
    course_cpus: str | None = Field(
        None,
        description="the CPUs the course's own work kept to while it was measured (the API, "
        "the runner, the store, the engine and the run's watchers): empty when the host had "
        "none beyond the measured ones and that work shared them; null in older runs",
    )
    cpu_model: str | None = None
    docker_version: str | None = None
    kernel: str | None = None
    cpus: int | None = None
    cgroup_version: str | None = None
    started_at: str
    finished_at: str


class Traffic(Figures):
    """The bytes that crossed the server's network namespace while the load ran, counted by
    the observer (no process of the server can change the count), against the least the
    load generator's requests need. A run whose figures need more than was carried fails."""

    judged: bool
    requests: int = Field(description="completed requests: warm-up, measure, verification")
    least_bytes: int = Field(description="the fewest payload bytes those requests need")
    bytes: int | None = Field(None, description="counted on the server's side (headers too)")
    packets: int | None = None


class Outcome(Figures):
    """One repetition's figures, and (in the result) the median one's."""

    summary: Summary
    server: ServerFigures | None = None
    valid: bool
    invalid_reason: str | None = None
    # Results recorded before the stability checks have none of these.
    stable: bool | None = None
    unstable_reason: str | None = None
    interference: Interference | None = None
    client: Client | None = None
    drift: Drift | None = None
    syscalls: Syscalls | None = None
    stacks: Stacks | None = Field(None, description="a cpu or offcpu profile's, of the server")
    traffic: Traffic | None = Field(
        None, description="the server side's count; results before it have none"
    )


class Repetition(Outcome):
    repetition: int


class RunResult(Outcome):
    """A finished run: the median repetition's figures, every repetition's, and how far they
    agree. The `done` event's data and GET /api/runs/{id}'s `result`."""

    repetitions: list[Repetition] = Field([])
    aggregate: Aggregate | None = None
    provenance: Provenance | None = None
    host_noise: HostNoise | None = Field(
        None,
        description="the runner host's run-to-run spread when this was measured: a single "
        "run's figure is known only to about ±2 sigma; null before it was measured",
    )


# --- a variant's build and correctness check -------------------------------------------------


class Diagnostic(Figures):
    """One compiler message. `line` and `column` (1-based) place it in the edited file; a
    message about another file, or none (the linker's), has `line` null and says where."""

    severity: Literal["error", "warning", "note"]
    message: str
    line: int | None = None
    column: int | None = None
    end_line: int | None = None
    end_column: int | None = None
    file: str | None = Field(None, description="the file it is about, when not the edited one")
    option: str | None = Field(None, description="the warning option, e.g. -Wunused-variable")


class BuildOutcome(Figures):
    status: Literal["compiled", "cached", "failed"]
    seconds: float | None = Field(None, description="how long the compile took; null if cached")
    diagnostics: list[Diagnostic] = Field([], description="errors, warnings and notes")


class CheckFailure(Figures):
    check: str = Field(description="the check that failed, e.g. echo-many-connections")
    message: str
    expected: str | None = None
    got: str | None = None


class CheckOutcome(Figures):
    """The load generator's correctness check of a variant, for one protocol."""

    protocol: Literal["echo", "http"]
    ok: bool
    passed: list[str] = Field([], description="the checks passed, in order")
    failed: CheckFailure | None = None


class CheckResult(Figures):
    """A check run's end (`checked` event, and the run's `result`): the variant built and
    answered every check in both protocols."""

    build: BuildOutcome
    checks: list[CheckOutcome]


# --- the events of a run's stream ------------------------------------------------------------


class QueuedData(Figures):
    position: int | None = Field(description="1 = next to start; null while held")
    wait_s: float | None = Field(None, description="estimated seconds until it starts")
    held: bool = Field(False, description="its class is paused")


class RequeuedData(Figures):
    reason: str


class StartedData(Figures):
    server: str
    server_cpus: str | None = None
    loadgen_cpus: str | None = None


class ProcessSample(Figures):
    processes: int | None = None
    threads: int | None = None
    rss_bytes: int | None = None
    voluntary_ctxt_switches: int | None = None
    nonvoluntary_ctxt_switches: int | None = None


class ProgressData(Figures):
    """One interval of the load generator; `t_s` is seconds since `started`."""

    t_s: float
    phase: Literal["warmup", "measure"]
    qps: float
    requests: int
    errors: int
    latency_us: Latency
    latency_actual_us: Latency | None = None
    send_lag_us: Latency | None = None
    idle_dropped: int | None = None
    procs: ProcessSample | None = None
    repetition: int | None = None


class ServerStatsData(Figures):
    t_s: float
    cpu_percent: float = Field(description="percent of one CPU")
    memory_bytes: int
    pids: int | None = None


class RepetitionData(Figures):
    t_s: float
    repetition: int
    of: int


class BuildData(BuildOutcome):
    t_s: float


class CheckData(CheckOutcome):
    t_s: float


class FailedData(Figures):
    reason: str
    logs: list[str] = Field([], description="the server's last log lines")
    cancelled: bool = False
    lost: bool = Field(False, description="its runner stopped answering during the run")
    diagnostics: list[Diagnostic] | None = Field(
        None, description="a variant that did not compile: the compiler's messages"
    )
    check: CheckOutcome | None = Field(
        None, description="a variant that failed its correctness check: which check, what came back"
    )


class QueuedEvent(BaseModel):
    type: Literal["queued"]
    data: QueuedData


class RequeuedEvent(BaseModel):
    type: Literal["requeued"]
    data: RequeuedData


class StartedEvent(BaseModel):
    type: Literal["started"]
    data: StartedData


class ProgressEvent(BaseModel):
    type: Literal["progress"]
    data: ProgressData


class ServerStatsEvent(BaseModel):
    type: Literal["server_stats"]
    data: ServerStatsData


class RepetitionEvent(BaseModel):
    type: Literal["repetition"]
    data: RepetitionData


class BuildEvent(BaseModel):
    type: Literal["build"]
    data: BuildData


class CheckEvent(BaseModel):
    type: Literal["check"]
    data: CheckData


class DoneEvent(BaseModel):
    type: Literal["done"]
    data: RunResult


class CheckedEvent(BaseModel):
    type: Literal["checked"]
    data: CheckResult


class FailedEvent(BaseModel):
    type: Literal["failed"]
    data: FailedData


AnyRunEvent = Annotated[
    QueuedEvent
    | RequeuedEvent
    | StartedEvent
    | ProgressEvent
    | ServerStatsEvent
    | RepetitionEvent
    | BuildEvent
    | CheckEvent
    | DoneEvent
    | CheckedEvent
    | FailedEvent,
    Field(discriminator="type"),
]


# The events that end a run: with its result (`done`, `checked`) or without one (`failed`).
EndEvent = DoneEvent | CheckedEvent | FailedEvent


class RunEvent(RootModel[AnyRunEvent]):
    """One event of a run: its SSE `event:` name (`type`) and its `data:`. GET
    /api/runs/{id}/events sends `data` as each frame's JSON, `type` as its `event:` name and
    its number as `id:`; recorded baselines keep `{"type", "data"}`."""
