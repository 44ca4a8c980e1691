"""A classroom course served by a real uvicorn on loopback (class streams are long-lived, and
several students follow one at once: that needs a server, not the in-process test client),
with an instructor, a class and helpers to make browsers for its students."""

import contextlib
import json
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from c10klab.config import Settings
from c10klab.main import create_app
from c10klab.people.service import add_instructor
from c10klab.people.store import PeopleStore
from c10klab.runs.store import RunStore
from tests.polling import poll
from tests.results.figures import a_result
from tests.serving import served

PASSWORD = "correct horse battery"


@dataclass
class Course:
    url: str
    settings: Settings
    store: RunStore
    people: PeopleStore
    streams: list["ClassStream"] = field(default_factory=list)

    def browser(self) -> httpx.Client:
        """A browser of its own (its own cookies); same-origin, as the guards want."""
        return httpx.Client(
            base_url=self.url,
            timeout=10,
            headers={"Origin": self.url, "Sec-Fetch-Site": "same-origin"},
        )

    def instructor(self, name: str = "Grace") -> httpx.Client:
        client = self.browser()
        answer = client.post("/api/auth/login", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 200, answer.text
        return client

    def student(self, code: str, name: str) -> httpx.Client:
        client = self.browser()
        answer = client.post("/api/classes/join", json={"code": code, "name": name})
        assert answer.status_code == 200, answer.text
        return client


@pytest.fixture
def course(tmp_path: Path, database_url: str) -> Iterator[Course]:
    settings = Settings(
        mode="classroom", db_path=tmp_path / "store.sqlite3", database_url=database_url
    )
    people = PeopleStore(settings.store)
    add_instructor(people, "Grace", PASSWORD)
    add_instructor(people, "Linus", PASSWORD)
    streams: list[ClassStream] = []

    def close_streams() -> None:  # uvicorn waits for open connections before it stops
        for stream in streams:
            stream.close()

    with served(create_app(settings), before_stop=close_streams) as url:
        course = Course(url, settings, RunStore(settings.store), people, streams)
        yield course


def make_class(
    instructor: httpx.Client, name: str = "Systems, Tuesday", **extra: Any
) -> dict[str, Any]:
    answer = instructor.post("/api/classes", json={"name": name, **extra})
    assert answer.status_code == 201, answer.text
    klass: dict[str, Any] = answer.json()
    return klass


def wait_until(condition: Callable[[], bool], timeout_s: float = 10.0) -> bool:
    return poll(condition, timeout_s) is not None


def result(
    qps: float,
    p99_us: float = 900.0,
    valid: bool = True,
    sigma: float | None = None,
    stable: bool = True,
) -> dict[str, Any]:
    """A finished run's result, with the figures the board and the CSV read; `sigma` is its
    runner's host noise, if it knew it; `stable` whether it was measured undisturbed."""
    noise = {"sigma": sigma, "runs": 10, "groups": 2, "measured_at": "2026-11-28T10:00:00+00:00"}
    return a_result(
        qps, p99_us, valid, stable=stable, host_noise=noise if sigma is not None else None
    )


class ClassStream:
    """One browser's open class stream, read in a thread over a plain socket (HTTP/1.0: no
    chunking), so that a test can hold several open and close one as a tab would."""

    def __init__(self, course: Course, client: httpx.Client, class_id: str) -> None:
        self.frames: list[tuple[str, Any]] = []
        self.status = 0
        self.ended = threading.Event()  # the server closed it
        cookie = "; ".join(f"{name}={value}" for name, value in client.cookies.items())
        host, port = course.url.removeprefix("http://").split(":")
        self._sock = socket.create_connection((host, int(port)))
        self._sock.sendall(
            f"GET /api/classes/{class_id}/events HTTP/1.0\r\nHost: {host}\r\n"
            f"Cookie: {cookie}\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        course.streams.append(self)

    def _read(self) -> None:
        reader = self._sock.makefile("rb")
        try:
            self.status = int(reader.readline().split()[1])
            while reader.readline() not in (b"\r\n", b"\n", b""):
                pass  # the headers
            fields: dict[str, str] = {}
            for raw in reader:
                line = raw.decode().rstrip("\r\n")
                if line:
                    if ": " in line and not line.startswith(":"):
                        key, value = line.split(": ", 1)
                        fields[key] = value
                    continue
                if "event" in fields:
                    self.frames.append((fields["event"], json_or_text(fields.get("data", ""))))
                fields = {}
        except OSError:
            pass  # closed by close()
        finally:
            self.ended.set()

    def of(self, event: str) -> list[Any]:
        return [data for name, data in list(self.frames) if name == event]

    def wait_for(self, condition: Callable[["ClassStream"], bool], timeout_s: float = 10) -> bool:
        return wait_until(lambda: condition(self), timeout_s)

    def close(self) -> None:
        """As a browser closing the tab: the connection goes."""
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()
        self._thread.join(timeout=5)


def json_or_text(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text
