"""Container settings for one run, built only from the catalog and the host's settings.

Nothing a request sends reaches a container as a string: the request's fields were validated
(runs/service.py) and are turned into argv here from typed values, flag names come from the
catalog, and every security-relevant option is fixed below.
"""

import base64
import hashlib
import json
import socket
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypedDict

from docker.types import Healthcheck, LogConfig, Mount, Ulimit

from c10klab.config import Settings, parse_cpus, spare_cpuset
from c10klab.run_request import Knobs, Protocol, RunRequest
from c10klab.runner.measure import counter_args
from c10klab.sandboxes.schemas import Server

LOADGEN_IMAGE = "c10klab/loadgen:latest"
COUNTER_IMAGE = "c10klab/counter:latest"
BUILD_IMAGE = "c10klab/build-c:latest"  # the build sandbox for learners' edited C servers
VARIANT_REPOSITORY = "c10klab/variant"  # an edited server's image: its server's, binary swapped
SERVER_PORT = 9000  # inside the server's own network namespace, so it never collides
WAIT_READY_S = 10
# Time for container start, readiness and the summary beyond warm-up + duration.
DEADLINE_SLACK_S = 30
# Every container carries the id of the store whose run made it, so a runner's sweep removes
# only its own leftovers, never the containers of another course (or test) on the same engine.
LABEL = "c10klab.store"
NOBODY = "65534:65534"  # the servers' user
# The measurer's user: the load generator and the observer run as a user the server is not,
# so the kernel refuses the server every signal, trace and /proc descriptor of theirs.
MEASURER = "10100:10100"
SERVER_UID = int(NOBODY.split(":")[0])
OBSERVE_INTERVAL_MS = 1000
# Docker >= 25 blocks io_uring in its default seccomp profile; servers that need it get ours,
# which allows it. Every other server keeps the engine's default profile.
IO_URING_PROFILE = Path("seccomp") / "io-uring.json"


@dataclass(frozen=True)
class BuildLimits:
    """The build sandbox's limits: what one compile of a learner's file may use."""

    memory: str = "512m"
    pids: int = 64
    cpu_s: int = 60  # RLIMIT_CPU: the compiler is killed (SIGXCPU) after this much CPU time
    wall_s: float = 90.0  # the runner's clock: the container is killed after this long
    tmpfs_bytes: int = 64 * 1024 * 1024  # /work: the source, objects, the binary, scratch
    nofile: int = 1024


BUILD_LIMITS = BuildLimits()


class ContainerOptions(TypedDict, total=False):
    """The keyword arguments of docker's containers.run that the course's containers are
    given: every option this module sets, and the namespaces joined at start (`pid_mode`,
    `network_mode`). Values the SDK has a type for are of that type (docker.types)."""

    name: str
    labels: dict[str, str]
    cap_drop: list[str]
    cap_add: list[str]
    security_opt: list[str]
    read_only: bool
    user: str
    ulimits: list[Ulimit]
    mounts: list[Mount]
    network_mode: str
    pid_mode: str
    entrypoint: list[str]
    environment: dict[str, str]
    tmpfs: dict[str, str]
    cpuset_cpus: str
    mem_limit: str
    memswap_limit: str
    pids_limit: int
    healthcheck: Healthcheck
    log_config: LogConfig


# A variant's server writes at most this much before Docker rotates its log away: a server
# printing without end fills no disk.
VARIANT_LOG = LogConfig(type="json-file", config={"max-size": "1m", "max-file": "1"})


@dataclass(frozen=True)
class ContainerSpec:
    image: str
    command: list[str]
    kwargs: ContainerOptions = field(default_factory=ContainerOptions)


@dataclass(frozen=True)
class RunPlan:
    server: ContainerSpec
    loadgen: ContainerSpec  # network_mode: the server's network namespace, set at start
    deadline_s: float
    counter: ContainerSpec | None = None  # a syscall profile's; pid_mode set at start
    profiler: ContainerSpec | None = None  # a cpu or offcpu profile's; pid_mode set at start
    observer: ContainerSpec | None = None  # pid_mode and network_mode: the server's, at start


