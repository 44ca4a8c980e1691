import json

import pytest
from docker.types import Ulimit

from c10klab import config
from c10klab.config import Settings
from c10klab.runner.plan import (
    MEASURER,
    NOBODY,
    PROFILE_FREQUENCY_HZ,
    SELF_DEADLINE_AFTER_S,
    SERVER_PORT,
    check_plan,
    pids_limit,
    plan_run,
    store_label,
)
from c10klab.runs.schemas import RunRequest
from c10klab.sandboxes.schemas import Knob, Limits, Server
from c10klab.sandboxes.service import load_catalog

SERVER = Server(
    id="c-epoll",
    title="epoll",
    model="epoll",
    language="c",
    source="servers/c/epoll.c",
    lesson="01-c10k-problem",
    image="c10klab/server:c-epoll",
    command=["/usr/local/bin/c-epoll"],
    protocols=["echo", "http"],
    knobs=[
        Knob(
            name="trigger",
            label="readiness trigger",
            flag="--trigger",
            type="enum",
            values=["lt", "et"],
            default="lt",
            help="h",
        ),
        Knob(
            name="buffer_bytes",
            label="read buffer",
            flag="--buffer-bytes",
            type="int",
            min=512,
            max=4096,
            default=1024,
            help="h",
        ),
    ],
    limits=Limits(max_connections=100, pids=32),
)
REQUEST = RunRequest(
    server="c-epoll",
    connections=50,
    payload_bytes=64,
    duration_s=5,
    warmup_s=1,
    protocol="http",
    knobs={"trigger": "et", "buffer_bytes": 2048},
)


def asking(**more: object) -> RunRequest:
    """REQUEST with more (or other) fields."""
    return RunRequest.model_validate(REQUEST.model_dump() | more)


def test_argv_comes_from_the_catalog_and_typed_values() -> None:
    plan = plan_run("abc123", SERVER, REQUEST, Settings())
    assert plan.server.command == [
        "/usr/local/bin/c-epoll",
        "--port",
        str(SERVER_PORT),
        "--protocol",
        "http",
        "--buffer-bytes",
        "2048",
        "--trigger",
        "et",
    ]
    assert plan.loadgen.command[plan.loadgen.command.index("--connections") + 1] == "50"
    assert plan.loadgen.image == "c10klab/loadgen:latest"


def test_every_container_is_locked_down_pinned_and_labelled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a 2-CPU host: the observer shares the load generator's CPU (elsewhere, the spare ones)
    monkeypatch.setattr(config, "online_cpus", lambda: {0, 1})
    settings = Settings(server_cpus="0", loadgen_cpus="1", nofile_limit=20000)
    plan = plan_run("abc123", SERVER, REQUEST, settings)
    assert plan.observer is not None
    for spec, cpus in ((plan.server, "0"), (plan.loadgen, "1"), (plan.observer, "1")):
        kw = spec.kwargs
        assert kw["cap_drop"] == ["ALL"] and "privileged" not in kw and "cap_add" not in kw
        assert kw["security_opt"][0] == "no-new-privileges"  # (+ loadgen's io_uring profile)
        assert kw["read_only"] is True and kw["user"] in (NOBODY, MEASURER)
        assert kw["cpuset_cpus"] == cpus
        assert kw["labels"]["c10klab.store"] == store_label(settings)
        assert kw["labels"]["c10klab.run"] == "abc123"
        assert kw["ulimits"] == [Ulimit(name="nofile", soft=20000, hard=20000)]
        assert kw["mem_limit"] == kw["memswap_limit"]
    assert plan.server.kwargs["network_mode"] == "none"
    assert plan.server.kwargs["pids_limit"] == 32


def test_the_deadline_covers_readiness_warmup_and_duration() -> None:
    plan = plan_run("abc123", SERVER, REQUEST, Settings())
    assert 6 < plan.deadline_s <= 6 + 10 + 30


