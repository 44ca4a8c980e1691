"""c-select's limit: glibc's fd_set is a fixed bitmap of FD_SETSIZE = 1024 bits, so select()
can only watch fds 0..1023. A connection that lands on fd 1024 or above must be refused
cleanly (closed at once, and logged) while the others keep being served. FD_SET() on such
an fd would write past the end of the bitmap: in the asan build that is a report, and the
fixture fails the test on any sanitizer report."""

from __future__ import annotations

import os
import re
import socket

import pytest
from conftest import Server, StartServer, Variant
from helpers import connect, exchange, recv_exactly, wait_for

FD_SETSIZE = 1024
OVER_THE_LIMIT = 12  # connections opened beyond what the server has room for


def open_fds(server: Server) -> int:
    return len(os.listdir(f"/proc/{server.proc.pid}/fd"))


def served_or_refused(sock: socket.socket, message: bytes) -> bool:
    """True if the server echoed `message`; False if it had closed the connection."""
    try:
        sock.sendall(message)
        return recv_exactly(sock, len(message)) == message
    except (EOFError, ConnectionResetError, BrokenPipeError):
        return False


@pytest.mark.servers("c-select")
@pytest.mark.default_knobs
def test_connections_past_fd_setsize_are_refused_and_the_rest_served(
    start_server: StartServer, variant: Variant
) -> None:
    server = start_server("echo")

    # The server says how many fds are its own, and so how many clients fit below 1024;
    # the catalog's max_connections must be that number.
    room_line = re.search(
        r"fds 0\.\.(\d+) are the server's own, leaving room for (\d+) clients", server.stderr()
    )
    assert room_line, server.stderr()
    own, room = int(room_line.group(1)) + 1, int(room_line.group(2))
    assert own + room == FD_SETSIZE
    assert room == variant.server["limits"]["max_connections"], "catalog disagrees with server"
    wait_for(lambda: open_fds(server) == own, "the readiness probe's connection to close")

    socks = [connect(server.port) for _ in range(room + OVER_THE_LIMIT)]
    try:
        wait_for(lambda: "refusing connections" in server.stderr(), "the refusal message")
        # Each client is echoed, or finds its connection closed (end-of-stream or reset).
        served = [i for i, s in enumerate(socks) if served_or_refused(s, b"client %d\n" % i)]
        assert len(served) == room, f"{len(served)} served, expected {room}"
        # The kernel's accept queue is first in, first out: the last ones are refused.
        assert served == list(range(room))
        # Clients that found room are still served after the refusals.
        for i in (0, room // 2, room - 1):
            assert exchange(socks[i], b"still here", 10) == b"still here"
    finally:
        for sock in socks:
            sock.close()

    log = server.stderr()
    refusals = [line for line in log.splitlines() if "refusing connections" in line]
    assert "FD_SETSIZE (1024)" in refusals[0] and "fd 1024" in refusals[0], refusals[0]
    # One line per burst (a second or two on a slow machine), not one per connection.
    assert 1 <= len(refusals) <= 2, "\n".join(refusals)

    # Once those clients are gone, a newcomer gets a low fd again and is served.
    wait_for(lambda: open_fds(server) == own, "the server to close the old connections")
    with connect(server.port) as fresh:
        assert exchange(fresh, b"a fresh client", 14) == b"a fresh client"

    server.stop()  # exit 0 within 2 s; in the asan build, no sanitizer report
    totals = re.search(r"\((\d+) accepted, (\d+) refused in all\)", server.stderr())
    assert totals, server.stderr()
    assert int(totals.group(2)) == OVER_THE_LIMIT