def runner_name(settings: Settings) -> str:
    """The name a runner claims runs under: C10K_RUNNER_ID, or the host's name."""
    return settings.runner_id or socket.gethostname()


def _store_of(settings: Settings) -> str:
    return str(settings.db_path.resolve()) if settings.store_is_file else settings.database_url


def store_label(settings: Settings) -> str:
    """The label on every container one runner starts for one store: it removes those it
    left behind, and only those (runners scaled on one engine each have their own)."""
    return hashlib.sha256(f"{_store_of(settings)} {runner_name(settings)}".encode()).hexdigest()[
        :12
    ]


# The label on an image of an edited server: which deployment (store) built it, so one
# deployment prunes its own and never another's on a shared engine.
DEPLOYMENT_LABEL = "c10klab.deployment"


def deployment_label(settings: Settings) -> str:
    """The same for every runner of one deployment (its store), different between them."""
    return hashlib.sha256(_store_of(settings).encode()).hexdigest()[:12]


def _value(value: int | str | bool) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


def server_argv(server: Server, request: RunRequest) -> list[str]:
    argv = [*server.command, "--port", str(SERVER_PORT), "--protocol", request.protocol]
    flags = {k.name: k.flag for k in server.knobs}
    for name, value in sorted(request.knobs.items()):
        argv += [flags[name], _value(value)]
    return argv


def loadgen_argv(request: RunRequest, threads: int) -> list[str]:
    argv = [
        "--host",
        "127.0.0.1",
        "--port",
        str(SERVER_PORT),
        "--protocol",
        request.protocol,
        "--connections",
        str(request.connections),
        "--payload-bytes",
        str(request.payload_bytes),
        "--duration-s",
        f"{request.duration_s:g}",
        "--warmup-s",
        f"{request.warmup_s:g}",
        "--threads",
        str(threads),
        "--wait-ready-s",
        str(WAIT_READY_S),
        # The cheaper engine: an epoll client pays about what an epoll server pays per round
        # trip, and would be the bottleneck against the fast servers. Where io_uring is
        # refused, loadgen uses epoll and says why (the result's client.engine_note).
        "--engine",
        "io_uring",
    ]
    if request.rate > 0:
        argv += ["--rate", f"{request.rate:g}"]
    if request.idle_connections > 0:
        argv += ["--idle", str(request.idle_connections)]
    if request.new_connection_per_request:
        argv.append("--new-connection-per-request")
    if request.ramp_s > 0:
        argv += ["--ramp-s", f"{request.ramp_s:g}"]
    return argv


def _locked_down(run_id: str, role: str, settings: Settings) -> ContainerOptions:
    """What every container of a run gets: no capabilities, no privilege gain, read-only root,
    limits on memory, processes and files, and labels so a sweep finds it whatever happened.
    The name carries the runner's label too: a run queued again after its runner was lost may
    be taken by another runner on the same engine while the first one's containers remain."""
    label = store_label(settings)
    return ContainerOptions(
        name=f"c10klab-{run_id[:12]}-{label[:6]}-{role}",
        labels={LABEL: label, "c10klab.run": run_id, "c10klab.role": role},
        cap_drop=["ALL"],
        security_opt=["no-new-privileges"],
        read_only=True,
        user=NOBODY,
        ulimits=[Ulimit(name="nofile", soft=settings.nofile_limit, hard=settings.nofile_limit)],
    )


IO_URING_CALLS = {"io_uring_setup", "io_uring_enter", "io_uring_register"}


