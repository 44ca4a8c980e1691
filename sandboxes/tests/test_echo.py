"""--protocol echo: every byte the client sends comes back, in order, whatever the split."""

from __future__ import annotations

import random
import socket

import pytest
from conftest import Server, Variant
from helpers import (
    connect,
    echo_write_all_then_read,
    exchange,
    recv_until_eof,
    send_in_background,
    split_at_random,
    wait_until,
)

MiB = 1 << 20


def assert_echoes_byte_exact(server: Server, payload: bytes) -> None:
    # Small kernel buffers on both sides (see helpers.connect), and no reading until
    # everything is sent or the server stops taking bytes: from 1 MiB on, the server's
    # replies cannot all fit in its send buffer, so its writes come back short or with
    # EAGAIN and it must keep the rest queued and finish later.
    with connect(server.port, small_buffers=True) as sock:
        assert echo_write_all_then_read(sock, payload) == payload


@pytest.mark.parametrize(
    "size", [1, 2, 100, 511, 4096, 16383, 16384, 16385, 65536, 300_001, MiB - 1, MiB]
)
def test_random_payload_comes_back_byte_exact(
    echo_server: Server, rng: random.Random, size: int
) -> None:
    assert_echoes_byte_exact(echo_server, rng.randbytes(size))


@pytest.mark.default_knobs
def test_8_mib_payload_comes_back_byte_exact(echo_server: Server, rng: random.Random) -> None:
    assert_echoes_byte_exact(echo_server, rng.randbytes(8 * MiB))


@pytest.mark.smoke
def test_many_small_messages_split_at_random_points(
    echo_server: Server, rng: random.Random
) -> None:
    messages = [rng.randbytes(rng.randint(1, 300)) for _ in range(3000)]
    stream = b"".join(messages)
    chunks = split_at_random(stream, rng, 1500)
    read_sizes = [rng.randint(1, 4096) for _ in range(len(stream))]

    with connect(echo_server.port) as sock:
        sender = send_in_background(sock, chunks)
        received = bytearray()
        reads = iter(read_sizes)
        while len(received) < len(stream):
            chunk = sock.recv(next(reads))
            if not chunk:
                break
            received += chunk
        sender.join()

    assert len(received) == len(stream)
    assert received == stream


@pytest.mark.default_knobs
def test_1000_concurrent_connections_each_echo_correctly(
    echo_server: Server, variant: Variant, rng: random.Random
) -> None:
    # 1000, or as many as the server serves at once (c-iterative: 1, c-preforked: its
    # workers): the others would wait in the listen queue until one of these closes.
    count = min(1000, variant.concurrency)
    processes_before = len(echo_server.processes())
    socks = [connect(echo_server.port) for _ in range(count)]
    try:
        for round_ in range(2):
            order = list(range(len(socks)))
            rng.shuffle(order)
            messages = {i: f"round {round_} conn {i} ".encode() + rng.randbytes(64) for i in order}
            for i in order:  # every connection has a request in flight at once
                socks[i].sendall(messages[i])
            for i in reversed(order):
                assert exchange(socks[i], b"", len(messages[i])) == messages[i], f"conn {i}"
    finally:
        for sock in socks:
            sock.close()
    # A process per connection ends with its connection. (Waited for, not timed: under
    # ASan, 1000 children checking for leaks as they exit take a while on two cores.)
    assert wait_until(lambda: len(echo_server.processes()) <= processes_before), (
        f"{len(echo_server.processes()) - processes_before} processes left after the clients closed"
    )


def test_half_close_gets_everything_back_then_end_of_stream(
    echo_server: Server, rng: random.Random
) -> None:
    payload = rng.randbytes(200_000)
    with connect(echo_server.port) as sock:
        sender = send_in_background(sock, [payload])
        sender.join()
        sock.shutdown(socket.SHUT_WR)
        received = recv_until_eof(sock)
    assert received == payload
