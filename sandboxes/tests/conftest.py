"""The conformance suite: every server in catalog.json must pass the same tests.

Which servers: every catalog entry, found by language --
    "c"     servers/c/build/<id>              (servers/c/build/asan/<id> in the asan build)
    "rust"  servers/rust/target/release/<id>  (in the asan build too: they have no sanitizer
            build, so that run tests them as they are built)
An entry whose binary is missing FAILS ("build it with: make servers"); to work on a few
servers only, name them:  C10K_ONLY=c-epoll,c-poll  (or --only=c-epoll,c-poll).

Which knobs: each test runs once per *variant* of each server --
    default       the catalog defaults
    <enum>=<v>    each enum value other than the default (c-epoll: --trigger et)
    <bool>=<v>    the other value of a bool knob (on/off)
    <bytes>=min   the smallest value of each int knob measured in bytes (--buffer-bytes 512:
                  many short reads). Int knobs counting workers or threads are not varied:
                  they change how many clients the server serves at once, which the tests
                  take from the catalog's limits.
Heavy tests (8 MiB payloads, 1000 connections, wrk, the idle-CPU and memory checks, signals,
flags) are marked @pytest.mark.default_knobs and run on the default variant only.
A model-specific test can be restricted to some servers with @pytest.mark.servers("c-select").

How many clients at once: limits.serves_at_once (c-iterative: 1; c-preforked: its workers),
or limits.max_connections when it serves them all. A test never holds open more connections
that need serving than that (more would wait in the listen queue, which is correct behaviour
for those servers, not a failure).

Every server is started in its own session (setsid). When a test ends it is sent SIGTERM and
must exit 0 within 2 s with no process of its session left (forked children included); in
the asan build its stderr must also hold no sanitizer report.

Choosing the build:
    C10K_SERVER_BUILD=release|asan  or --server-build=release|asan  (default release)
    --smoke: only the tests marked smoke, on each C server's default variant (make test runs
             the whole suite once, on the asan build, and the release build's smoke beside it)
    C10K_BUILD_DIR=DIR              or --server-build-dir=DIR       (default servers/c/build)
    C10K_RUST_TARGET_DIR=DIR        or --rust-target-dir=DIR  (default servers/rust/target/release)
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import resource
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

SANDBOXES = Path(__file__).resolve().parent.parent
CATALOG = json.loads((SANDBOXES / "catalog.json").read_text())
ServerEntry = dict[str, Any]  # one object of catalog.json's "servers" list

ALL_SERVERS: list[ServerEntry] = CATALOG["servers"]
C_SERVERS: list[ServerEntry] = [s for s in ALL_SERVERS if s["language"] == "c"]
ASAN_LANGUAGES = {"c"}  # languages that have an AddressSanitizer build

PORT_RANGE = (15000, 19999)
READY_TIMEOUT_S = 20.0  # the asan build on a busy machine can be slow to start
STOP_TIMEOUT_S = 2.0  # the contract: SIGTERM -> exit 0 within 2 s, no process left
SANITIZER_REPORT = re.compile(
    r"ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|SUMMARY: \w+Sanitizer"
)
SANITIZER_ENV = {
    "ASAN_OPTIONS": "detect_leaks=1:quarantine_size_mb=32:abort_on_error=0",
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("c10k", "C10K Lab server conformance")
    group.addoption(
        "--server-build",
        choices=["release", "asan"],
        default=os.environ.get("C10K_SERVER_BUILD", "release"),
        help="which build of the servers to test (env C10K_SERVER_BUILD)",
    )
    group.addoption(
        "--server-build-dir",
        default=os.environ.get("C10K_BUILD_DIR", str(SANDBOXES / "servers" / "c" / "build")),
        help="the C Makefile's build/ directory (env C10K_BUILD_DIR)",
    )
    group.addoption(
        "--rust-target-dir",
        default=os.environ.get(
            "C10K_RUST_TARGET_DIR", str(SANDBOXES / "servers" / "rust" / "target" / "release")
        ),
        help="where cargo put the Rust servers (env C10K_RUST_TARGET_DIR)",
    )
    group.addoption(
        "--smoke",
        action="store_true",
        help="only the smoke tests, on each C server's default variant",
    )
    group.addoption(
        "--only",
        default=os.environ.get("C10K_ONLY", ""),
        help="comma-separated server ids to test, e.g. c-epoll,c-poll (env C10K_ONLY)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "default_knobs: run on each server's default variant only (heavy tests)"
    )
    config.addinivalue_line(
        "markers", "servers(*ids): run only for these server ids (model-specific tests)"
    )
    config.addinivalue_line(
        "markers", "smoke: one of the few tests --smoke runs (a build's basic health)"
    )
    known = {s["id"] for s in ALL_SERVERS}
    unknown = set(only_ids(config)) - known
    if unknown:
        raise pytest.UsageError(
            f"C10K_ONLY / --only names servers not in catalog.json: {', '.join(sorted(unknown))}"
        )


def only_ids(config: pytest.Config) -> list[str]:
    return [i.strip() for i in str(config.getoption("--only")).split(",") if i.strip()]


def selected_servers(config: pytest.Config) -> list[ServerEntry]:
    """Catalog entries under test (all of them unless C10K_ONLY names some)."""
    only = only_ids(config)
    return [s for s in ALL_SERVERS if not only or s["id"] in only]


def runnable_servers(config: pytest.Config) -> list[ServerEntry]:
    """Selected entries this run tests: all of them, or for --smoke the C ones (the smoke is
    of a C build; the Rust servers have one build, tested whole beside the asan one)."""
    smoke = config.getoption("--smoke")
    return [s for s in selected_servers(config) if not smoke or s["language"] in ASAN_LANGUAGES]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """--smoke keeps only the smoke tests."""
    if not config.getoption("--smoke"):
        return
    kept = [item for item in items if item.get_closest_marker("smoke")]
    config.hook.pytest_deselected(items=[item for item in items if item not in kept])
    items[:] = kept


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Say at the end (even with -q) which servers this run did not test."""
    build = config.getoption("--server-build")
    left_out = [s["id"] for s in selected_servers(config) if s not in runnable_servers(config)]
    if left_out:
        terminalreporter.write_line(f"not in the {build} build's smoke: {', '.join(left_out)}")
    if only_ids(config):
        terminalreporter.write_line(f"C10K_ONLY: tested only {', '.join(only_ids(config))}")