def seccomp_option(settings: Settings, io_uring: bool = True) -> str:
    """The profile as Docker's API takes it: the JSON itself, not a path. Without io_uring:
    the same allowlist less its three calls, for learners' edited servers that are not
    io_uring servers (a ring would let their code do what the list forbids)."""
    profile = json.loads((settings.sandboxes_dir / IO_URING_PROFILE).read_text())
    if not io_uring:
        for group in profile["syscalls"]:
            if group.get("action") == "SCMP_ACT_ALLOW":
                group["names"] = [n for n in group["names"] if n not in IO_URING_CALLS]
        profile["syscalls"] = [g for g in profile["syscalls"] if g.get("names")]
    return "seccomp=" + json.dumps(profile, separators=(",", ":"))


# The syscall counter (counter/count-syscalls.sh) needs perf_event_open on another user's
# processes: CAP_PERFMON, or on engines that predate that name (Docker < 23),
# CAP_SYS_ADMIN, which covers it. It holds nothing else: no network, a read-only root, and
# it runs one fixed command, never code from a request. The server, beside it in the same
# PID namespace, stays as bare as ever (nobody, no capabilities): it cannot touch a root
# process. The host's tracefs, read-only, is where perf reads the tracepoints' ids.
COUNTER_CAPABILITIES = ["PERFMON"]
BEFORE_PERFMON = "SYS_ADMIN"
TRACEFS = "/sys/kernel/tracing"


def watcher_cpus(settings: Settings) -> str:
    """Where the containers that watch a run (the counter, the observer) run: the host's spare
    CPUs when it has any, else the load generator's (never the server's)."""
    return spare_cpuset(settings) or settings.loadgen_cpus


def counter_spec(run_id: str, settings: Settings, names: list[str]) -> ContainerSpec:
    """The counter that joins the server's PID namespace (set at start) and counts `names`."""
    locked = _locked_down(run_id, "counter", settings)
    return ContainerSpec(
        image=COUNTER_IMAGE,
        command=names,
        kwargs=locked
        | ContainerOptions(
            user="0:0",
            cap_add=COUNTER_CAPABILITIES,
            mounts=[Mount(target=TRACEFS, source=TRACEFS, type="bind", read_only=True)],
            network_mode="none",
            # perf wakes every 250 ms to print: off the server's CPUs, and off the measured
            # ones where the host has others
            cpuset_cpus=watcher_cpus(settings),
            mem_limit="256m",
            memswap_limit="256m",
            pids_limit=8,
        ),
    )


# The stack profiler (counter/profile-stacks.sh) records with perf like the counter, and
# names frames: CAP_SYSLOG reads the kernel's symbol addresses (/proc/kallsyms, which this
# host's kptr_restrict and perf_event_paranoid hide from others), CAP_SYS_PTRACE reads the
# server's maps and mapped files (/proc/PID/maps and /proc/PID/root: the server runs as
# another user), CAP_CHOWN, CAP_FOWNER and CAP_DAC_OVERRIDE hand those copies to the
# unprivileged user that parses them, and CAP_SETUID, CAP_SETGID and CAP_SETPCAP let the
# script become that user with no capability left (setpriv) before perf reads a single file
# of the server's. Names leave the container, never addresses (runner/stacks.py checks).
PROFILER_CAPABILITIES = [
    *COUNTER_CAPABILITIES,
    "SYSLOG",
    "SYS_PTRACE",
    "CHOWN",
    "FOWNER",
    "DAC_OVERRIDE",
    "SETUID",
    "SETGID",
    "SETPCAP",
]
PROFILE_FREQUENCY_HZ = 499  # not 500: off the kernel's own timers, which would alias
# perf.data and the copies of the server's files live in the profiler's /tmp, which its
# memory limit counts: an offcpu recording of a thread-per-connection server writes ~6 MB a
# second (sched_switch with stacks), so a long run's needs room.
PROFILER_TMPFS = "512m"
PROFILER_MEMORY = "1g"


