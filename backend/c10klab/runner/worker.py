"""The runner process: one benchmark at a time, each in the order TechEmpower uses —
start the server, wait until it is ready, verify a correct reply, warm up, measure, stop,
clean up — writing every step to the store as an event."""

import contextlib
import gzip
import logging
import os
import platform
import signal
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

from docker.models.containers import Container

from c10klab.config import Settings, get_settings, parse_cpus, spare_cpuset
from c10klab.hosts.store import DockerState, RunnerHost, RunnerStore, sharing_cpus
from c10klab.results.schemas import (
    BuildData,
    BuildEvent,
    BuildOutcome,
    CheckData,
    CheckedEvent,
    CheckEvent,
    CheckOutcome,
    CheckResult,
    Client,
    Diagnostic,
    DoneEvent,
    Drift,
    FailedData,
    FailedEvent,
    Image,
    Interference,
    ProcessProfile,
    ProgressEvent,
    Provenance,
    RepetitionData,
    RepetitionEvent,
    RunResult,
    ServerStatsEvent,
    StartedData,
    StartedEvent,
    Traffic,
    Window,
)
from c10klab.results.schemas import Repetition as RepetitionOutcome
from c10klab.runner import measure, observer
from c10klab.runner.builds import VariantBuilds, VariantFailed
from c10klab.runner.counter import Counter
from c10klab.runner.docker_engine import Engine, EngineError
from c10klab.runner.lines import ErrorLine, PhaseLine, ProgressLine, SummaryLine, parse_line
from c10klab.runner.measure import CpuSample, DockerStats
from c10klab.runner.noise import RECENT_RUNS, calibration_request, host_noise
from c10klab.runner.observer import Observer, ObserverFailed
from c10klab.runner.plan import (
    BUILD_IMAGE,
    COUNTER_IMAGE,
    LOADGEN_IMAGE,
    RunPlan,
    plan_run,
    runner_name,
    store_label,
)
from c10klab.runner.profiler import Profiler
from c10klab.runs.store import Lease, LeaseLost, Run, RunStore
from c10klab.sandboxes.schemas import Server
from c10klab.sandboxes.service import load_catalog
from c10klab.uncertainty import HostNoise
from c10klab.variants.store import Variant, VariantStore

log = logging.getLogger("c10klab.runner")

# The engine's state (Engine.probe) and which of the course's images it holds, by tag.
DockerSeen = tuple[DockerState, dict[str, bool]]
# What a runner says of its engine where only its CPUs matter (who shares them): not looked at.
ENGINE_UNSEEN = DockerState(reachable=False, version=None, error="not looked at")

HEARTBEAT_S = 3.0
IDLE_POLL_S = 0.3
# A claimed run is the runner's for LEASE_S unless renewed (every LEASE_RENEW_S): a runner
# that dies loses it that long after, and the API fails the run (main.expire_leases_forever).
LEASE_S = 15.0
LEASE_RENEW_S = 2.0
# The runs a host's noise is estimated from are a day's at most: a host changes (a kernel, a
# neighbour), and its noise with it.
NOISE_MEMORY_S = 24 * 3600.0
# How often a run in progress is checked for a cancel, its deadline and a dead server: each
# check is a query and two calls to dockerd, on the cores being measured.
WATCH_S = 1.0
SIGTERM_GRACE_S = 2  # the servers' contract: exit within 2 s of SIGTERM
PROC_STAT = Path("/proc/stat")  # host-wide, also inside a container (the compose stack)
USER_HZ = os.sysconf("SC_CLK_TCK")  # /proc/stat's unit


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


class RunFailed(Exception):
    """Why a run ends failed (or cancelled); a variant's failure says more: the compiler's
    `diagnostics`, or the `check` that failed."""

    def __init__(
        self,
        reason: str,
        logs: list[str] | None = None,
        cancelled: bool = False,
        *,
        diagnostics: list[Diagnostic] | None = None,
        check: CheckOutcome | None = None,
    ):
        super().__init__(reason)
        self.reason, self.logs, self.cancelled = reason, logs or [], cancelled
        self.diagnostics, self.check = diagnostics, check

    def event(self) -> FailedEvent:
        data = FailedData(
            reason=self.reason,
            logs=self.logs,
            cancelled=self.cancelled,
            diagnostics=self.diagnostics,
            check=self.check,
        )
        return FailedEvent(type="failed", data=data)


