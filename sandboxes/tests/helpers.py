"""Client-side helpers for the conformance suite: raw sockets, no cleverness.

Every wait has a generous deadline (the suite runs on small, busy machines); none of them
is an assertion about speed.
"""

from __future__ import annotations

import contextlib
import os
import random
import selectors
import signal
import socket
import struct
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

IO_TIMEOUT_S = 60.0  # a deadline for one exchange, far above anything a healthy server needs
WAIT_S = 30.0  # generous deadline for what must happen (the asan build on a busy machine)
STALL_S = 1.5  # no progress for this long means "the server has stopped reading from us"


SMALL_RCVBUF = 4096  # bytes
SMALL_MSS = 536  # bytes: the classic minimum segment size of IPv4


def connect(port: int, *, small_buffers: bool = False) -> socket.socket:
    """A blocking TCP connection to the server, with Nagle off so each send is a segment.

    small_buffers: make the kernels on *both* sides buffer little, so that a client that
    stops reading soon fills the server's send buffer. Our receive buffer is set small;
    the server's send buffer we can only shrink indirectly: Linux sizes it from the
    connection's segment size (about 2 x cwnd x bytes per segment), which our SYN sets.
    On loopback the MSS is ~64 KiB and the server's send buffer starts at ~4 MiB; with
    536-byte segments it is ~135 KiB, so a 1 MiB reply forces short writes and EAGAIN.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if small_buffers:
        # Set before connect(), so they apply from the handshake on.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SMALL_RCVBUF)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, SMALL_MSS)
    sock.settimeout(IO_TIMEOUT_S)
    sock.connect(("127.0.0.1", port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def reset(sock: socket.socket) -> None:
    """Close with SO_LINGER {on, 0 s}: the kernel sends RST instead of FIN."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def split_at_random(data: bytes, rng: random.Random, pieces: int) -> list[bytes]:
    """`data` cut into `pieces` chunks at random places (every chunk at least 1 byte)."""
    cuts = sorted(rng.sample(range(1, len(data)), pieces - 1))
    return [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]


def send_in_background(sock: socket.socket, chunks: list[bytes]) -> threading.Thread:
    """Send chunks one sendall() each from a second thread, so the caller can read."""

    def send() -> None:
        for chunk in chunks:
            sock.sendall(chunk)

    thread = threading.Thread(target=send, daemon=True)
    thread.start()
    return thread


