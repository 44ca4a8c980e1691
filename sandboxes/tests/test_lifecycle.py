"""Start-up, flags and shutdown: what the runner relies on to start and stop a server."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import STOP_TIMEOUT_S, StartServer, Variant, knob_text, pairs, pick_port
from helpers import HttpReader, connect, exchange, http_request, send_until_stalled

COMMON_LABELS = {"--backlog": "backlog", "--buffer-bytes": "buffer"}


def startup_line(server_log: str, server_id: str) -> str:
    for line in server_log.splitlines():
        if line.startswith(f"{server_id}: listening on "):
            return line
    raise AssertionError(f"no start-up line in:\n{server_log}")


@pytest.mark.smoke
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
        r"( [a-z_-]+=\S+)+",
        line,
    ), line
    fields = dict(f.split("=", 1) for f in line.split()[4:])
    assert fields.get("backlog") == "1000", f"backlog: {line}"
    for knob in variant.server["knobs"]:
        if knob["flag"] == "--backlog":
            continue
        # Shown under the catalog's name for the knob or its flag's ("trigger=lt").
        labels = [COMMON_LABELS.get(knob["flag"]), knob["name"], knob["flag"].lstrip("-")]
        shown = next((fields[label] for label in labels if label in fields), None)
        expected = dict(pairs(variant.knob_args)).get(knob["flag"], knob_text(knob["default"]))
        assert shown == expected, f"{knob['flag']}: expected {expected!r} in {line}"


@pytest.mark.default_knobs
def test_sigterm_with_busy_clients_exits_0_within_2s_leaving_no_process(
    start_server: StartServer, variant: Variant
) -> None:
    server = start_server("echo")
    # Clients being served (in a read() of a worker, thread or child process where the
    # model has them), up to as many as it serves at once ...
    served = [connect(server.port) for _ in range(min(5, variant.concurrency))]
    for sock in served:
        assert exchange(sock, b"ping", 4) == b"ping"
    # ... and more that are idle, mid-message, or stalled (maybe still in the listen queue).
    idle = [connect(server.port) for _ in range(20)]
    midway = connect(server.port)
    midway.sendall(b"no reply read yet")
    stalled = connect(server.port, small_buffers=True)
    send_until_stalled(stalled, b"z" * (16 << 20), stall_s=0.5)
    assert server.processes(), "no server process found in its session"
    server.stop(signal.SIGTERM)  # asserts exit 0 within 2 s, nothing of its session left
    for sock in [*served, *idle, midway, stalled]:
        sock.close()


@pytest.mark.smoke
@pytest.mark.default_knobs
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_stop_signal_exits_0_within_2s(start_server: StartServer, sig: signal.Signals) -> None:
    server = start_server("http")
    with connect(server.port) as sock:
        sock.sendall(http_request())
        assert HttpReader(sock).read_response().status == 200
        server.stop(sig)


@pytest.mark.default_knobs
def test_stops_accepting_after_sigterm(start_server: StartServer) -> None:
    server = start_server("echo")
    with connect(server.port) as sock:
        assert exchange(sock, b"ping", 4) == b"ping"
    server.stop()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", server.port), timeout=5).close()


def run(binary: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the binary with arguments it should refuse (or --help): it must exit by itself."""
    if "--port" not in args:  # should it start after all, not on the default port 9000
        args = ("--port", str(pick_port()), *args)
    try:
        return subprocess.run(
            [str(binary), *args], capture_output=True, text=True, timeout=STOP_TIMEOUT_S * 5
        )
    except subprocess.TimeoutExpired as e:
        raise AssertionError(
            f"{binary.name} {' '.join(args)}: still running after {e.timeout} s"
            f" (started instead of refusing?):\n{e.stderr!r}"
        ) from None


COMMON_BAD_FLAGS = [
    ["--port", "0"],
    ["--port", "65536"],
    ["--port", "ninety"],
    ["--port"],
    ["--protocol", "gopher"],
    ["--backlog", "0"],
    ["--no-such-flag", "1"],
]


@pytest.mark.default_knobs
@pytest.mark.parametrize("args", COMMON_BAD_FLAGS, ids=lambda args: " ".join(args))
def test_bad_flags_exit_1_naming_the_flag(binary: Path, args: list[str]) -> None:
    result = run(binary, *args)
    assert result.returncode == 1, result
    assert args[0] in result.stderr, result.stderr


def bad_values(knob: dict[str, Any]) -> list[str]:
    """Values no server may take for a knob. (A server may accept a little more than the
    catalog's range, which is what the API lets through: --backlog 8 is fine.)"""
    if knob["type"] == "enum":
        return ["not-a-choice", ""]
    if knob["type"] == "bool":
        return ["maybe"]
    bad = ["many", "12abc"]
    if knob.get("min") is not None and knob["min"] >= 0:
        bad.append("-1")
    if knob.get("max") is not None:
        bad.append(str(knob["max"] * 1000 + 1))
    return bad


@pytest.mark.default_knobs
def test_bad_knob_values_exit_1_naming_the_flag(binary: Path, variant: Variant) -> None:
    for knob in variant.server["knobs"]:
        for bad in bad_values(knob):
            result = run(binary, knob["flag"], bad)
            assert result.returncode == 1, (knob["flag"], bad, result)
            assert knob["flag"] in result.stderr, (knob["flag"], bad, result.stderr)


@pytest.mark.default_knobs
def test_help_lists_every_knob(binary: Path, variant: Variant) -> None:
    result = run(binary, "--help")
    assert result.returncode == 0
    for knob in variant.server["knobs"]:
        assert knob["flag"] in result.stdout


@pytest.mark.default_knobs
def test_port_in_use_is_a_setup_error(binary: Path) -> None:
    port = pick_port()
    with socket.socket() as taken:
        # SO_REUSEADDR: the port may have connections in TIME_WAIT from an earlier test.
        # The server's bind() still fails: the port has a listener.
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        taken.bind(("0.0.0.0", port))
        taken.listen()
        result = run(binary, "--port", str(port))
    assert result.returncode == 1
    assert re.search(r"bind\(.*\) failed: Address already in use", result.stderr), result.stderr