def pytest_report_header(config: pytest.Config) -> list[str]:
    build = config.getoption("--server-build")
    lines = [
        f"servers: {build} build; C from {config.getoption('--server-build-dir')}"
        + ("/asan" if build == "asan" else "")
        + f", Rust from {config.getoption('--rust-target-dir')}",
        "testing: " + ", ".join(s["id"] for s in runnable_servers(config)),
    ]
    left_out = [s["id"] for s in selected_servers(config) if s not in runnable_servers(config)]
    if left_out:
        lines.append(f"not in the smoke (one build, tested whole): {', '.join(left_out)}")
    if only_ids(config):
        lines.append(f"C10K_ONLY: {', '.join(only_ids(config))} (the other servers are untested)")
    return lines


@dataclass(frozen=True)
class Variant:
    """One way of running one server: its catalog entry plus the knob flags it is started with."""

    server: ServerEntry
    knob_args: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return str(self.server["id"])

    @property
    def language(self) -> str:
        return str(self.server["language"])

    @property
    def is_default(self) -> bool:
        return not self.knob_args

    @property
    def label(self) -> str:
        return self.id + "".join(f"[{f.lstrip('-')}={v}]" for f, v in pairs(self.knob_args))

    @property
    def concurrency(self) -> int:
        """How many connections it serves at the same time (the rest wait to be accepted).

        Only knobs that do not change this are ever varied (see variants_of).
        """
        limits = self.server["limits"]
        return int(limits.get("serves_at_once") or limits["max_connections"])


def pairs(args: tuple[str, ...]) -> list[tuple[str, str]]:
    return list(zip(args[::2], args[1::2], strict=True))


def knob_text(value: object) -> str:
    """A knob value as the command line (and the start-up line) spells it."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def variants_of(server: ServerEntry) -> list[Variant]:
    found = [Variant(server)]
    for knob in server["knobs"]:
        if knob["type"] == "enum":
            for value in knob["values"]:
                if value != knob["default"]:
                    found.append(Variant(server, (knob["flag"], value)))
        elif knob["type"] == "bool":
            found.append(Variant(server, (knob["flag"], knob_text(not knob["default"]))))
        elif knob.get("unit") == "bytes" and knob.get("min") not in (None, knob["default"]):
            found.append(Variant(server, (knob["flag"], str(knob["min"]))))
    return found


def servers_for(metafunc: pytest.Metafunc, entries: list[ServerEntry]) -> list[ServerEntry]:
    marker = metafunc.definition.get_closest_marker("servers")
    if marker is None:
        return entries
    return [s for s in entries if s["id"] in marker.args]


def parametrize(metafunc: pytest.Metafunc, name: str, values: list[Any], ids: list[str]) -> None:
    """metafunc.parametrize, saying why when no server is left to run the test on."""
    if values:
        metafunc.parametrize(name, values, ids=ids)
        return
    marker = metafunc.definition.get_closest_marker("servers")
    wanted = ", ".join(marker.args) if marker else "any server"
    build = metafunc.config.getoption("--server-build")
    reason = f"{wanted}: not in this run ({build} build"
    reason += (
        f", C10K_ONLY={','.join(only_ids(metafunc.config))})" if only_ids(metafunc.config) else ")"
    )
    metafunc.parametrize(
        name, [pytest.param(None, marks=pytest.mark.skip(reason=reason))], ids=["-"]
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    config = metafunc.config
    if "variant" in metafunc.fixturenames:
        found = [v for s in servers_for(metafunc, runnable_servers(config)) for v in variants_of(s)]
        if metafunc.definition.get_closest_marker("default_knobs") or config.getoption("--smoke"):
            found = [v for v in found if v.is_default]
        parametrize(metafunc, "variant", found, [v.label for v in found])
    elif "server_entry" in metafunc.fixturenames:
        entries = servers_for(metafunc, selected_servers(config))
        parametrize(metafunc, "server_entry", entries, [s["id"] for s in entries])
    elif "c_server" in metafunc.fixturenames:  # kept for model-specific tests written against it
        entries = [s for s in servers_for(metafunc, selected_servers(config)) if s in C_SERVERS]
        parametrize(metafunc, "c_server", entries, [s["id"] for s in entries])


@pytest.fixture(scope="session", autouse=True)
def raise_fd_limit() -> None:
    """1000 concurrent connections need more than the usual 1024 file descriptors."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