@dataclass(frozen=True)
class Observed:
    """What the observer saw of one repetition: the server's processes over the measured time
    (None when none were counted), and the traffic that crossed its network."""

    procs: ProcessProfile | None
    traffic: Traffic | None


@dataclass(frozen=True)
class Stability:
    """Whether anything disturbed a repetition while it was measured, and the figures that
    say so (measure.py)."""

    reason: str | None  # why it was disturbed; None: it was not
    interference: Interference
    drift: Drift
    client: Client


@dataclass
class Repetition:
    """One pair of containers: the state its sampler and watcher threads share. Why the
    watcher stopped it lives here too: a watcher that outlives its repetition (it sees the
    server stop at the end) must not fail the next one."""

    number: int
    server_stats: measure.ServerStats = field(default_factory=measure.ServerStats)
    # For the stability checks: each container's CPU time with /proc/stat beside it, the
    # measure phase on the run's clock (its phase line to its summary) and its intervals.
    server_cpu: list[measure.CpuSample] = field(default_factory=list)
    loadgen_cpu: list[measure.CpuSample] = field(default_factory=list)
    measure_to_s: float | None = None
    intervals: list[measure.Interval] = field(default_factory=list)
    observer: Observer | None = None  # the server's side, counted apart from the loadgen
    profiler: Profiler | None = None  # a cpu or offcpu profile's, on from the measured phase
    done: threading.Event = field(default_factory=threading.Event)
    stop_reason: str | None = None
    cancelled: bool = False


@dataclass
class Execution:
    """The state of the one run in progress, shared by its threads."""

    run: Run
    lease: Lease  # every write about the run goes through it: a runner that lost it stops
    plan: RunPlan
    t0: float = field(default_factory=time.monotonic)
    current: Repetition = field(default_factory=lambda: Repetition(1))

    def t_s(self) -> float:
        return time.monotonic() - self.t0

    @property
    def repetitions(self) -> int:
        return self.run.request.repetitions


