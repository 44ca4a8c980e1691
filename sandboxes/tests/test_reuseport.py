"""c-epoll-reuseport: N worker threads, each with its own SO_REUSEPORT listening socket on the
same port and its own epoll loop. The kernel spreads new connections over the sockets by a
hash of each connection's addresses and ports, so with a few hundred clients every worker
gets some; one SIGTERM stops them all (the fixture holds it to exit 0 within 2 s)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from conftest import Server, StartServer
from helpers import connect, exchange

WORKERS = 3
CLIENTS = 300  # P(some worker gets none) = 3 * (2/3)**300: never


def threads(server: Server) -> int:
    return len(os.listdir(f"/proc/{server.proc.pid}/task"))


def listening_sockets(port: int) -> int:
    """Sockets in state LISTEN on this port, from /proc/net/tcp (hex port, state 0A)."""
    count = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[1].endswith(f":{port:04X}") and fields[3] == "0A":
            count += 1
    return count


@pytest.mark.servers("c-epoll-reuseport")
def test_workers_share_the_port_and_the_kernel_spreads_connections(
    start_server: StartServer,
) -> None:
    server = start_server("echo", ["--workers", str(WORKERS)])
    assert f"{WORKERS} worker threads" in server.stderr()
    assert threads(server) == WORKERS + 1  # the workers and the main thread that waits
    assert listening_sockets(server.port) == WORKERS

    socks = [connect(server.port) for _ in range(CLIENTS)]
    try:
        for i, sock in enumerate(socks):
            message = b"client %d\n" % i
            assert exchange(sock, message, len(message)) == message
    finally:
        for sock in socks:
            sock.close()

    server.stop()  # exit 0 within 2 s, every worker included
    spread = re.search(r"connections accepted by each worker:((?: \d+)+)", server.stderr())
    assert spread, server.stderr()
    counts = [int(n) for n in spread.group(1).split()]
    assert len(counts) == WORKERS
    assert sum(counts) >= CLIENTS  # plus the fixture's readiness probe
    assert min(counts) > 0, f"the kernel gave some worker nothing: {counts}"


@pytest.mark.servers("c-epoll-reuseport")
@pytest.mark.default_knobs
def test_workers_0_means_one_per_usable_cpu(start_server: StartServer) -> None:
    server = start_server("echo", ["--workers", "0"])
    expected = min(len(os.sched_getaffinity(0)), 64)  # the server inherits our CPU affinity
    assert f"{expected} worker thread{'s' if expected > 1 else ''}," in server.stderr()
    assert threads(server) == expected + 1
    with connect(server.port) as sock:
        assert exchange(sock, b"ping", 4) == b"ping"
