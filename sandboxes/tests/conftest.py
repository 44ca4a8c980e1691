"""The conformance suite: every C server in catalog.json must pass the same tests.

Each test runs against every catalog entry with "language": "c", once with its defaults
and once per other value of each enum knob (c-epoll: --trigger et), plus once with the
smallest --buffer-bytes, which forces many short reads. The binaries come from
`make -C sandboxes/servers/c` (and `make ... asan`).

Choosing the build:
    C10K_SERVER_BUILD=release|asan   or  --server-build=release|asan   (default release)
    C10K_BUILD_DIR=DIR               or  --server-build-dir=DIR        (default servers/c/build)
The asan build's binaries are DIR/asan/<id>; after each test its stderr must hold no
sanitizer report.
"""

from __future__ import annotations

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

C_SERVERS: list[ServerEntry] = [s for s in CATALOG["servers"] if s["language"] == "c"]

PORT_RANGE = (15000, 19999)
READY_TIMEOUT_S = 20.0  # the asan build on a busy machine can be slow to start
STOP_TIMEOUT_S = 2.0  # the contract: SIGTERM -> exit 0 within 2 s
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
        help="which build of the C servers to test (env C10K_SERVER_BUILD)",
    )
    group.addoption(
        "--server-build-dir",
        default=os.environ.get("C10K_BUILD_DIR", str(SANDBOXES / "servers" / "c" / "build")),
        help="the Makefile's build/ directory (env C10K_BUILD_DIR)",
    )


def pytest_report_header(config: pytest.Config) -> str:
    return (
        f"C servers: {config.getoption('--server-build')} build from "
        f"{config.getoption('--server-build-dir')}"
    )


@dataclass(frozen=True)
class Variant:
    """One way of running one server: its id plus the knob flags it is started with."""

    server: ServerEntry
    knob_args: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return str(self.server["id"])

    @property
    def label(self) -> str:
        return self.id + "".join(f"[{f.lstrip('-')}={v}]" for f, v in pairs(self.knob_args))


def pairs(args: tuple[str, ...]) -> list[tuple[str, str]]:
    return list(zip(args[::2], args[1::2], strict=True))


def variants_of(server: ServerEntry) -> list[Variant]:
    found = [Variant(server)]
    for knob in server["knobs"]:
        if knob["type"] == "enum":
            for value in knob["values"]:
                if value != knob["default"]:
                    found.append(Variant(server, (knob["flag"], value)))
        elif knob["name"] == "buffer_bytes":
            found.append(Variant(server, (knob["flag"], str(knob["min"]))))
    return found


VARIANTS = [v for s in C_SERVERS for v in variants_of(s)]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "variant" in metafunc.fixturenames:
        metafunc.parametrize("variant", VARIANTS, ids=[v.label for v in VARIANTS])
    elif "c_server" in metafunc.fixturenames:
        metafunc.parametrize("c_server", C_SERVERS, ids=[s["id"] for s in C_SERVERS])


@pytest.fixture(scope="session", autouse=True)
def raise_fd_limit() -> None:
    """1000 concurrent connections need more than the usual 1024 file descriptors."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


@pytest.fixture(scope="session")
def build(pytestconfig: pytest.Config) -> str:
    return str(pytestconfig.getoption("--server-build"))


def binary_path(config: pytest.Config, server_id: str) -> Path:
    build_dir = Path(config.getoption("--server-build-dir"))
    if config.getoption("--server-build") == "asan":
        build_dir = build_dir / "asan"
    path = build_dir / server_id
    if not path.is_file():
        target = "asan" if config.getoption("--server-build") == "asan" else "all"
        pytest.fail(f"{path} not found: build it with `make -C sandboxes/servers/c {target}`")
    return path


@pytest.fixture
def binary(pytestconfig: pytest.Config, variant: Variant) -> Path:
    return binary_path(pytestconfig, variant.id)


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


@dataclass
class Server:
    """A server binary running as a child process, its stderr captured to a file."""

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
                )
            if self._wait_ready():
                return
            # Someone took the port between our probe and the server's bind(): try another.
        pytest.fail(f"could not start {self.binary.name}: {self.stderr()}")

    def _wait_ready(self) -> bool:
        deadline = time.monotonic() + READY_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                if "Address already in use" in self.stderr():
                    return False
                pytest.fail(
                    f"{self.binary.name} exited with {self.proc.returncode}:\n{self.stderr()}"
                )
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1.0).close()
                return True
            except OSError:
                time.sleep(0.05)
        self.proc.kill()
        pytest.fail(
            f"{self.binary.name} did not listen within {READY_TIMEOUT_S} s:\n{self.stderr()}"
        )

    def stderr(self) -> str:
        return self.log_path.read_text(errors="replace")

    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def rss_bytes(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        raise RuntimeError("no VmRSS line")

    def cpu_seconds(self) -> float:
        """User + system CPU time the server has used so far."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self, sig: signal.Signals = signal.SIGTERM) -> None:
        """Signal the server and hold it to the contract: exit 0 within 2 s, no sanitizer report."""
        if self.stopped or self._proc is None:
            return
        self.stopped = True
        if self.proc.poll() is not None:
            pytest.fail(
                f"server died during the test (exit {self.proc.returncode}):\n{self.stderr()}"
            )
        self.proc.send_signal(sig)
        try:
            code = self.proc.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            pytest.fail(
                f"server still running {STOP_TIMEOUT_S} s after {sig.name}:\n{self.stderr()}"
            )
        log = self.stderr()
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
        server = Server(binary, args, tmp_path / f"server-{len(servers)}.log", build == "asan")
        servers.append(server)
        server.start()
        return server

    yield start
    for server in servers:
        server.stop()


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