def profiler_spec(run_id: str, settings: Settings, mode: str) -> ContainerSpec:
    """The stack profiler that joins the server's PID namespace (set at start)."""
    locked = _locked_down(run_id, "profiler", settings)
    if mode == "offcpu":  # sched:sched_switch is a tracepoint: perf reads its id there
        locked["mounts"] = [Mount(target=TRACEFS, source=TRACEFS, type="bind", read_only=True)]
    return ContainerSpec(
        image=COUNTER_IMAGE,
        command=[mode, str(PROFILE_FREQUENCY_HZ), settings.server_cpus],
        kwargs=locked
        | ContainerOptions(
            user="0:0",
            entrypoint=["/usr/local/bin/profile-stacks"],
            cap_add=PROFILER_CAPABILITIES,
            tmpfs={"/tmp": f"size={PROFILER_TMPFS},mode=1777"},
            network_mode="none",
            cpuset_cpus=watcher_cpus(settings),
            mem_limit=PROFILER_MEMORY,
            memswap_limit=PROFILER_MEMORY,
            pids_limit=32,
        ),
    )


# The server's shell ends it at the deadline: SIGTERM to PID 1 (every server stops on it), then
# SIGKILL to everything else of the container's user (`kill -1` spares PID 1 and the caller: a
# forking server's children). The load generator and a syscall counter live in the server's pid
# namespace, so they end with it.
SELF_DEADLINE_AFTER_S = 15
SELF_DESTRUCT = "kill -TERM 1; sleep 3; kill -KILL -1 2>/dev/null; true"
NS_PER_S = 1_000_000_000


def self_deadline(seconds: float) -> ContainerOptions:
    """A container that ends by itself `seconds` after it started, with no runner needed:
    Docker runs a health check's first probe one `interval` after the start, so a check
    whose probe stops the container is a deadline the engine keeps, even if the runner that
    started it was killed. Until then it costs nothing (no probe runs)."""
    return ContainerOptions(
        healthcheck=Healthcheck(
            test=["CMD", "/bin/sh", "-c", SELF_DESTRUCT],
            interval=int(seconds * NS_PER_S),
            timeout=10 * NS_PER_S,
            retries=1,
        )
    )


def variant_hardening(server: Server, settings: Settings) -> ContainerOptions:
    """What a learner's edited server gets beyond an original's: always our seccomp allowlist
    (ptrace, namespaces, mounts refused), io_uring in it only for variants of io_uring servers,
    and a capped log."""
    return ContainerOptions(
        security_opt=[
            "no-new-privileges",
            seccomp_option(settings, io_uring=server.needs_io_uring),
        ],
        log_config=VARIANT_LOG,
    )


# Processes and threads a per-connection server may hold beyond one per connection: its own,
# and children that have exited but are not yet reaped.
PIDS_HEADROOM = 100


def pids_limit(server: Server, request: RunRequest) -> int:
    """The server container's process/thread limit for this request: the catalog's, or, for a
    process or thread per connection, what the request's connections need (issue 23.10: a
    fork bomb in an edited c-forking held 5,100 of the host's processes at any load)."""
    if not server.limits.pids_per_connection:
        return server.limits.pids
    connections = request.connections + request.idle_connections
    return min(server.limits.pids, connections + PIDS_HEADROOM)


# Beside a variant's server in its image: the same file built with AddressSanitizer and
# UBSan (build-variant.sh), which the correctness check runs.
SANITIZED_SUFFIX = ".sanitized"
# How the sanitized build runs in a server's container. LeakSanitizer stops the process the
# way a debugger does, which the container forbids, and a server's leaks are not the check's
# business; the quarantine (freed memory kept poisoned to catch a late use) is cut from 256
# MiB so that it fits the server's memory limit, and still holds a connection freed
# moments ago.
SANITIZER_ENVIRONMENT = {
    "ASAN_OPTIONS": "detect_leaks=0:quarantine_size_mb=32:malloc_context_size=8",
    "UBSAN_OPTIONS": "print_stacktrace=1",
}


def sanitized(path: str) -> str:
    """Where a variant image keeps the sanitized build of the server at `path`."""
    return path + SANITIZED_SUFFIX