def test_the_server_container_keeps_a_deadline_of_its_own_after_the_runners() -> None:
    plan = plan_run("abc123", SERVER, REQUEST, Settings())
    check = plan.server.kwargs["healthcheck"]
    assert check.interval == (plan.deadline_s + SELF_DEADLINE_AFTER_S) * 1_000_000_000
    test = check.test or []
    assert test[:3] == ["CMD", "/bin/sh", "-c"] and "kill -TERM 1" in test[3]
    # The load generator has a pid namespace of its own: it keeps a deadline of its own too.
    own = plan.loadgen.kwargs["healthcheck"]
    assert own.interval == check.interval and own.test == check.test


def test_only_io_uring_servers_get_the_io_uring_seccomp_profile() -> None:
    settings = Settings()
    plain = plan_run("abc123", SERVER, REQUEST, settings).server.kwargs["security_opt"]
    assert plain == ["no-new-privileges"]
    uring = SERVER.model_copy(update={"needs_io_uring": True})
    options = plan_run("abc123", uring, REQUEST, settings).server.kwargs["security_opt"]
    assert options[0] == "no-new-privileges" and options[1].startswith("seccomp={")
    profile = json.loads(options[1].removeprefix("seccomp="))
    allowed = {
        name
        for rule in profile["syscalls"]
        for name in rule["names"]
        if rule["action"] == "SCMP_ACT_ALLOW"
    }
    assert {"io_uring_setup", "io_uring_enter", "io_uring_register"} <= allowed
    assert profile["defaultAction"] != "SCMP_ACT_ALLOW"


def test_the_load_generator_gets_the_open_loop_idle_short_and_ramp_flags() -> None:
    request = asking(
        rate=25000.0, idle_connections=300, new_connection_per_request=True, ramp_s=2.5
    )
    argv = plan_run("abc123", SERVER, request, Settings()).loadgen.command
    assert "--sample-procs" not in argv  # the observer reads the server's processes
    assert argv[argv.index("--rate") + 1] == "25000"
    assert argv[argv.index("--idle") + 1] == "300"
    assert "--new-connection-per-request" in argv
    assert argv[argv.index("--ramp-s") + 1] == "2.5"
    closed = plan_run("abc123", SERVER, REQUEST, Settings()).loadgen.command
    assert not {"--rate", "--idle", "--new-connection-per-request", "--ramp-s"} & set(closed)


def test_the_load_generator_uses_its_io_uring_engine_under_the_io_uring_profile() -> None:
    loadgen = plan_run("abc123", SERVER, REQUEST, Settings()).loadgen
    assert loadgen.command[loadgen.command.index("--engine") + 1] == "io_uring"
    options = loadgen.kwargs["security_opt"]
    assert options[0] == "no-new-privileges" and options[1].startswith("seccomp={")
    assert loadgen.kwargs["cap_drop"] == ["ALL"] and loadgen.kwargs["user"] == MEASURER


def test_the_measurer_is_another_user_than_the_server_and_joins_no_pid_namespace() -> None:
    settings = Settings()
    for plan in (
        plan_run("abc123", SERVER, REQUEST, settings),
        check_plan("abc123", SERVER, "c10klab/variant:x", "echo", settings),
    ):
        assert plan.server.kwargs["user"] == NOBODY
        assert plan.loadgen.kwargs["user"] == MEASURER != NOBODY
        # Namespaces are joined at start (worker.py): the load generator only the network's.
        assert "pid_mode" not in plan.loadgen.kwargs and "network_mode" not in plan.loadgen.kwargs
    observer = plan_run("abc123", SERVER, REQUEST, settings).observer
    assert observer is not None and observer.kwargs["user"] == MEASURER
    assert observer.kwargs["entrypoint"] == ["/usr/local/bin/observe"]
    assert observer.command[observer.command.index("--uid") + 1] == NOBODY.split(":")[0]


