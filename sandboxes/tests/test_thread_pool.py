"""c-prethreaded's pool: --threads workers serve one connection each; further connections
wait in the server's queue (and, once --queue is full, in the kernel's listen backlog) and
are served, oldest first, as earlier clients leave. Waiting is not hanging: the server keeps
accepting, says in its log when connections have waited long, serves each waiting client as
soon as a thread is free, and still stops within 2 s of SIGTERM."""

from __future__ import annotations

import contextlib
import os
import re
import socket

import pytest
from conftest import Server, StartServer
from helpers import IO_TIMEOUT_S, connect, exchange, recv_exactly, wait_for

TWO_THREADS = ["--threads", "2"]
QUIET_S = 0.5  # a client that gets nothing in this long is waiting, not being served

pytestmark = [pytest.mark.servers("c-prethreaded"), pytest.mark.default_knobs]


def accepted_connections(server: Server) -> int:
    """Client sockets the server holds: its socket descriptors minus the listening one."""
    fd_dir = f"/proc/{server.proc.pid}/fd"
    sockets = 0
    for name in os.listdir(fd_dir):
        with contextlib.suppress(FileNotFoundError):  # closed while we looked
            sockets += os.readlink(f"{fd_dir}/{name}").startswith("socket:")
    return sockets - 1


def gets_nothing_for(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        data = sock.recv(1)
    except TimeoutError:
        return True
    finally:
        sock.settimeout(IO_TIMEOUT_S)
    raise AssertionError(f"expected no reply yet, got {data!r}")


def test_a_third_client_waits_for_a_thread_and_is_served_when_one_frees(
    start_server: StartServer,
) -> None:
    server = start_server("echo", TWO_THREADS)
    first, second = connect(server.port), connect(server.port)
    assert exchange(first, b"first", 5) == b"first"  # both threads now busy with a client
    assert exchange(second, b"second", 6) == b"second"

    third = connect(server.port)  # connects at once: the server keeps accepting
    third.sendall(b"third")
    assert gets_nothing_for(third, QUIET_S), "served with both threads busy?"
    wait_for(lambda: accepted_connections(server) == 3, "the third connection to be accepted")

    first.close()  # frees a thread: the waiting client is served now
    assert recv_exactly(third, 5) == b"third"
    assert exchange(second, b"still here", 10) == b"still here"
    for sock in (second, third):
        sock.close()


@pytest.mark.parametrize("queue", ["1024", "3"], ids=["queue=1024", "queue=3"])
def test_waiting_connections_are_served_in_turn_as_earlier_ones_close(
    start_server: StartServer, queue: str
) -> None:
    # 12 clients, 2 threads. With --queue 1024 the other 10 all wait in the server's queue;
    # with --queue 3, three do, one more is held by the main thread waiting for room, and
    # the rest wait, unaccepted, in the listen backlog. Either way: oldest first, none lost.
    server = start_server("echo", [*TWO_THREADS, "--queue", queue])
    clients = [connect(server.port) for _ in range(12)]
    for i, sock in enumerate(clients):
        sock.sendall(b"client %02d" % i)
    expected_accepted = 12 if queue == "1024" else 2 + 3 + 1
    wait_for(
        lambda: accepted_connections(server) == expected_accepted,
        f"{expected_accepted} connections accepted",
    )
    for i, sock in enumerate(clients):
        assert recv_exactly(sock, 9) == b"client %02d" % i, f"client {i}"
        sock.close()  # its thread takes the oldest waiting connection next


def test_the_log_says_when_connections_wait_long(start_server: StartServer) -> None:
    server = start_server("echo", ["--threads", "1"])
    busy = connect(server.port)
    assert exchange(busy, b"mine", 4) == b"mine"
    waiting = connect(server.port)
    waiting.sendall(b"x")
    pattern = r"no free thread \(1 in the pool\): 1 connection waiting, the oldest for \d+\.\d s"
    wait_for(lambda: re.search(pattern, server.stderr()) is not None, "the queue's log line")
    # The busy client, silent all this while (over a second), is still being served.
    assert exchange(busy, b"again", 5) == b"again"
    busy.close()
    assert recv_exactly(waiting, 1) == b"x"
    waiting.close()


@pytest.mark.parametrize("queue", ["1024", "1"], ids=["queue=1024", "queue=1"])
def test_sigterm_exits_within_2s_while_connections_wait(
    start_server: StartServer, queue: str
) -> None:
    # --queue 1: the main thread is asleep waiting for room in the queue, not in accept().
    server = start_server("echo", [*TWO_THREADS, "--queue", queue])
    busy = [connect(server.port) for _ in range(2)]
    for sock in busy:
        assert exchange(sock, b"busy", 4) == b"busy"
    waiting = [connect(server.port) for _ in range(6)]
    for sock in waiting:
        sock.sendall(b"waiting")
    expected_accepted = 8 if queue == "1024" else 2 + 1 + 1
    wait_for(
        lambda: accepted_connections(server) == expected_accepted,
        f"{expected_accepted} connections accepted",
    )
    server.stop()  # asserts exit 0 within 2 s, with nothing of its session left
    if queue == "1024":
        assert "closed 6 waiting connections" in server.stderr(), server.stderr()
    for sock in [*busy, *waiting]:
        sock.close()