def server_container(
    server: Server,
    image: str,
    request: RunRequest,
    hardening: ContainerOptions,
    deadline_s: float,
    settings: Settings,
) -> ContainerSpec:
    """A server's container, a benchmark's or a check's: on the server's CPUs, within its
    memory and process limits, with no network but its own loopback."""
    memory = f"{settings.server_memory_mb}m"
    return ContainerSpec(
        image=image,
        command=server_argv(server, request),
        kwargs=hardening
        | ContainerOptions(
            cpuset_cpus=settings.server_cpus,
            mem_limit=memory,
            memswap_limit=memory,
            pids_limit=pids_limit(server, request),
            # Only loopback: the load generator joins this namespace, nothing else is reachable.
            network_mode="none",
        )
        # Later than the runner's own deadline, whose stop says why: this one is for when no
        # runner is left to stop it.
        | self_deadline(deadline_s + SELF_DEADLINE_AFTER_S),
    )


def plan_run(
    run_id: str,
    server: Server,
    request: RunRequest,
    settings: Settings,
    variant_image: str | None = None,
) -> RunPlan:
    """The containers of one run; with `variant_image`, the server is that learner's build."""
    deadline = (
        WAIT_READY_S + request.ramp_s + request.warmup_s + request.duration_s + DEADLINE_SLACK_S
    )
    hardening = _locked_down(run_id, "server", settings)
    if server.needs_io_uring:
        hardening["security_opt"] = [*hardening.get("security_opt", []), seccomp_option(settings)]
    if variant_image:
        hardening |= variant_hardening(server, settings)
    image = variant_image or server.image
    server_spec = server_container(server, image, request, hardening, deadline, settings)
    loadgen_spec = loadgen_container(
        run_id,
        "loadgen",
        loadgen_argv(request, threads=len(parse_cpus(settings.loadgen_cpus))),
        settings,
        deadline,
    )
    counter = profiler = None
    if request.profile == "syscalls":
        counter = counter_spec(run_id, settings, counter_args())
    elif request.profile in ("cpu", "offcpu"):
        profiler = profiler_spec(run_id, settings, request.profile)
    return RunPlan(
        server_spec,
        loadgen_spec,
        deadline,
        counter=counter,
        profiler=profiler,
        observer=observer_spec(run_id, settings),
    )


def loadgen_container(
    run_id: str, role: str, command: list[str], settings: Settings, deadline_s: float
) -> ContainerSpec:
    """The load generator: in the server's network namespace only (set at start), with a pid
    namespace of its own, as the measurer's user, on its own CPUs."""
    locked = _locked_down(run_id, role, settings)
    memory = f"{settings.loadgen_memory_mb}m"
    return ContainerSpec(
        image=LOADGEN_IMAGE,
        command=command,
        kwargs=locked
        | ContainerOptions(
            user=MEASURER,
            # Its io_uring engine needs what Docker >= 25 blocks by default: the servers' profile.
            security_opt=[*locked.get("security_opt", []), seccomp_option(settings)],
            cpuset_cpus=settings.loadgen_cpus,
            mem_limit=memory,
            memswap_limit=memory,
            pids_limit=64,
        )
        # It no longer ends with the server's pid namespace: its own deadline.
        | self_deadline(deadline_s + SELF_DEADLINE_AFTER_S),
    )


def observer_spec(run_id: str, settings: Settings) -> ContainerSpec:
    """The observer (sandboxes/loadgen/src/observe.rs): it joins the server's pid and network
    namespaces (set at start) as the measurer's user, and counts the server's processes and
    the traffic that crossed its network namespace. It runs nothing of the learner's."""
    locked = _locked_down(run_id, "observer", settings)
    return ContainerSpec(
        image=LOADGEN_IMAGE,
        command=["--uid", str(SERVER_UID), "--interval-ms", str(OBSERVE_INTERVAL_MS)],
        kwargs=locked
        | ContainerOptions(
            user=MEASURER,
            entrypoint=["/usr/local/bin/observe"],
            cpuset_cpus=watcher_cpus(settings),
            mem_limit="64m",
            memswap_limit="64m",
            pids_limit=4,
        ),
    )