class Runner:
    def __init__(self, settings: Settings, store: RunStore, engine: Engine) -> None:
        self.settings, self.store, self.engine = settings, store, engine
        self.hosts = RunnerStore(settings.store)
        self.variants = VariantStore(settings.store)
        self.builds = VariantBuilds(engine, settings)
        self.host = engine.host_name()
        self.store_label = store_label(settings)
        self.runner_id = runner_name(settings)
        self.started_at = datetime.now(UTC).isoformat(timespec="seconds")
        self.stopping = threading.Event()
        self.current: Lease | None = None  # the run in progress, whose lease to renew
        self.beating = threading.Lock()
        self.said_goodbye = False
        self.noise: HostNoise | None = None  # its host's run-to-run spread, once known
        self.docker_seen: DockerSeen | None = None  # the engine and images, as last looked at

    # --- the loop ------------------------------------------------------------------------------

    def recover(self) -> None:
        """After a crash or restart: give back the runs this runner held (one whose load had
        not begun is queued again, once; one being measured fails) and remove every container
        it left, before claiming anything (other runners' containers on the same engine are
        not its own: they carry another runner's label)."""
        for run_id in self.store.recover_interrupted(
            "interrupted: the runner stopped while this run was in progress; run it again",
            runner_id=self.runner_id,
        ):
            log.warning("recovered interrupted run %s (queued again or failed)", run_id)
        removed = self.engine.reap(self.store_label)
        if removed:
            log.info("removed %d leftover containers", removed)

    def renew_leases_forever(self) -> None:
        """Keep the current run ours. Apart from the heartbeat, whose Docker calls may be
        slow: a lease must not run out because the engine took a while to answer."""
        while not self.stopping.is_set():
            lease = self.current
            try:
                if lease and not self.store.renew_lease(lease, LEASE_S):
                    log.warning(
                        "run %s is no longer ours (it ended, or its lease ran out)", lease.run_id
                    )
            except Exception:
                log.exception("renewing the lease of run %s failed", lease and lease.run_id)
            self.stopping.wait(LEASE_RENEW_S)

    def heartbeat(self, state: str | None = None) -> None:
        # One beat at a time, and none after the goodbye: a beat under way while the runner
        # stops must not undo it.
        with self.beating:
            if self.said_goodbye:
                return
            run_id = self.current.run_id if self.current else None
            if run_id is None or self.docker_seen is None:
                self.docker_seen = self.look_at_docker()
            docker_state, images = self.docker_seen
            self.hosts.beat(
                self.describe(
                    docker_state, images, state or ("running" if run_id else "idle"), run_id
                )
            )
            self.said_goodbye = state == "stopped"

    def look_at_docker(self) -> DockerSeen:
        """Whether the engine answers, and which images it holds: about twenty calls to
        dockerd and a read of the catalog. Only between runs: during one, every call is CPU
        taken on the cores being measured (issue 22 found the course's own work at 5-12 % of
        them), and the run itself proves the engine answers."""
        catalog = load_catalog(self.settings.sandboxes_dir)
        tools = {LOADGEN_IMAGE, COUNTER_IMAGE, BUILD_IMAGE}
        tags = sorted({s.image for s in catalog.servers} | tools)
        docker_state = Engine.probe()
        images = self.engine.images_present(tags) if docker_state["reachable"] else {}
        return docker_state, images

    def describe(
        self, docker: DockerState, images: dict[str, bool], state: str, run_id: str | None
    ) -> RunnerHost:
        return describe_runner(
            self.settings, self.host, docker, images, state, run_id, self.started_at, self.noise
        )

    def heartbeat_forever(self) -> None:
        while not self.stopping.is_set():
            try:
                self.heartbeat()
            except Exception:
                log.exception("heartbeat failed")
            self.stopping.wait(HEARTBEAT_S)

    def serve(self) -> None:
        self.recover()
        threading.Thread(target=self.heartbeat_forever, daemon=True, name="heartbeat").start()
        threading.Thread(target=self.renew_leases_forever, daemon=True, name="leases").start()
        log.info(
            "runner ready: server CPUs %s, loadgen CPUs %s",
            self.settings.server_cpus,
            self.settings.loadgen_cpus,
        )
        self.know_noise()
        while not self.stopping.is_set():
            run = self.store.claim_next(self.runner_id, LEASE_S)
            if run is None:
                self.stopping.wait(IDLE_POLL_S)
                continue
            self.run_own(run)
            self.renew_noise()
        with contextlib.suppress(Exception):  # say goodbye, so no one waits for this runner
            self.heartbeat(state="stopped")

    def run_own(self, run: Run) -> None:
        """Execute a run this runner holds, renewing its lease meanwhile. Should the lease
        run out all the same (the runner was frozen, or cut off from the store), the next
        write about the run is refused: the run is given up, and its containers removed."""
        self.current = run.lease
        try:
            self.execute(run)
        except LeaseLost:
            log.warning("run %s: no longer ours (its lease ran out); given up", run.id)
        finally:
            self.current = None

    # --- the host's noise (runner/noise.py) ------------------------------------------------------

    def recent_noise(self) -> HostNoise | None:
        since = time.time() - NOISE_MEMORY_S
        return host_noise(self.store.recent_results(self.runner_id, RECENT_RUNS, since))

    def renew_noise(self) -> None:
        """Take the estimate again after a run; a run that added no identical one leaves it
        as it was, with its date."""
        fresh = self.recent_noise()
        dated = {"measured_at"}  # the newest run read, which may have added nothing
        if fresh and (
            self.noise is None
            or fresh.model_dump(exclude=dated) != self.noise.model_dump(exclude=dated)
        ):
            self.noise = fresh

    def know_noise(self) -> None:
        """Start knowing this host's noise: from the last day's runs when they say enough,
        else by measuring it, A/A runs of one server, each a run of its own, before anyone's
        run."""
        self.noise = self.recent_noise()
        runs = self.settings.calibration_runs
        if runs == 0 or (self.noise and self.noise.runs >= runs):
            return
        request = calibration_request(self.settings.calibration_server)
        log.info("measuring this host's noise: %d runs of %s", runs, request.server)
        for _ in range(runs):
            if self.stopping.is_set():
                return
            self.run_own(self.store.begin_own_run(self.runner_id, request, LEASE_S))
        self.renew_noise()
        if self.noise:
            log.info("this host's run-to-run spread: %.1f %%", self.noise.sigma * 100)

    # --- one run -------------------------------------------------------------------------------

    def execute(self, run: Run) -> None:
        """Execute a claimed run; every write about it goes through its lease (LeaseLost when
        that no longer holds)."""
        lease = run.lease
        if lease is None:
            raise ValueError(f"run {run.id} is not held by a runner: claim it first")
        log.info("run %s: %s %s", run.id, run.server, run.request)
        server = load_catalog(self.settings.sandboxes_dir).get(run.server)
        if server is None:
            gone = RunFailed(f"server {run.server} is no longer in the catalog")
            self.store.finish(lease, "failed", gone.event(), error="unknown server")
            return
        variant_id = run.request.variant
        variant = self.variants.get(variant_id) if variant_id else None
        try:
            if variant_id and variant is None:
                raise VariantFailed(f"the variant {variant_id} no longer exists")
            image = self.builds.tag_for(variant, server) if variant else None
        except VariantFailed as failure:
            self.store.finish(lease, "failed", RunFailed(failure.reason).event())
            return
        ex = Execution(run, lease, plan_run(run.id, server, run.request, self.settings, image))
        started = StartedData(
            server=run.server,
            server_cpus=self.settings.server_cpus,
            loadgen_cpus=self.settings.loadgen_cpus,
        )
        self.store.append_event(lease, StartedEvent(type="started", data=started))
        try:
            if variant and image:
                checked = self.prepare_variant(ex, variant, server, image)
                if run.request.check_only:
                    self.clean_up(ex)
                    self.store.finish(lease, "done", CheckedEvent(type="checked", data=checked))
                    log.info("run %s: variant %s built and checked", run.id, variant.id)
                    return
            result = self.measure(ex)
        except RunFailed as failure:
            self.clean_up(ex)
            status = "cancelled" if failure.cancelled else "failed"
            self.store.finish(lease, status, failure.event())
            log.info("run %s %s: %s", run.id, status, failure.reason)
        except LeaseLost:
            self.clean_up(ex)  # what it started goes; what it would have written, too
            raise
        except Exception as exc:  # an engine error must still end the run with a reason
            log.exception("run %s crashed", run.id)
            self.clean_up(ex)
            crashed = RunFailed(f"the runner hit an error: {exc}")
            self.store.finish(lease, "failed", crashed.event())
        else:
            self.clean_up(ex)
            self.store.finish(lease, "done", DoneEvent(type="done", data=result))
            log.info("run %s done: %.0f qps", run.id, result.summary.qps)

    def prepare_variant(
        self, ex: Execution, variant: Variant, server: Server, image: str
    ) -> CheckResult:
        """Build a learner's edited server (or find its build) and check its answers, saying
        each step as an event; a failure is the run's, with the diagnostics or the check."""

        def say(outcome: BuildOutcome | CheckOutcome) -> None:
            t_s = round(ex.t_s(), 3)
            if isinstance(outcome, BuildOutcome):
                built = BuildData(t_s=t_s, **outcome.model_dump())
                self.store.append_event(ex.lease, BuildEvent(type="build", data=built))
            else:
                checked = CheckData(t_s=t_s, **outcome.model_dump())
                self.store.append_event(ex.lease, CheckEvent(type="check", data=checked))

        try:
            build = self.builds.build(ex.run.id, variant, server, image, say)
            if self.store.cancel_requested(ex.run.id):
                raise RunFailed("cancelled", cancelled=True)
            if self.already_checked(ex.run, variant):
                return CheckResult(build=build, checks=[])
            knobs = ex.run.request.knobs
            checks = self.builds.check(ex.run.id, server, image, say, knobs, variant.file)
        except VariantFailed as failure:
            raise RunFailed(
                failure.reason, failure.logs, diagnostics=failure.diagnostics, check=failure.check
            ) from failure
        return CheckResult(build=build, checks=checks)

    def already_checked(self, run: Run, variant: Variant) -> bool:
        """A benchmark of a variant whose own check run passed: the same source, so the same
        binary; checking it again would only add time."""
        if run.request.check_only:
            return False
        check = self.store.get_run(variant.check_run_id)
        return check is not None and check.status == "done"

    def clean_up(self, ex: Execution) -> None:
        """Remove the run's containers before its last event, so `done` means really over."""
        ex.current.done.set()
        try:
            self.engine.reap(self.store_label, ex.run.id)
        except EngineError:
            log.exception("could not remove the containers of run %s", ex.run.id)

    def measure(self, ex: Execution) -> RunResult:
        """Every repetition on fresh containers, then their figures combined."""
        started_at = datetime.now(UTC).isoformat(timespec="seconds")
        outcomes: list[RepetitionOutcome] = []
        for number in range(1, ex.repetitions + 1):
            ex.current = Repetition(number)
            if ex.repetitions > 1:
                begun = RepetitionData(t_s=round(ex.t_s(), 3), repetition=number, of=ex.repetitions)
                self.store.append_event(ex.lease, RepetitionEvent(type="repetition", data=begun))
            outcome, summary = self.measure_once(ex)
            outcomes.append(outcome)
            self.clean_up(ex)  # the next repetition starts from nothing
        combined = measure.combine(outcomes, self.settings.noisy_spread)
        return combined.model_copy(
            update={
                "provenance": self.provenance(ex, summary, started_at),
                # The host's noise as known when this was measured: what one run of it can
                # tell apart.
                "host_noise": self.noise,
            }
        )

    def measure_once(self, ex: Execution) -> tuple[RepetitionOutcome, SummaryLine]:
        """One repetition: its outcome, and the load generator's whole summary."""
        rep = ex.current
        try:
            server = self.engine.start(ex.plan.server)
        except EngineError as exc:
            raise RunFailed(f"the server container did not start: {exc}") from exc
        threading.Thread(target=self.sample_server, args=(ex, rep, server), daemon=True).start()
        counter = None
        if ex.plan.counter is not None:
            counter = Counter(self.engine, ex.plan.counter)
            counter.start(server)
        if ex.plan.profiler is not None:
            rep.profiler = Profiler(self.engine, ex.plan.profiler, ex.run.request.profile)
            rep.profiler.start(server)
        # After the counter has listed the server's processes (it must not count the
        # observer's calls), before the load generator (its first line is the baseline).
        if ex.plan.observer is not None:
            rep.observer = Observer(self.engine, ex.plan.observer, ex.t_s)
            try:
                rep.observer.start(server)
            except ObserverFailed as failure:
                raise failed_beside(server, str(failure)) from failure
        try:
            # The server's network namespace, and nothing else of it: its own pid namespace
            # and another user, so the server can neither see nor signal it.
            loadgen = self.engine.start(ex.plan.loadgen, network_mode=f"container:{server.id}")
        except EngineError as exc:
            raise failed_beside(server, f"the load generator did not start: {exc}") from exc
        try:
            self.store.began_measuring(ex.lease)  # losing this runner now fails the run
        except LeaseLost:
            Engine.kill(loadgen)  # the load must not run for a run that is not ours
            raise
        threading.Thread(target=self.sample_loadgen, args=(ex, rep, loadgen), daemon=True).start()
        threading.Thread(target=self.watch, args=(ex, rep, server, loadgen), daemon=True).start()

        summary, error = self.follow_loadgen(ex, rep, loadgen)
        loadgen_exit = Engine.wait(loadgen, 10)
        if rep.stop_reason:
            raise RunFailed(rep.stop_reason, Engine.log_tail(server), cancelled=rep.cancelled)
        rep.done.set()  # measured: the watcher and sampler stop before the server does
        if error or summary is None or loadgen_exit != 0:
            detail = error or f"the load generator exited with code {loadgen_exit} and no summary"
            raise RunFailed(detail, Engine.log_tail(server) + Engine.log_tail(loadgen, 5))

        # Every request the server answered: the load's, plus loadgen's one verification.
        requests = (summary.requests_total or summary.requests) + 1
        syscalls = counter.stop(requests) if counter is not None else None  # before the server
        # A profile records the measured phase only: its requests are that phase's.
        stacks = rep.profiler.stop(summary.requests) if rep.profiler is not None else None
        observed = self.observed(ex, rep, summary)  # before the server, too
        server_exit = Engine.stop(server, SIGTERM_GRACE_S)
        invalid = measure.judge(
            summary, self.settings.invalid_error_rate, self.settings.min_rate_fraction
        )
        exit_note = (
            f"the server exited with code {server_exit} on SIGTERM (expected 0 within "
            f"{SIGTERM_GRACE_S} s)"
            if server_exit not in (0, None)
            else None
        )
        server_figures = rep.server_stats.summary().model_copy(
            update={"exit_code": server_exit, "exit_note": exit_note, "profile": observed.procs}
        )
        stability = self.stability(ex, rep)
        engine = {"engine": summary.engine, "engine_note": summary.engine_note}
        outcome = RepetitionOutcome(
            repetition=rep.number,
            summary=summary.figures(observed.procs),
            server=server_figures,
            traffic=observed.traffic,
            valid=invalid is None,
            invalid_reason=invalid,
            stable=stability.reason is None,
            unstable_reason=stability.reason,
            interference=stability.interference,
            drift=stability.drift,
            client=stability.client.model_copy(update=engine),
            syscalls=syscalls,
            stacks=stacks,
        )
        return outcome, summary

    def observed(self, ex: Execution, rep: Repetition, summary: SummaryLine) -> Observed:
        """The observer's last line, then what it saw: the server's processes over the
        measured time, and the traffic that crossed the server's network, which must hold
        the load generator's figures (else the run fails: they are not this run's)."""
        if rep.observer is None:
            return Observed(procs=None, traffic=None)
        lines = rep.observer.stop()
        window = (rep.server_stats.measure_from_s or 0.0, rep.measure_to_s or ex.t_s())
        traffic = observer.traffic(lines, ex.run.request, summary)
        problem = observer.summary_problem(summary) or observer.traffic_problem(traffic)
        if problem:
            raise RunFailed(problem)
        return Observed(procs=observer.process_profile(lines, window), traffic=traffic)

    def stability(self, ex: Execution, rep: Repetition) -> Stability:
        """Whether anything disturbed the repetition while it was measured (measure.py)."""
        window = (rep.server_stats.measure_from_s or 0.0, rep.measure_to_s or ex.t_s())
        server_use = measure.cpu_use(
            list(rep.server_cpu), self.settings.server_cpus, window, USER_HZ, busy_columns()
        )
        loadgen_use = measure.cpu_use(
            list(rep.loadgen_cpu),
            self.settings.loadgen_cpus,
            window,
            USER_HZ,
            busy_columns(),
            ours=rep.observer.cpu_between if rep.observer else None,
        )
        interference = Interference(
            limit=self.settings.max_interference_server,
            measure_phase=Window(from_s=round(window[0], 3), to_s=round(window[1], 3)),
            server=server_use.model_copy(update={"limit": self.settings.max_interference_server}),
            loadgen=loadgen_use.model_copy(
                update={"limit": self.settings.max_interference_loadgen}
            ),
        )
        open_loop = ex.run.request.rate > 0
        drift = measure.drift(rep.intervals, self.settings.max_drift, open_loop)
        return Stability(
            reason=measure.judge_stability(interference, drift),
            interference=interference,
            drift=drift,
            client=measure.client_use(interference),
        )

    def follow_loadgen(
        self, ex: Execution, rep: Repetition, loadgen: Container
    ) -> tuple[SummaryLine | None, str | None]:
        """Turn the load generator's JSON lines into events until it exits."""
        summary: SummaryLine | None = None
        error: str | None = None
        for text in measure.split_lines(Engine.stdout_chunks(loadgen)):
            line = parse_line(text)
            if isinstance(line, PhaseLine) and line.phase == "measure":
                rep.server_stats.measure_from_s = ex.t_s()
                if rep.profiler is not None:
                    rep.profiler.enable()
            elif isinstance(line, ProgressLine):
                event = measure.progress_event(line, ex.t_s())
                procs = rep.observer.latest_procs() if rep.observer else None
                if procs is not None:
                    event.procs = procs
                if ex.repetitions > 1:
                    event.repetition = rep.number
                if line.phase == "measure":
                    rep.intervals.append(measure.Interval(event.t_s, line.qps, line.interval_s))
                self.store.append_event(ex.lease, ProgressEvent(type="progress", data=event))
            elif isinstance(line, SummaryLine):
                rep.measure_to_s = ex.t_s()
                summary = line
            elif isinstance(line, ErrorLine):
                error = f"load generator: {line.kind}: {line.message}"
        return summary, error

    def sample_server(self, ex: Execution, rep: Repetition, server: Container) -> None:
        """The server's CPU, memory and pids: `server_stats` events, and its CPU time for the
        stability check."""

        def record(stats: DockerStats, t_s: float) -> None:
            sample = measure.server_sample(stats, t_s)
            if sample is not None:
                rep.server_stats.samples.append(sample)
                self.store.append_event(
                    ex.lease, ServerStatsEvent(type="server_stats", data=sample)
                )

        self.sample_cpu(ex, rep, server, self.settings.server_cpus, rep.server_cpu, record)

    def sample_loadgen(self, ex: Execution, rep: Repetition, loadgen: Container) -> None:
        """The load generator's CPU time, for the stability check only (no events)."""
        self.sample_cpu(ex, rep, loadgen, self.settings.loadgen_cpus, rep.loadgen_cpu)

    @staticmethod
    def sample_cpu(
        ex: Execution,
        rep: Repetition,
        container: Container,
        cpus: str,
        into: list[CpuSample],
        each: Callable[[DockerStats, float], None] | None = None,
    ) -> None:
        """Follow Docker's stats stream (one sample a second) until the repetition is measured
        or the container stops: each sample's CPU time, with /proc/stat read beside it, goes
        `into` the list; `each` sees every sample too."""
        pinned = parse_cpus(cpus)
        try:
            for stats in Engine.stats(container):
                if rep.done.is_set():
                    return
                t_s = ex.t_s()
                cpu = measure.cpu_sample(stats, t_s, read_proc_stat(pinned))
                if cpu is not None:
                    into.append(cpu)
                if each is not None:
                    each(stats, t_s)
        except Exception:
            # The stream ends with an error when the container is removed; that is its end.
            return

    def watch(self, ex: Execution, rep: Repetition, server: Container, loadgen: Container) -> None:
        """Stop the run early on a cancel, the hard deadline, a runner shutdown or a dead server."""
        deadline_s = ex.t_s() + ex.plan.deadline_s  # each repetition gets the whole allowance
        while not rep.done.is_set():
            if self.store.cancel_requested(ex.run.id):
                rep.stop_reason, rep.cancelled = "cancelled by the user", True
            elif ex.t_s() > deadline_s:
                rep.stop_reason = f"timed out after {ex.plan.deadline_s:.0f} s (the hard limit)"
            elif self.stopping.is_set():
                rep.stop_reason = "the runner was stopped during this run"
            else:
                running, code = Engine.is_running(server)
                if not running:
                    rep.stop_reason = f"the server exited with code {code} during the run"
            if rep.stop_reason:
                Engine.kill(loadgen)
                return
            if not Engine.is_running(loadgen)[0]:
                return
            time.sleep(WATCH_S)

    def shares_cpus_with(self) -> list[str]:
        me = self.describe(ENGINE_UNSEEN, {}, "running", None)
        return sharing_cpus(me, self.hosts.hosts())

    def image(self, tag: str) -> Image:
        return Image(tag=tag, id=self.engine.image_id(tag))

    def provenance(self, ex: Execution, summary: SummaryLine, started_at: str) -> Provenance:
        return Provenance(
            request=ex.run.request,
            server_image=self.image(ex.plan.server.image),
            loadgen_image=self.image(ex.plan.loadgen.image),
            server_argv=ex.plan.server.command,
            server_pids_limit=ex.plan.server.kwargs.get("pids_limit"),
            loadgen_argv=ex.plan.loadgen.command,
            loadgen_version=summary.version,
            server_cpus=self.settings.server_cpus,
            loadgen_cpus=self.settings.loadgen_cpus,
            runner=self.runner_id,
            runner_host=self.host,
            # Other runners on this host pinned to the same CPUs: their runs may have run at
            # the same moment as this one, on the same cores.
            shares_cpus_with=self.shares_cpus_with(),
            course_cpus=spare_cpuset(self.settings),
            cpu_model=cpu_model(),
            **self.engine.host_facts(),
            started_at=started_at,
            finished_at=datetime.now(UTC).isoformat(timespec="seconds"),
        )


