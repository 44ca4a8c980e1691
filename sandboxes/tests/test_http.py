"""--protocol http: one fixed keep-alive 200 OK per request head, as real clients expect."""

from __future__ import annotations

import http.client
import random
import re
import shutil
import subprocess

import pytest
from conftest import Server, Variant
from helpers import (
    HttpReader,
    connect,
    http_request,
    recv_until_eof,
    send_in_background,
    split_at_random,
)

HEAD_LIMIT = 8192  # bytes, from ARCHITECTURE.md


@pytest.mark.smoke
def test_100_keep_alive_requests_on_one_connection(http_server: Server) -> None:
    """100 sequential requests on one connection, checked with a real HTTP client."""
    conn = http.client.HTTPConnection("127.0.0.1", http_server.port, timeout=60)
    try:
        first_socket = None
        bodies = set()
        for i in range(100):
            conn.request("GET", f"/hello/{i}", headers={"User-Agent": "c10k-conformance"})
            response = conn.getresponse()
            body = response.read()
            assert response.status == 200
            assert response.version == 11
            assert int(response.headers["Content-Length"]) == len(body) > 0
            assert not response.will_close, f"request {i}: server asked to close"
            first_socket = first_socket or conn.sock
            assert conn.sock is first_socket, f"request {i} needed a new connection"
            bodies.add(body)
        assert len(bodies) == 1, f"the fixed response changed: {bodies}"
    finally:
        conn.close()


def test_pipelined_requests_are_answered_in_order(http_server: Server) -> None:
    # 20 keep-alive requests and a final "Connection: close", all in one write: the
    # close must come back last, after exactly 20 keep-alive answers.
    requests = b"".join(http_request() for _ in range(20)) + http_request(close=True)
    with connect(http_server.port) as sock:
        sock.sendall(requests)
        reader = HttpReader(sock)
        responses = [reader.read_response() for _ in range(21)]
        assert reader.at_eof(), "server kept the connection open after Connection: close"
    assert [r.status for r in responses] == [200] * 21
    assert [r.closes for r in responses] == [False] * 20 + [True]


def test_pipelined_requests_split_at_random_points(http_server: Server, rng: random.Random) -> None:
    count = 300
    stream = b"".join(
        http_request(extra=f"X-Request: {i}\r\nX-Pad: {'p' * rng.randint(0, 500)}\r\n")
        for i in range(count)
    )
    with connect(http_server.port) as sock:
        sender = send_in_background(sock, split_at_random(stream, rng, 400))
        reader = HttpReader(sock)
        statuses = [reader.read_response().status for _ in range(count)]
        sender.join()
    assert statuses == [200] * count


def test_a_request_sent_one_byte_at_a_time(http_server: Server) -> None:
    with connect(http_server.port) as sock:
        for byte in http_request(close=True):
            sock.sendall(bytes([byte]))
        reader = HttpReader(sock)
        assert reader.read_response().status == 200
        assert reader.at_eof()


def test_connection_close_is_honoured(http_server: Server) -> None:
    # With a real client ...
    conn = http.client.HTTPConnection("127.0.0.1", http_server.port, timeout=60)
    conn.request("GET", "/", headers={"Connection": "close"})
    response = conn.getresponse()
    assert response.status == 200 and response.will_close
    response.read()
    conn.close()
    # ... and byte by byte: exactly one response, then the server closes.
    with connect(http_server.port) as sock:
        sock.sendall(http_request(close=True))
        reader = HttpReader(sock)
        raw_response = reader.read_response()
        assert raw_response.status == 200 and raw_response.closes
        assert reader.at_eof()


@pytest.mark.parametrize(
    ("request_bytes", "stays_open"),
    [
        (http_request(version="1.0"), False),
        (http_request(version="1.0", extra="Connection: Keep-Alive\r\n"), True),
        (http_request(extra="connection: CLOSE\r\n"), False),
    ],
    ids=["http1.0", "http1.0-keep-alive", "lower-case-close"],
)
def test_connection_header_rules(
    http_server: Server, request_bytes: bytes, stays_open: bool
) -> None:
    with connect(http_server.port) as sock:
        sock.sendall(request_bytes)
        reader = HttpReader(sock)
        assert reader.read_response().status == 200
        if stays_open:
            sock.sendall(http_request())
            assert reader.read_response().status == 200
        else:
            assert reader.at_eof()


def oversize_head(total: int) -> bytes:
    head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: "
    return head + b"a" * (total - len(head) - 4) + b"\r\n\r\n"


@pytest.mark.parametrize("total", [HEAD_LIMIT + 1, 9000, 64 * 1024])
def test_oversize_head_gets_431_then_close(http_server: Server, total: int) -> None:
    with connect(http_server.port) as sock:
        sock.sendall(oversize_head(total))
        data = recv_until_eof(sock)
    assert re.match(rb"HTTP/1\.1 431 ", data), data[:200]
    assert b"\r\nconnection: close\r\n" in data.lower()


def test_head_that_never_ends_gets_431(http_server: Server) -> None:
    with connect(http_server.port) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nX-Endless: " + b"b" * 20_000)
        data = recv_until_eof(sock)
    assert data.startswith(b"HTTP/1.1 431 "), data[:200]


def test_head_at_the_limit_is_served(http_server: Server) -> None:
    with connect(http_server.port) as sock:
        sock.sendall(oversize_head(HEAD_LIMIT) + http_request())
        reader = HttpReader(sock)
        assert reader.read_response().status == 200
        assert reader.read_response().status == 200


WRK_LINE = re.compile(r"^\s*(\d+) requests in ", re.M)
WRK_SOCKET_ERRORS = re.compile(r"Socket errors: (.*)")
WRK_NON_2XX = re.compile(r"Non-2xx or 3xx responses: (\d+)")


@pytest.mark.default_knobs
def test_wrk_completes_without_errors(http_server: Server, variant: Variant) -> None:
    wrk = shutil.which("wrk")
    if wrk is None:
        pytest.skip("wrk is not installed (apt-get install wrk)")
    # No more connections than the server serves at once: wrk counts a connection that
    # waits in the listen queue for the whole second as a timeout.
    connections = min(10, variant.concurrency)
    result = subprocess.run(
        [
            wrk,
            "-t1",
            f"-c{connections}",
            "-d1s",
            "--timeout",
            "10s",
            f"http://127.0.0.1:{http_server.port}/",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    requests = WRK_LINE.search(out)
    assert requests and int(requests.group(1)) > 0, out
    socket_errors = WRK_SOCKET_ERRORS.search(out)  # "connect 0, read 0, write 0, timeout 0"
    assert socket_errors is None or set(re.findall(r"\d+", socket_errors.group(1))) == {"0"}, out
    non_2xx = WRK_NON_2XX.search(out)
    assert non_2xx is None or int(non_2xx.group(1)) == 0, out
