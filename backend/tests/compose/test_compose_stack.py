"""The hosting stack as an instructor starts it: docker-compose.yml up, an instructor made on
the command line, a class and a student through the API, a c-epoll and a c-io-uring benchmark
run through it, then everything removed, volumes too. `make test-compose` runs this (the images
are built first); it needs docker-compose (Debian's 1.29, or compose v2) and the engine."""

import hashlib
import json
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import docker
import httpx
import pytest

from c10klab.config import REPO_ROOT
from c10klab.runner.plan import LABEL
from c10klab.runs.service import parse_sse

pytestmark = [pytest.mark.compose, pytest.mark.docker]

PROJECT = "c10klab-smoke"
PASSWORD = "compose-smoke-password"
RUN = {"connections": 10, "duration_s": 2, "warmup_s": 1}
# The runner inside the stack labels its containers with the hash of its store's path.
STACK_STORE = "/data/c10klab.sqlite3"


def compose_command() -> list[str]:
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    if subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0:
        return ["docker", "compose"]
    pytest.fail("neither docker-compose nor `docker compose` is installed (make host-test)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Stack:
    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.env = os.environ | {"C10K_PUBLISH": f"127.0.0.1:{port}"}

    def compose(self, *args: str, stdin: str | None = None) -> str:
        done = subprocess.run(
            [*compose_command(), "-p", PROJECT, *args],
            cwd=REPO_ROOT,
            env=self.env,
            input=stdin,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, f"compose {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
        return done.stdout

    def containers(self) -> list[Any]:
        project = f"com.docker.compose.project={PROJECT}"
        engine = docker.from_env()
        stack = engine.containers.list(all=True, filters={"label": project})
        return stack + engine.containers.list(all=True, filters={"label": benchmark_label()})


def benchmark_label() -> str:
    return f"{LABEL}={hashlib.sha256(STACK_STORE.encode()).hexdigest()[:12]}"


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    if not (REPO_ROOT / "frontend" / "dist" / "index.html").is_file():
        pytest.fail("the frontend is not built: `make frontend` (make test-compose does)")
    stack = Stack(free_port())
    stack.compose("down", "--volumes", "--remove-orphans")  # a stack a killed run left
    stack.compose("build")
    stack.compose("up", "-d")
    try:
        wait_ready(stack)
        yield stack
    finally:
        logs = stack.compose("logs", "--no-color", "--tail", "40")
        stack.compose("down", "--volumes", "--remove-orphans")
        Path(REPO_ROOT / "var").mkdir(exist_ok=True)
        (REPO_ROOT / "var" / "compose-smoke.log").write_text(logs)
    assert stack.containers() == [], "containers left behind"


def wait_ready(stack: Stack, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    health: Any = None
    while time.monotonic() < deadline:
        try:
            health = httpx.get(stack.base + "/api/health", timeout=5).json()
            if health["ready"]:
                return
        except (httpx.HTTPError, json.JSONDecodeError):
            pass
        time.sleep(1)
    raise AssertionError(f"the stack did not become ready: {health}\n{stack.compose('logs')}")


def run_to_end(client: httpx.Client, server: str) -> list[dict[str, Any]]:
    created = client.post("/api/runs", json=RUN | {"server": server})
    assert created.status_code == 202, created.text
    events = client.get(f"/api/runs/{created.json()['id']}/events", timeout=120)
    return parse_sse(events.text)


def test_a_class_runs_epoll_and_io_uring_benchmarks_on_the_stack(stack: Stack) -> None:
    added = stack.compose(
        "exec",
        "-T",
        "api",
        "python3",
        "-m",
        "c10klab",
        "instructor",
        "add",
        "Grace",
        stdin=PASSWORD + "\n",
    )
    assert "instructor 'Grace' added" in added

    with httpx.Client(base_url=stack.base) as grace, httpx.Client(base_url=stack.base) as ana:
        assert grace.post("/api/runs", json={"server": "c-epoll"}).status_code == 401
        login = grace.post("/api/auth/login", json={"name": "Grace", "password": PASSWORD})
        assert login.status_code == 200, login.text
        klass = grace.post("/api/classes", json={"name": "Compose smoke"}).json()
        joined = ana.post("/api/classes/join", json={"code": klass["join_code"], "name": "Ana"})
        assert joined.status_code == 200 and joined.json()["class"]["name"] == "Compose smoke"

        for server in ("c-epoll", "c-io-uring"):
            frames = run_to_end(ana, server)
            kinds = [f["event"] for f in frames]
            assert kinds[0] == "queued" and "started" in kinds, kinds
            done = frames[-1]
            assert done["event"] == "done", done["data"]
            assert done["data"]["valid"], done["data"]["invalid_reason"]
            assert (
                done["data"]["summary"]["qps"] > 1000 and done["data"]["server"]["exit_code"] == 0
            )
            assert done["data"]["provenance"]["server_image"]["tag"] == f"c10klab/server:{server}"

        mine = ana.get("/api/runs").json()
        assert {r["server"] for r in mine} == {"c-epoll", "c-io-uring"}
        assert all(r["status"] == "done" for r in grace.get("/api/runs").json())