def failed_beside(server: Container, reason: str) -> RunFailed:
    """A container that joins the server's namespaces did not start: when the server has
    exited, that is the cause to tell."""
    running, code = Engine.is_running(server)
    if not running:
        reason = f"the server exited with code {code} before it was ready"
    return RunFailed(reason, Engine.log_tail(server))


def read_proc_stat(cpus: set[int]) -> dict[int, dict[str, int]]:
    """/proc/stat's rows for `cpus` now: read as a Docker sample arrives, so both describe the
    same moment (within the milliseconds the sample took to reach the runner)."""
    try:
        return measure.parse_proc_stat(PROC_STAT.read_text(), cpus)
    except OSError:
        return {}


@cache
def busy_columns() -> tuple[str, ...]:
    """The /proc/stat columns that count as busy on this kernel (see measure.busy_columns)."""
    config: str | None = None
    for path in (Path("/proc/config.gz"), Path("/boot") / f"config-{platform.release()}"):
        try:
            raw = path.read_bytes()
            config = (gzip.decompress(raw) if path.suffix == ".gz" else raw).decode(
                errors="replace"
            )
            break
        except OSError:
            continue
    try:
        cmdline = Path("/proc/cmdline").read_text()
    except OSError:
        cmdline = ""
    accounted = measure.irq_time_accounted(config, cmdline)
    log.info(
        "irq time accounting: %s; busy CPU time is %s", accounted, measure.busy_columns(accounted)
    )
    return measure.busy_columns(accounted)


