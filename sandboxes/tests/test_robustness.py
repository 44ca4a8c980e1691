"""Misbehaving clients: they may vanish, half-close, or never read. The server survives,
keeps serving others, and its memory stays bounded."""

from __future__ import annotations

import random
import socket
import time

import pytest
from conftest import Server, StartServer, Variant
from helpers import (
    HttpReader,
    connect,
    exchange,
    http_request,
    recv_until_eof,
    reset,
    send_until_stalled,
)

MiB = 1 << 20

# Every misbehaving client here is tried against both protocols a server speaks.
pytestmark = pytest.mark.parametrize("protocol", ["echo", "http"])


def assert_still_serving(server: Server, protocol: str) -> None:
    assert server.alive(), f"server died:\n{server.stderr()}"
    with connect(server.port) as sock:
        if protocol == "echo":
            assert exchange(sock, b"still there?", 12) == b"still there?"
        else:
            sock.sendall(http_request())
            assert HttpReader(sock).read_response().status == 200


def test_clients_that_reset_mid_request(
    start_server: StartServer, rng: random.Random, protocol: str
) -> None:
    server = start_server(protocol)
    partial = b"GET / HTTP/1.1\r\nHost: x\r\nX-Half" if protocol == "http" else b"half a mess"
    flood = rng.randbytes(2 * MiB) if protocol == "echo" else http_request() * 20_000
    for round_ in range(10):
        reset(connect(server.port))  # RST straight after connecting
        sock = connect(server.port)  # RST with part of a request sent
        sock.sendall(partial)
        reset(sock)
        if round_ % 3 == 0:
            # RST while the server still has replies queued for us, or is blocked
            # writing them: its write() fails.
            sock = connect(server.port, small_buffers=True)
            send_until_stalled(sock, flood, stall_s=0.3)
            reset(sock)
    assert_still_serving(server, protocol)


def test_clients_that_half_close_mid_request(start_server: StartServer, protocol: str) -> None:
    server = start_server(protocol)
    with connect(server.port) as sock:
        if protocol == "http":
            # Half a request head, then FIN: there is nothing to answer, so the server closes.
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            sock.shutdown(socket.SHUT_WR)
            assert recv_until_eof(sock) == b""
        else:
            # Echo answers what it got, then closes.
            sock.sendall(b"half a message")
            sock.shutdown(socket.SHUT_WR)
            assert recv_until_eof(sock) == b"half a message"
    if protocol == "http":
        # A whole request then FIN: answered, then closed.
        with connect(server.port) as sock:
            sock.sendall(http_request() * 3)
            sock.shutdown(socket.SHUT_WR)
            reader = HttpReader(sock)
            assert [reader.read_response().status for _ in range(3)] == [200] * 3
            assert reader.at_eof()
    # Many at once, and the server still serves a newcomer.
    socks = [connect(server.port) for _ in range(50)]
    for sock in socks:
        sock.sendall(b"GET / HTTP/1.1\r\n" if protocol == "http" else b"x")
        sock.shutdown(socket.SHUT_WR)
    for sock in socks:
        recv_until_eof(sock)
        sock.close()
    assert_still_serving(server, protocol)


@pytest.mark.default_knobs
def test_a_client_that_never_reads_cannot_grow_memory_or_block_others(
    start_server: StartServer, variant: Variant, rng: random.Random, protocol: str
) -> None:
    server = start_server(protocol)
    assert_still_serving(server, protocol)  # warm up: first allocations done
    one = b""  # the one fixed http response, fetched now: later the hog may hold the server
    if protocol == "http":
        with connect(server.port) as probe:
            probe.sendall(http_request())
            one = HttpReader(probe).read_response().raw
    rss_before = server.rss_bytes()

    # Without backpressure the server would read all of this into memory. Period of the
    # echo pattern is deliberately not a power of two, so a lost or repeated block shows.
    limit = 128 * MiB
    if protocol == "echo":
        pattern = rng.randbytes(MiB + 7)
        unit = len(pattern)
    else:
        pattern = http_request()
        unit = len(pattern)
    stream = memoryview(pattern * (limit // unit + 1))

    hog = connect(server.port, small_buffers=True)
    sent = send_until_stalled(hog, stream[:limit])
    assert sent < limit, "server kept reading from a client that never reads: no backpressure"
    grown = server.rss_bytes() - rss_before
    assert grown < 48 * MiB, f"server RSS grew by {grown / MiB:.1f} MiB for one stalled client"

    # Other clients are served while the hog is stalled (unless the server serves one
    # client at a time: then they wait for the hog, as c-iterative's lesson shows).
    if variant.concurrency > 1:
        assert_still_serving(server, protocol)

    # The hog reads at last, and gets exactly what it is owed.
    if protocol == "echo":
        received = exchange(hog, b"", sent)
        assert received == stream[:sent], "echoed bytes differ from those sent"
    else:
        tail = (-sent) % unit  # finish the last, partly sent request
        requests = (sent + tail) // unit
        received = exchange(hog, stream[sent : sent + tail], requests * len(one))
        assert received == one * requests
    hog.close()
    assert_still_serving(server, protocol)


@pytest.mark.default_knobs
def test_no_busy_loop_over_clients_that_vanished_or_went_quiet(
    start_server: StartServer, variant: Variant, rng: random.Random, protocol: str
) -> None:
    server = start_server(protocol)
    flood = rng.randbytes(2 * MiB) if protocol == "echo" else http_request() * 20_000
    some = rng.randbytes(250_000) if protocol == "echo" else http_request() * 1500
    kept = []
    # The clients below that never read their replies keep a blocking server's worker
    # busy for good: leave one worker free for the clients after them.
    room = variant.concurrency - 1
    for _ in range(3):
        if room >= 2:
            room -= 2
            # Half-closed with replies still queued, and never reading them: the server
            # must wait for writability, not for a readable end-of-stream it has seen.
            sock = connect(server.port, small_buffers=True)
            send_until_stalled(sock, flood, stall_s=0.3)
            sock.shutdown(socket.SHUT_WR)
            kept.append(sock)
            # The same with fewer replies queued than the server's cap, so only the
            # end-of-stream it has already read could still look "readable".
            sock = connect(server.port, small_buffers=True)
            send_until_stalled(sock, some, stall_s=0.3)
            sock.shutdown(socket.SHUT_WR)
            kept.append(sock)
        # Half-closed after a complete exchange, socket left open.
        sock = connect(server.port)
        sock.sendall(b"x" if protocol == "echo" else http_request())
        sock.shutdown(socket.SHUT_WR)
        kept.append(sock)
        # Vanished with a reset mid-request.
        sock = connect(server.port)
        sock.sendall(b"GET / HTTP/1.1\r\n")
        reset(sock)
    assert_still_serving(server, protocol)

    # Now nothing should be happening. A server spinning on one of those sockets burns
    # a whole core; an idle one uses next to nothing. (A bound on CPU, not on speed.)
    time.sleep(0.3)
    before = server.cpu_seconds()
    time.sleep(2.0)
    used = server.cpu_seconds() - before
    assert used < 0.5, f"idle server used {used:.2f} s of CPU in 2 s: busy loop?"
    assert_still_serving(server, protocol)
    for sock in kept:
        sock.close()
