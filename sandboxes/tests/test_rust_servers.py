"""The Rust servers' own checks, beyond the shared suite.

rust-tokio (a task per connection on tokio's multi-threaded runtime):
- --worker-threads N starts N worker threads; 0 (the default) one per CPU the server may
  run on: under `taskset -c 0`, as in the benchmark's pinned container, exactly one.
- Tasks are not threads: a thousand connections add no thread.
- Out of file descriptors (EMFILE), it stops accepting until a connection closes, then
  accepts again (the message is rate-limited).

Both: the sources open with the header the course asks for and carry the anchors lessons
07 and 08 quote. (rust-io-uring is the twin of c-io-uring and prints the same start-up
lines, so test_io_uring.py's checks apply to it as well.)
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from conftest import SANDBOXES, STOP_TIMEOUT_S, Server, StartServer, pick_port
from helpers import connect, exchange, logged_server, run_out_of_descriptors

RUST_SOURCES = SANDBOXES / "servers" / "rust" / "src"
# Where each server's code lives: its binary (with the //! header), and the library modules
# the binary starts (src/tokio_server.rs, src/uring/).
SOURCE_FILES = {
    "rust-tokio": ["bin/rust-tokio.rs", "tokio_server.rs"],
    "rust-io-uring": ["bin/rust-io-uring.rs", "uring/*.rs"],
}
ANCHORS = {
    "rust-tokio": ["accept-loop", "connection-task"],
    "rust-io-uring": [
        "ring-setup",
        "buffer-ring",
        "multishot-accept",
        "multishot-recv",
        "send",
        "close",
        "recv-completion",
        "send-completion",
        "event-loop",
    ],
}


def threads(server: Server) -> int:
    return len(os.listdir(f"/proc/{server.proc.pid}/task"))


@pytest.mark.servers("rust-tokio")
@pytest.mark.default_knobs
def test_worker_threads_and_tasks_are_not_threads(start_server: StartServer) -> None:
    server = start_server("echo", ["--worker-threads", "3"])
    assert "rust-tokio: 3 worker threads\n" in server.stderr(), server.stderr()
    assert threads(server) == 3 + 1  # the workers and the main thread that waits for them

    socks = [connect(server.port) for _ in range(1000)]
    try:
        for i, sock in enumerate(socks):
            message = b"client %d\n" % i
            assert exchange(sock, message, len(message)) == message
        assert threads(server) == 3 + 1, "a connection is a task, not a thread"
    finally:
        for sock in socks:
            sock.close()


@pytest.mark.servers("rust-tokio")
@pytest.mark.default_knobs
def test_worker_threads_0_means_one_per_usable_cpu(binary: Path, tmp_path: Path) -> None:
    """Pinned to one CPU, as the benchmark pins the server's container, it runs one worker."""
    port = pick_port()
    log_path = tmp_path / "server.log"
    pinned = ["taskset", "-c", "0", str(binary), "--port", str(port)]
    with logged_server(pinned, log_path, STOP_TIMEOUT_S) as proc:
        deadline = time.monotonic() + 20
        while "listening on" not in log_path.read_text():
            assert proc.poll() is None and time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.05)
        with connect(port) as sock:
            assert exchange(sock, b"ping", 4) == b"ping"
        assert len(os.listdir(f"/proc/{proc.pid}/task")) == 1 + 1
    log = log_path.read_text()
    assert "1 worker thread (--worker-threads 0: one per usable CPU)" in log, log
    assert " worker_threads=0 " in log, log  # the start-up line shows the knob as given


@pytest.mark.servers("rust-tokio")
@pytest.mark.default_knobs
def test_out_of_file_descriptors_it_pauses_accepting_and_resumes(
    binary: Path, tmp_path: Path
) -> None:
    """With nofile 40, later clients wait in the listen queue; each close lets the server
    accept again, and a waiting client is served."""
    log = run_out_of_descriptors(binary, pick_port(), tmp_path / "server.log", STOP_TIMEOUT_S)
    assert "accept() failed; pausing until a connection closes" in log, log
    assert "Too many open files" in log and "accepting connections again" in log, log
    assert log.count("pausing") == 1, f"the pause message is rate-limited:\n{log}"


@pytest.mark.parametrize("server_id", sorted(ANCHORS))
def test_source_has_the_header_and_the_anchors_lessons_quote(server_id: str) -> None:
    binary, *library = SOURCE_FILES[server_id]
    header_source = (RUST_SOURCES / binary).read_text()
    header = "\n".join(line for line in header_source.splitlines() if line.startswith("//!"))
    for fact in ["What it shows", "Minimum kernel:", "Usage:", "Test with:", "Simplifications:"]:
        assert fact in header, f"{server_id}: {fact!r} missing from the //! header"
    files = [RUST_SOURCES / binary] + [f for pattern in library for f in RUST_SOURCES.glob(pattern)]
    source = "\n".join(f.read_text() for f in files)
    for anchor in ANCHORS[server_id]:
        assert re.search(rf"^\s*// ANCHOR: {anchor}$", source, re.M), anchor
        assert re.search(rf"^\s*// ANCHOR_END: {anchor}$", source, re.M), anchor
    if server_id == "rust-io-uring":
        # Every unsafe block says why the memory it hands the kernel outlives the request.
        for file in files:
            lines = file.read_text().splitlines()
            for i, line in enumerate(lines):
                if re.search(r"\bunsafe \{", line) and "unsafe fn" not in line:
                    before = "\n".join(lines[max(0, i - 12) : i + 1])
                    assert "SAFETY:" in before, f"{file.name}:{i + 1}: unsafe block without SAFETY:"