# --- a learner's edited server: its build, and its correctness check ---------------------------


def model_of(server: Server) -> str:
    """The model name the C Makefile builds c-<model> from: servers/c/epoll.c -> epoll."""
    return Path(server.source).stem


def edited_file(server: Server, file: str | None) -> str:
    """The name of the file a variant edits, as the build sandbox takes it: the server's model
    file (epoll.c), or the shared module `file` (servers/c/protocol.c: protocol.c)."""
    return Path(file or server.source).name


def build_spec(
    run_id: str, model: str, edited: str, source: str, settings: Settings
) -> ContainerSpec:
    """The build sandbox compiling one edited file (`edited`: its name, see edited_file): no
    network, no capabilities, nobody, a read-only root with a small tmpfs, and limits on
    memory, processes, CPU time and output (BUILD_LIMITS; the script caps what it prints). The
    source travels in the environment: the tmpfs it is written to exists only once the
    container runs."""
    limits = BUILD_LIMITS
    locked = _locked_down(run_id, "build", settings)
    return ContainerSpec(
        image=BUILD_IMAGE,
        command=[model, edited],
        kwargs=locked
        | ContainerOptions(
            ulimits=[
                Ulimit(name="nofile", soft=limits.nofile, hard=limits.nofile),
                Ulimit(name="cpu", soft=limits.cpu_s, hard=limits.cpu_s),
            ],
            environment={"C10K_SOURCE_B64": base64.b64encode(source.encode()).decode()},
            tmpfs={"/work": f"size={limits.tmpfs_bytes},mode=1777,nosuid,nodev"},
            network_mode="none",
            cpuset_cpus=settings.loadgen_cpus,
            mem_limit=limits.memory,
            memswap_limit=limits.memory,
            pids_limit=limits.pids,
            log_config=LogConfig(type="json-file", config={"max-size": "32m", "max-file": "1"}),
        )
        | self_deadline(limits.wall_s + SELF_DEADLINE_AFTER_S),
    )


CHECK_WALL_S = 60.0  # loadgen --check bounds itself; this is for a server that hangs it
CHECK_CONNECTIONS = 64  # loadgen --check's most: connections open at once in its checks


def check_plan(
    run_id: str,
    server: Server,
    image: str,
    protocol: Protocol,
    settings: Settings,
    knobs: Knobs | None = None,
) -> RunPlan:
    """A variant's server and the load generator's correctness check beside it, for one
    protocol: the same hardening as a benchmark's containers. The server runs as for a run of
    that protocol, with the run's knobs (an exercise's `--trigger et` must be checked
    edge-triggered: the mistakes it teaches show only there), and the connections the check
    opens. The server checked is the sanitized build: a use after free or an overflow that
    a plain build survives by luck stops it with a report."""
    connections = server.limits.serves_at_once or CHECK_CONNECTIONS
    request = RunRequest(
        server=server.id, protocol=protocol, connections=connections, knobs=knobs or {}
    )
    role = f"check-{protocol}"
    hardening = (
        _locked_down(run_id, f"{role}-server", settings)
        | variant_hardening(server, settings)
        | ContainerOptions(environment=SANITIZER_ENVIRONMENT)
    )
    deadline = CHECK_WALL_S + WAIT_READY_S
    plain = server_container(server, image, request, hardening, deadline, settings)
    program, *flags = plain.command
    server_spec = replace(plain, command=[sanitized(program), *flags])
    command = [
        "--check",
        "--host",
        "127.0.0.1",
        "--port",
        str(SERVER_PORT),
        "--protocol",
        protocol,
        # A server that serves K clients at a time (c-preforked's 4 workers) answers the
        # K+1st only once one closes: the check opens no more than it serves at once.
        "--connections",
        str(connections),
        "--wait-ready-s",
        str(WAIT_READY_S),
    ]
    loadgen_spec = loadgen_container(run_id, f"{role}-loadgen", command, settings, deadline)
    return RunPlan(server_spec, loadgen_spec, deadline)
