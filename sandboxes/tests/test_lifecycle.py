"""Start-up, flags and shutdown: what the runner relies on to start and stop a server."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest
from conftest import STOP_TIMEOUT_S, StartServer, Variant, pairs, pick_port
from helpers import HttpReader, connect, exchange, http_request, send_until_stalled

COMMON_LABELS = {"--backlog": "backlog", "--buffer-bytes": "buffer"}


def startup_line(server_log: str, server_id: str) -> str:
    for line in server_log.splitlines():
        if line.startswith(f"{server_id}: listening on "):
            return line
    raise AssertionError(f"no start-up line in:\n{server_log}")


@pytest.mark.parametrize("protocol", ["echo", "http"])
def test_prints_its_effective_config(
    start_server: StartServer, variant: Variant, protocol: str
) -> None:
    server = start_server(protocol, ["--backlog", "1000"])
    deadline = time.monotonic() + 10
    while "listening on" not in server.stderr() and time.monotonic() < deadline:
        time.sleep(0.05)
    line = startup_line(server.stderr(), variant.id)
    assert re.fullmatch(
        rf"{variant.id}: listening on 0\.0\.0\.0:{server.port} protocol={protocol}"
        r"( [a-z_]+=\S+)* backlog=1000 buffer=\d+",
        line,
    ), line
    fields = dict(f.split("=", 1) for f in line.split()[4:])
    for knob in variant.server["knobs"]:
        label = COMMON_LABELS.get(knob["flag"], knob["flag"].lstrip("-"))
        expected = dict(pairs(variant.knob_args)).get(knob["flag"], str(knob["default"]))
        if knob["flag"] != "--backlog":
            assert fields.get(label) == expected, f"{label}: {line}"


def test_sigterm_with_busy_clients_exits_0_within_2s(
    start_server: StartServer, variant: Variant
) -> None:
    server = start_server("echo")
    idle = [connect(server.port) for _ in range(20)]
    midway = connect(server.port)
    midway.sendall(b"no reply read yet")
    stalled = connect(server.port, small_buffers=True)
    send_until_stalled(stalled, b"z" * (16 << 20))
    server.stop(signal.SIGTERM)  # asserts exit 0 within 2 s
    for sock in [*idle, midway, stalled]:
        sock.close()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_stop_signal_exits_0_within_2s(start_server: StartServer, sig: signal.Signals) -> None:
    server = start_server("http")
    with connect(server.port) as sock:
        sock.sendall(http_request())
        assert HttpReader(sock).read_response().status == 200
        server.stop(sig)


def test_stops_accepting_after_sigterm(start_server: StartServer) -> None:
    server = start_server("echo")
    with connect(server.port) as sock:
        assert exchange(sock, b"ping", 4) == b"ping"
    server.stop()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", server.port), timeout=5).close()


def run(binary: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(binary), *args], capture_output=True, text=True, timeout=STOP_TIMEOUT_S * 10
    )


@pytest.mark.parametrize(
    "args",
    [
        ["--port", "0"],
        ["--port", "65536"],
        ["--port", "ninety"],
        ["--port"],
        ["--protocol", "gopher"],
        ["--backlog", "0"],
        ["--buffer-bytes", "1"],
        ["--buffer-bytes", "99999999"],
        ["--no-such-flag", "1"],
    ],
    ids=lambda args: " ".join(args),
)
def test_bad_flags_exit_1_naming_the_flag(binary: Path, args: list[str]) -> None:
    result = run(binary, *args)
    assert result.returncode == 1, result
    assert args[0] in result.stderr, result.stderr


def test_bad_knob_values_exit_1(binary: Path, variant: Variant) -> None:
    for knob in variant.server["knobs"]:
        bad = "not-a-choice" if knob["type"] == "enum" else str(knob["max"] * 1000 + 1)
        result = run(binary, knob["flag"], bad)
        assert result.returncode == 1, (knob, result)
        assert knob["flag"] in result.stderr


def test_help_lists_every_knob(binary: Path, variant: Variant) -> None:
    result = run(binary, "--help")
    assert result.returncode == 0
    for knob in variant.server["knobs"]:
        assert knob["flag"] in result.stdout


def test_port_in_use_is_a_setup_error(binary: Path) -> None:
    port = pick_port()
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", port))
        taken.listen()
        result = run(binary, "--port", str(port))
    assert result.returncode == 1
    assert re.search(r"bind\(.*\) failed: Address already in use", result.stderr), result.stderr