def test_a_syscall_profile_counts_beside_the_server_which_runs_as_always() -> None:
    plain = plan_run("abc123", SERVER, REQUEST, Settings())
    counted = plan_run("abc123", SERVER, asking(profile="syscalls"), Settings())
    assert plain.counter is None
    assert counted.server == plain.server  # no wrapper, no ptrace: the server at full speed
    assert counted.counter is not None
    counter = counted.counter.kwargs
    assert (
        counted.counter.command[:2] == ["read", "write"] and "--errors" in counted.counter.command
    )
    # perf's one capability (or its older, wider name), and nothing else of root's
    assert counter["cap_drop"] == ["ALL"] and counter["cap_add"] == ["PERFMON"]
    assert counter["read_only"] and counter["network_mode"] == "none"
    assert counter["security_opt"] == ["no-new-privileges"]
    tracefs = counter["mounts"][0]
    assert tracefs["Source"] == "/sys/kernel/tracing" and tracefs["ReadOnly"] is True
    assert counter["labels"]["c10klab.role"] == "counter"


@pytest.mark.parametrize("mode", ["cpu", "offcpu"])
def test_a_stack_profile_records_beside_the_server_with_what_naming_frames_needs(
    mode: str,
) -> None:
    plain = plan_run("abc123", SERVER, REQUEST, Settings())
    profiled = plan_run("abc123", SERVER, asking(profile=mode), Settings())
    assert profiled.server == plain.server and profiled.counter is None
    assert profiled.profiler is not None and plain.profiler is None
    options = profiled.profiler.kwargs
    # the server's CPUs, not its processes: a thread or process per request is sampled too
    assert profiled.profiler.command == [mode, str(PROFILE_FREQUENCY_HZ), Settings().server_cpus]
    assert options["entrypoint"] == ["/usr/local/bin/profile-stacks"]
    # perf's capability, the kernel's symbols, the server's files, and the means to drop
    # them all before a file of the server's is parsed; nothing else of root's
    assert options["cap_drop"] == ["ALL"]
    assert set(options["cap_add"]) == {
        "PERFMON", "SYSLOG", "SYS_PTRACE", "CHOWN", "FOWNER", "DAC_OVERRIDE", "SETUID",
        "SETGID", "SETPCAP",
    }  # fmt: skip
    assert options["read_only"] and options["network_mode"] == "none"
    assert options["security_opt"] == ["no-new-privileges"]
    # the scheduler's tracepoint needs the tracefs; cpu-clock samples need nothing mounted
    mounts = [m["Source"] for m in options.get("mounts", [])]
    assert mounts == (["/sys/kernel/tracing"] if mode == "offcpu" else [])
    assert options["labels"]["c10klab.role"] == "profiler"


def test_a_server_with_a_process_per_connection_may_hold_what_its_request_needs() -> None:
    """Issue 23.10: a fork bomb in an edited c-forking held 5,100 host processes at any load."""
    catalog = load_catalog(Settings().sandboxes_dir)
    forking, threaded, epoll = (catalog.get(s) for s in ("c-forking", "c-threaded", "c-epoll"))
    assert forking is not None and threaded is not None and epoll is not None

    def asks(connections: int, idle: int = 0) -> RunRequest:
        return RunRequest(server="c-forking", connections=connections, idle_connections=idle)

    assert pids_limit(forking, asks(10)) == 110
    assert pids_limit(threaded, asks(1000, 2000)) == 3100
    assert pids_limit(forking, asks(5000, 1000)) == 5100  # most
    assert pids_limit(epoll, asks(10)) == epoll.limits.pids  # a fixed count
    plan = plan_run("abc123", forking, asking(connections=50, knobs={}), Settings())
    assert plan.server.kwargs["pids_limit"] == 150


def test_a_check_runs_the_server_with_the_runs_knobs_or_none() -> None:
    """An exercise's edge-triggered server is checked edge-triggered: a read-once mistake
    passes every check of a level-triggered one."""
    settings = Settings()
    plain = check_plan("abc123", SERVER, "c10klab/variant:x", "echo", settings)
    knobbed = check_plan("abc123", SERVER, "c10klab/variant:x", "echo", settings, {"trigger": "et"})
    assert "--trigger" not in plain.server.command
    command = knobbed.server.command
    assert command[command.index("--trigger") + 1] == "et"