@pytest.fixture(scope="session")
def build(pytestconfig: pytest.Config) -> str:
    return str(pytestconfig.getoption("--server-build"))


def binary_path(config: pytest.Config, server: ServerEntry | str) -> Path:
    """Where this build's binary of a server is; fails the test if it has not been built."""
    if isinstance(server, str):  # an id, as older callers pass it
        server = next(s for s in ALL_SERVERS if s["id"] == server)
    asan = config.getoption("--server-build") == "asan"
    server_id = str(server["id"])
    if server["language"] == "c":
        build_dir = Path(config.getoption("--server-build-dir"))
        path = (build_dir / "asan" if asan else build_dir) / server_id
        how = "make servers-asan" if asan else "make servers"
    elif server["language"] == "rust":  # one build, whichever build is asked for
        path = Path(config.getoption("--rust-target-dir")) / server_id
        how = "make servers"
    else:
        pytest.fail(f"{server['id']}: no rule for finding {server['language']} binaries")
    if not path.is_file():
        pytest.fail(
            f"{server['id']}: {path} not found: build it with: {how}"
            " (or leave it out with C10K_ONLY=<ids to test>)",
            pytrace=False,
        )
    return path


@pytest.fixture
def binary(pytestconfig: pytest.Config, variant: Variant) -> Path:
    return binary_path(pytestconfig, variant.server)