def describe_runner(
    settings: Settings,
    host: str,
    docker: DockerState,
    images: dict[str, bool],
    state: str,
    run_id: str | None,
    started_at: str,
    noise: HostNoise | None = None,
) -> RunnerHost:
    """What a runner says about itself in its heartbeat."""
    return RunnerHost(
        id=runner_name(settings),
        host=host,
        server_cpus=settings.server_cpus,
        loadgen_cpus=settings.loadgen_cpus,
        docker=docker,
        images=images,
        state=state,
        run_id=run_id,
        started_at=started_at,
        noise=noise,
    )


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s runner %(levelname)s %(message)s")
    settings = get_settings()
    store = RunStore(settings.store)
    stopping = threading.Event()

    def stop(signum: int, _frame: object) -> None:
        log.info("signal %d: finishing", signum)
        stopping.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    engine = connect(settings, stopping)
    if engine is None:
        return
    runner = Runner(settings, store, engine)
    runner.stopping = stopping
    runner.serve()


def connect(settings: Settings, stopping: threading.Event) -> Engine | None:
    """Wait for a Docker engine, telling /api/health why runs cannot start meanwhile.
    Queued runs stay queued; they start once the engine answers."""
    hosts = RunnerStore(settings.store)
    started_at = datetime.now(UTC).isoformat(timespec="seconds")
    while not stopping.is_set():
        state = Engine.probe()
        if state["reachable"]:
            return Engine()
        hosts.beat(
            describe_runner(settings, socket.gethostname(), state, {}, "idle", None, started_at)
        )
        log.warning("Docker engine not reachable (%s); retrying", state["error"])
        stopping.wait(HEARTBEAT_S)
    return None
