"""c-epoll's http body for the zero-copy lesson: --body-bytes N sent by --send copy|sendfile.

Both ways must put the same bytes on the wire: "Hello from C10K Lab\\n" repeated and cut at N,
framed by Content-Length. With sendfile a reply is its head from memory and then its body
from a file, so pipelined requests are answered one at a time; the tests check that order
holds, that slow readers get every byte, and that a client that pipelines requests for big
bodies and reads nothing cannot make the server's memory grow.
"""

from __future__ import annotations

import http.client
import time

import pytest
from conftest import StartServer
from helpers import HttpReader, connect, http_request, send_until_stalled

PATTERN = b"Hello from C10K Lab\n"
MiB = 1 << 20
SEND_MODES = ["copy", "sendfile"]

# Every test here is c-epoll's, with its default knobs, once for each way of sending a body.
pytestmark = [
    pytest.mark.servers("c-epoll"),
    pytest.mark.default_knobs,
    pytest.mark.parametrize("send", SEND_MODES),
]


def expected_body(size: int) -> bytes:
    return (PATTERN * (size // len(PATTERN) + 1))[:size]


@pytest.mark.parametrize("size", [1, 20, 4096, 65537, MiB])
def test_body_bytes_are_exact(start_server: StartServer, send: str, size: int) -> None:
    server = start_server("http", ["--send", send, "--body-bytes", str(size)])
    assert f"send={send} body_bytes={size}" in server.stderr(), "start-up line lacks the body"
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        for _ in range(3):  # keep-alive: each reply is complete, or the next one misparses
            conn.request("GET", "/file")
            response = conn.getresponse()
            body = response.read()
            assert response.status == 200
            assert int(response.headers["Content-Length"]) == size
            assert body == expected_body(size)
            assert not response.will_close
    finally:
        conn.close()


def test_pipelined_big_bodies_arrive_in_order_to_a_slow_reader(
    start_server: StartServer, send: str
) -> None:
    # Small buffers on both sides: every body goes out in many short sends, with EAGAIN in
    # between, while later requests wait in the server.
    size = MiB + 3
    server = start_server("http", ["--send", send, "--body-bytes", str(size)])
    requests = b"".join(http_request() for _ in range(8)) + http_request(close=True)
    with connect(server.port, small_buffers=True) as sock:
        sock.sendall(requests)
        reader = HttpReader(sock)
        responses = [reader.read_response() for _ in range(9)]
        assert reader.at_eof(), "server kept the connection open after Connection: close"
    assert [r.status for r in responses] == [200] * 9
    assert [r.closes for r in responses] == [False] * 8 + [True]
    assert all(r.body == expected_body(size) for r in responses)


def test_a_client_that_never_reads_cannot_grow_the_server(
    start_server: StartServer, send: str
) -> None:
    # 200,000 pipelined requests (13 MB: more than the kernels on both sides buffer) for
    # 1 MiB each would be 200 GB of replies. The server must stop answering (and then
    # reading) after a reply or two, and keep serving others.
    server = start_server("http", ["--send", send, "--body-bytes", str(MiB)])
    rss_before = server.rss_bytes()
    flood = http_request() * 200_000
    with connect(server.port, small_buffers=True) as greedy:
        sent = send_until_stalled(greedy, flood)
        assert sent < len(flood), "the server read 200,000 requests without sending replies"
        time.sleep(0.5)
        grown = server.rss_bytes() - rss_before
        assert grown < 16 * MiB, f"server grew by {grown / MiB:.1f} MiB for one greedy client"

        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        try:
            conn.request("GET", "/")
            response = conn.getresponse()
            assert response.status == 200
            assert response.read() == expected_body(MiB)
        finally:
            conn.close()