def pick_port() -> int:
    """A port in 15000-19999 that nothing is bound to right now."""
    for _ in range(200):
        port = random.randint(*PORT_RANGE)
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(("0.0.0.0", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 15000-19999")


@dataclass(frozen=True)
class ProcInfo:
    pid: int
    comm: str
    state: str
    ppid: int
    session: int
    utime_s: float  # this process and all its threads, living or exited
    children_time_s: float  # its children that exited and were waited for
    rss_bytes: int


def read_proc(pid: int) -> ProcInfo | None:
    """One process's line of /proc/<pid>/stat, or None if it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    comm = stat[stat.index("(") + 1 : stat.rindex(")")]
    fields = stat[stat.rindex(")") + 2 :].split()
    # fields[0] is field 3 of proc(5): state, ppid, pgrp, session, ... utime (14), stime,
    # cutime, cstime, ... rss (24, in pages)
    tick = os.sysconf("SC_CLK_TCK")
    return ProcInfo(
        pid=pid,
        comm=comm,
        state=fields[0],
        ppid=int(fields[1]),
        session=int(fields[3]),
        utime_s=(int(fields[11]) + int(fields[12])) / tick,
        children_time_s=(int(fields[13]) + int(fields[14])) / tick,
        rss_bytes=int(fields[21]) * os.sysconf("SC_PAGE_SIZE"),
    )


def session_members(session: int) -> list[ProcInfo]:
    """Every living process (not zombie) of a session: the server and what it forked."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            info = read_proc(int(entry.name))
            if info and info.session == session and info.state not in ("Z", "X"):
                found.append(info)
    return found


@dataclass
class Server:
    """A server binary running as a child process in its own session, stderr captured to a file."""

    binary: Path
    args: list[str]
    log_path: Path
    sanitized: bool
    port: int = 0
    stopped: bool = False
    _proc: subprocess.Popen[bytes] | None = None

    @property
    def proc(self) -> subprocess.Popen[bytes]:
        assert self._proc is not None, "server not started"
        return self._proc

    def start(self) -> None:
        for _attempt in range(5):
            self.port = pick_port()
            env = {**os.environ, **SANITIZER_ENV}
            with open(self.log_path, "wb") as log:
                self._proc = subprocess.Popen(
                    [str(self.binary), "--port", str(self.port), *self.args],
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    env=env,
                    start_new_session=True,  # its session id is its pid: see processes()
                )
            if self._wait_ready():
                return
            # Someone took the port between our probe and the server's bind(): try another.
        pytest.fail(f"could not start {self.binary.name}: {self.stderr()}")

    def _wait_ready(self) -> bool:
        deadline = time.monotonic() + READY_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.kill_leftovers()
                if "Address already in use" in self.stderr():
                    return False
                pytest.fail(
                    f"{self.binary.name} exited with {self.proc.returncode}:\n{self.stderr()}"
                )
            # Ready means listening AND done starting: every server prints its start-up line
            # last (after forking its workers, or starting its threads), so tests that count
            # processes or read the log see the finished server, not one half-way up.
            if self._started() and self._accepts():
                return True
            time.sleep(0.05)
        self.kill_leftovers()
        pytest.fail(
            f"{self.binary.name} did not listen within {READY_TIMEOUT_S} s:\n{self.stderr()}"
        )

    def _started(self) -> bool:
        return f"listening on 0.0.0.0:{self.port} " in self.stderr()

    def _accepts(self) -> bool:
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=1.0).close()
            return True
        except OSError:
            return False

    def stderr(self) -> str:
        return self.log_path.read_text(errors="replace")

    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def processes(self) -> list[ProcInfo]:
        """The server and every process it started (they share its session)."""
        return session_members(self.proc.pid)

    def rss_bytes(self) -> int:
        """Resident memory of the server and its child processes (threads share theirs)."""
        return sum(p.rss_bytes for p in self.processes())

    def cpu_seconds(self) -> float:
        """User + system CPU time used so far by the server, its threads and its children."""
        leader = read_proc(self.proc.pid)
        reaped = leader.children_time_s if leader else 0.0
        return reaped + sum(p.utime_s for p in self.processes())

    def kill_leftovers(self) -> list[ProcInfo]:
        """SIGKILL whatever of the server's session still runs; returns what was there."""
        if self._proc is None:
            return []
        left = self.processes()
        for p in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(p.pid, signal.SIGKILL)
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()
        if self._proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=10)
        return left

    def stop(self, sig: signal.Signals = signal.SIGTERM) -> None:
        """Signal the server and hold it to the contract: exit 0 within 2 s, no process of its
        session left, no sanitizer report."""
        if self.stopped or self._proc is None:
            return
        self.stopped = True
        if self.proc.poll() is not None:
            self.kill_leftovers()
            pytest.fail(
                f"server died during the test (exit {self.proc.returncode}):\n{self.stderr()}"
            )
        deadline = time.monotonic() + STOP_TIMEOUT_S
        self.proc.send_signal(sig)
        try:
            code = self.proc.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.kill_leftovers()
            pytest.fail(
                f"server still running {STOP_TIMEOUT_S} s after {sig.name}:\n{self.stderr()}"
            )
        # Its children may take a moment to follow it out, but no longer than the same 2 s.
        while self.processes() and time.monotonic() < deadline:
            time.sleep(0.02)
        left = self.kill_leftovers()
        log = self.stderr()
        assert not left, (
            f"{STOP_TIMEOUT_S} s after {sig.name} the server exited but left processes behind: "
            + ", ".join(f"pid {p.pid} ({p.comm}, state {p.state}, ppid {p.ppid})" for p in left)
            + f"\n{log}"
        )
        assert code == 0, f"exit status {code} after {sig.name}:\n{log}"
        if self.sanitized:
            assert not SANITIZER_REPORT.search(log), f"sanitizer report:\n{log}"


StartServer = Callable[..., Server]


@pytest.fixture
def start_server(
    variant: Variant, binary: Path, build: str, tmp_path: Path
) -> Iterator[StartServer]:
    """start_server(protocol="echo", extra=[...]) -> a running Server; stopped after the test."""
    servers: list[Server] = []

    def start(protocol: str = "echo", extra: list[str] | None = None) -> Server:
        args = ["--protocol", protocol, *variant.knob_args, *(extra or [])]
        sanitized = build == "asan" and variant.language in ASAN_LANGUAGES
        server = Server(binary, args, tmp_path / f"server-{len(servers)}.log", sanitized)
        servers.append(server)
        server.start()
        return server

    yield start
    try:
        for server in servers:
            server.stop()
    finally:
        for server in servers:  # after a failed stop, the others must not outlive the test
            server.kill_leftovers()


@pytest.fixture
def echo_server(start_server: StartServer) -> Server:
    return start_server("echo")


@pytest.fixture
def http_server(start_server: StartServer) -> Server:
    return start_server("http")


@pytest.fixture
def rng(request: pytest.FixtureRequest) -> random.Random:
    """Random, but the same for every run of the same test: failures can be replayed."""
    return random.Random(request.node.nodeid)
