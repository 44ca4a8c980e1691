"""`python -m c10klab up` as `make up` runs it: a real supervisor, API and runner process, real
containers. The runner is killed with SIGKILL in the middle of a run; the API, running as an
unprivileged user with no way to the Docker socket, keeps answering throughout.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import docker
import pytest

from c10klab.config import Settings
from c10klab.runner.plan import LABEL, store_label
from c10klab.runs.service import parse_sse
from c10klab.supervisor import API_USER
from tests.polling import poll
from tests.serving import free_port

pytestmark = pytest.mark.docker

DOCKER_SOCKET = "/var/run/docker.sock"
LONG_RUN = {"server": "c-epoll", "connections": 10, "duration_s": 30, "warmup_s": 0}
SHORT_RUN = {"server": "c-epoll", "connections": 10, "duration_s": 1, "warmup_s": 0}


@dataclass
class Course:
    process: subprocess.Popen[bytes]
    base: str
    settings: Settings
    log: Path

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                text = answer.read().decode()
                status = answer.status
        except urllib.error.HTTPError as refused:
            return refused.code, json.loads(refused.read() or b"null")
        return status, parse_sse(text) if path.endswith("/events") else json.loads(text)

    def child(self, role: str) -> int:
        """The pid of the supervisor's `api` or `runner` child."""
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
                cmdline = (stat.parent / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if int(fields[1]) == self.process.pid and role.encode() in cmdline:
                return int(stat.parent.name)
        raise AssertionError(f"no {role} child of the supervisor; log:\n{self.log.read_text()}")


def wait_until(what: str, check: Any, timeout_s: float = 60) -> Any:
    found = poll(check, timeout_s, every_s=0.25)
    if found:
        return found
    raise AssertionError(f"{what}: not within {timeout_s} s")


@pytest.fixture
def course() -> Iterator[Course]:
    if os.geteuid() != 0:
        pytest.skip("`make up` as root is what this checks; run as root")
    # Under /tmp itself: pytest's own tmp_path sits in a folder only root may enter.
    work = Path(tempfile.mkdtemp(prefix="c10klab-up-", dir="/tmp"))
    port = free_port()
    settings = Settings(db_path=work / "store.sqlite3", port=port)
    log = work / "course.log"
    env = os.environ | {
        "C10K_PORT": str(port),
        "C10K_DB_PATH": str(settings.db_path),
        "C10K_CALIBRATION_RUNS": "0",
    }
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "c10klab", "up"], env=env, stdout=out, stderr=subprocess.STDOUT
        )
    course = Course(process, f"http://127.0.0.1:{port}", settings, log)
    try:
        try:
            wait_until("the course is ready", lambda: ready(course), timeout_s=90)
        except AssertionError as late:
            raise AssertionError(f"{late}; its log:\n{log.read_text()[-3000:]}") from None
        yield course
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)


def ready(course: Course) -> bool:
    try:
        status, health = course.call("GET", "/api/health")
    except OSError:
        return False
    return status == 200 and bool(health["ready"])


def containers_of(settings: Settings, role: str | None = None) -> list[Any]:
    labels = [f"{LABEL}={store_label(settings)}"] + ([f"c10klab.role={role}"] if role else [])
    return docker.from_env().containers.list(all=True, filters={"label": labels}, sparse=True)


def proc_status(pid: int) -> dict[str, str]:
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return dict(line.split(":\t", 1) for line in lines if ":\t" in line)


def test_the_api_runs_unprivileged_with_no_way_to_docker(course: Course) -> None:
    api = proc_status(course.child("api"))
    uids = api["Uid"].split()
    assert uids and all(uid != "0" for uid in uids), api["Uid"]
    assert int(uids[0]) == int(subprocess.check_output(["id", "-u", API_USER]))
    docker_gid = subprocess.check_output(["getent", "group", "docker"]).split(b":")[2].decode()
    assert docker_gid not in api["Groups"].split()
    probe = "import socket; socket.socket(socket.AF_UNIX).connect('/var/run/docker.sock')"
    as_api = subprocess.run(
        [sys.executable, "-c", probe], user=int(uids[0]), extra_groups=[], capture_output=True
    )
    assert as_api.returncode != 0 and b"PermissionError" in as_api.stderr
    runner = proc_status(course.child("runner"))
    assert runner["Uid"].split()[0] == "0"  # only the runner holds the socket
    assert Path(DOCKER_SOCKET).is_socket()


def test_a_runner_killed_mid_run_fails_its_run_and_comes_back(course: Course) -> None:
    status, created = course.call("POST", "/api/runs", LONG_RUN)
    assert status == 202, created
    run_id = created["id"]

    def measuring() -> bool:
        _, run = course.call("GET", f"/api/runs/{run_id}")
        # The load generator starts last (after the server and the observer beside it).
        return run["status"] == "running" and containers_of(course.settings, "loadgen") != []

    wait_until("the run is measuring", measuring)
    time.sleep(2)
    old_runner = course.child("runner")
    os.kill(old_runner, signal.SIGKILL)
    killed_at = time.monotonic()

    # The API keeps answering while the runner is gone and comes back.
    status, health = course.call("GET", "/api/health")
    assert status == 200 and health["status"] == "ok"
    status, frames = course.call("GET", f"/api/runs/{run_id}/events")  # ends by itself
    assert status == 200 and frames[-1]["event"] == "failed", frames[-1]
    assert time.monotonic() - killed_at < 30
    reason = frames[-1]["data"]["reason"]
    assert "runner" in reason and "stopped" in reason, reason
    _, run = course.call("GET", f"/api/runs/{run_id}")
    assert run["status"] == "failed"

    def new_runner() -> bool:
        try:
            return course.child("runner") != old_runner
        except AssertionError:  # between the old one's death and the new one's start
            return False

    wait_until("a new runner", new_runner)
    wait_until("its containers are removed", lambda: containers_of(course.settings) == [])
    wait_until("the course is ready again", lambda: ready(course))

    status, created = course.call("POST", "/api/runs", SHORT_RUN)
    assert status == 202
    _, frames = course.call("GET", f"/api/runs/{created['id']}/events")
    assert frames[-1]["event"] == "done" and frames[-1]["data"]["valid"], frames[-1]["data"]
    assert "exited with code -9" in course.log.read_text()
