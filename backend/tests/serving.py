"""An app served by a real uvicorn on loopback, for tests that need a server, not the in-process
client: long-lived streams several clients follow at once, or headers as a browser sends them."""

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import uvicorn

START_TIMEOUT_S = 20


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def served(app: Any, before_stop: Any = None) -> Iterator[str]:
    """`app` on 127.0.0.1 at a free port, for as long as the block runs: its base URL.
    `before_stop` is called first on the way out (uvicorn waits for open connections)."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + START_TIMEOUT_S
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        if before_stop is not None:
            before_stop()
        server.should_exit = True
        thread.join(timeout=10)