def wait_until(condition: Callable[[], bool], timeout_s: float = IO_TIMEOUT_S) -> bool:
    """Poll until condition() holds; False if it still does not after timeout_s."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def wait_for(condition: Callable[[], bool], what: str, timeout_s: float = WAIT_S) -> None:
    """Poll until condition() holds; fail, naming what was awaited, if it does not in time."""
    if not wait_until(condition, timeout_s):
        raise AssertionError(f"gave up waiting {timeout_s} s for {what}")


def recv_exactly(sock: socket.socket, n: int) -> bytes:
    data = bytearray()
    while len(data) < n:
        chunk = sock.recv(min(n - len(data), 1 << 20))
        if not chunk:
            raise EOFError(f"server closed after {len(data)} of {n} bytes")
        data += chunk
    return bytes(data)


def recv_until_eof(sock: socket.socket, limit: int = 1 << 24) -> bytes:
    data = bytearray()
    while len(data) <= limit:
        chunk = sock.recv(65536)
        if not chunk:
            return bytes(data)
        data += chunk
    raise AssertionError(f"more than {limit} bytes and still no end of stream")


def exchange(sock: socket.socket, outgoing: bytes | memoryview, expect_bytes: int) -> bytes:
    """Send `outgoing` while receiving, until all is sent and `expect_bytes` have arrived.

    Sending and receiving at the same time means neither side can block the other,
    however little either kernel buffers.
    """
    out = memoryview(outgoing)
    received = bytearray()
    sock.setblocking(False)
    deadline = time.monotonic() + IO_TIMEOUT_S
    with selectors.DefaultSelector() as sel:
        sel.register(sock, selectors.EVENT_READ | selectors.EVENT_WRITE)
        while len(out) > 0 or len(received) < expect_bytes:
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"{len(out)} bytes unsent, {len(received)} of {expect_bytes} received"
                )
            events = selectors.EVENT_READ | (selectors.EVENT_WRITE if len(out) else 0)
            sel.modify(sock, events)
            for _, ready in sel.select(timeout=1.0):
                if ready & selectors.EVENT_WRITE and len(out):
                    with contextlib.suppress(BlockingIOError):
                        out = out[sock.send(out[: 1 << 20]) :]
                if ready & selectors.EVENT_READ:
                    try:
                        chunk = sock.recv(1 << 20)
                    except BlockingIOError:
                        continue
                    if not chunk:
                        raise EOFError(
                            f"server closed after {len(received)} of {expect_bytes} bytes"
                        )
                    received += chunk
    sock.settimeout(IO_TIMEOUT_S)
    return bytes(received)


def send_until_stalled(
    sock: socket.socket, outgoing: bytes | memoryview, stall_s: float = STALL_S
) -> int:
    """Send without ever reading, until everything is sent or the server stops taking bytes
    (no progress for `stall_s`).

    Returns how many bytes went out. The socket is left blocking again. A shorter stall_s
    is fine where stopping early does no harm (the caller sends the rest later).
    """
    out = memoryview(outgoing)
    sent = 0
    sock.setblocking(False)
    last_progress = time.monotonic()
    while sent < len(out) and time.monotonic() - last_progress < stall_s:
        try:
            n = sock.send(out[sent : sent + (1 << 20)])
        except BlockingIOError:
            time.sleep(0.01)
            continue
        sent += n
        last_progress = time.monotonic()
    sock.settimeout(IO_TIMEOUT_S)
    return sent


def echo_write_all_then_read(sock: socket.socket, payload: bytes) -> bytes:
    """Send the whole payload before reading a byte, if the server lets us; then read it all.

    While we do not read, the server's replies fill our receive buffer and its send buffer,
    so its write()s come back short or with EAGAIN: this drives its partial-write path.
    """
    sent = send_until_stalled(sock, payload, stall_s=0.5)
    return exchange(sock, memoryview(payload)[sent:], len(payload))


@dataclass
class HttpResponse:
    status: int
    reason: str
    headers: dict[str, str]  # lower-case names
    body: bytes
    raw: bytes

    @property
    def closes(self) -> bool:
        return "close" in self.headers.get("connection", "").lower()


class HttpReader:
    """Reads responses one at a time from a socket (Content-Length framing only)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = bytearray()

    def _fill(self) -> bool:
        chunk = self.sock.recv(65536)
        self.buffer += chunk
        return bool(chunk)

    def at_eof(self) -> bool:
        """True if the server closed the connection with nothing more to read."""
        return not self.buffer and not self._fill()

    def read_response(self) -> HttpResponse:
        while b"\r\n\r\n" not in self.buffer:
            if not self._fill():
                raise EOFError(f"connection closed inside a response head: {bytes(self.buffer)!r}")
        head_end = self.buffer.index(b"\r\n\r\n") + 4
        lines = bytes(self.buffer[: head_end - 4]).decode("latin-1").split("\r\n")
        version, status, reason = lines[0].split(" ", 2)
        assert version == "HTTP/1.1", lines[0]
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers["content-length"])
        while len(self.buffer) < head_end + length:
            if not self._fill():
                raise EOFError("connection closed inside a response body")
        raw = bytes(self.buffer[: head_end + length])
        del self.buffer[: head_end + length]
        return HttpResponse(int(status), reason, headers, raw[head_end:], raw)


def http_request(*, close: bool = False, version: str = "1.1", extra: str = "") -> bytes:
    head = f"GET / HTTP/{version}\r\nHost: 127.0.0.1\r\nUser-Agent: c10k-conformance\r\n"
    if close:
        head += "Connection: close\r\n"
    return (head + extra + "\r\n").encode()


@contextlib.contextmanager
def logged_server(
    command: list[str], log_path: Path, stop_timeout_s: float, env: dict[str, str] | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    """A server started by `command` (a wrapper such as prlimit or taskset, then the binary),
    its output in log_path, for a check that needs it outside the start_server fixture. When
    the block ends it must stop on SIGTERM with exit 0; if the block fails it is killed."""
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})}
        )
    try:
        yield proc
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=stop_timeout_s) == 0, log_path.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def run_out_of_descriptors(
    binary: Path,
    port: int,
    log_path: Path,
    stop_timeout_s: float,
    env: dict[str, str] | None = None,
) -> str:
    """Run the server with nofile 40 and 60 clients: the later ones wait in the listen queue
    while it is out of descriptors; closing 30 must let it accept again and serve the last
    one. Stops it with SIGTERM (exit 0 expected) and returns its log."""
    command = ["prlimit", "--nofile=40:40", str(binary), "--port", str(port)]
    with logged_server(command, log_path, stop_timeout_s, env) as proc:
        socks = []
        deadline = time.monotonic() + 20
        while not socks:
            try:
                socks.append(connect(port))
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, log_path.read_text()
                time.sleep(0.05)
        socks += [connect(port) for _ in range(59)]  # the last ones wait to be accepted
        for sock in socks[:20]:
            assert exchange(sock, b"early", 5) == b"early"
        for sock in socks[:30]:
            sock.close()
        assert exchange(socks[-1], b"late", 4) == b"late"
        for sock in socks[30:]:
            sock.close()
    return log_path.read_text()
