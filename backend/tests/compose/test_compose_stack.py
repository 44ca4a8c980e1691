"""The hosting stack as an instructor starts it: docker-compose.yml up (the API, a runner and
PostgreSQL), the classroom's browser end-to-end tests on it (a class taught live; exercises
assigned, answered and graded), an instructor made on the command line, a class and a student
through the API, a c-epoll and a c-io-uring benchmark and a syscall profile run through it, a
busy class, the runners scaled to two, then everything removed, volumes too. `make
test-compose` runs this (the images and the frontend are built first); it needs docker-compose
(Debian's 1.29, or compose v2) and the engine."""

import json
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import docker
import httpx
import pytest

from c10klab.config import REPO_ROOT, Settings
from c10klab.content.service import load_lessons, read_experiments
from c10klab.people.join_links import published_addresses
from c10klab.runner.plan import LABEL, store_label
from c10klab.runs.service import parse_sse
from tests.serving import free_port

pytestmark = [pytest.mark.compose, pytest.mark.docker]

PROJECT = "c10klab-smoke"
PASSWORD = "compose-smoke-password"
RUN = {"connections": 10, "duration_s": 2, "warmup_s": 1}
E2E_TIMEOUT_S = 900


def compose_command() -> list[str]:
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    if subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0:
        return ["docker", "compose"]
    pytest.fail("neither docker-compose nor `docker compose` is installed (make host-test)")


class Stack:
    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        # Published on the host's addresses, as a class is served: its students' browsers (one
        # in a network namespace of its own, e2e/room.mjs) open the join link on one of them,
        # which `make compose-up` names to the API as this does.
        # No noise measurement at each runner's start: 45 s per runner, tested without compose.
        self.env = os.environ | {
            "C10K_PUBLISH": str(port),
            "C10K_HOST_ADDRESSES": json.dumps(published_addresses(str(port))),
            "C10K_CALIBRATION_RUNS": "0",
        }
        # The label on the benchmark containers of each runner the stack has had (each runner
        # has its own: its store and its name, the container's host name).
        self.benchmark_labels: set[str] = set()

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

    def service(self, name: str) -> list[Any]:
        """The service's containers, running or not."""
        labels = [f"com.docker.compose.project={PROJECT}", f"com.docker.compose.service={name}"]
        return docker.from_env().containers.list(all=True, filters={"label": labels})

    def note_runners(self) -> None:
        for runner in self.service("runner"):
            env = dict(e.split("=", 1) for e in runner.attrs["Config"]["Env"])
            named = Settings(database_url=env["C10K_DATABASE_URL"], runner_id=hostname(runner))
            self.benchmark_labels.add(f"{LABEL}={store_label(named)}")

    def containers(self) -> list[Any]:
        project = f"com.docker.compose.project={PROJECT}"
        engine = docker.from_env()
        stack = engine.containers.list(all=True, filters={"label": project}, sparse=True)
        for label in sorted(self.benchmark_labels):
            stack += engine.containers.list(all=True, filters={"label": label}, sparse=True)
        return stack


def hostname(container: Any) -> str:
    name: str = container.attrs["Config"]["Hostname"]
    return name


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
        stack.note_runners()
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
                stack.note_runners()
                return
        except (httpx.HTTPError, json.JSONDecodeError):
            pass
        time.sleep(1)
    raise AssertionError(f"the stack did not become ready: {health}\n{stack.compose('logs')}")


def add_instructor(stack: Stack, name: str) -> None:
    """As the host's admin does: on the command line, in the api container."""
    command = ("exec", "-T", "api", "python3", "-m", "c10klab", "instructor", "add", name)
    added = stack.compose(*command, stdin=PASSWORD + "\n")
    assert f"instructor {name!r} added" in added


def run_browser_test(stack: Stack, suite: str, instructor: str) -> None:
    """Runs the frontend's npm script `suite` (real Chromium, frontend/e2e/) against this stack
    as `instructor`, made first on the command line."""
    add_instructor(stack, instructor)
    env = os.environ | {
        "E2E_BASE_URL": stack.base,
        "E2E_INSTRUCTOR": instructor,
        "E2E_PASSWORD": PASSWORD,
    }
    done = subprocess.run(
        ["npm", "run", "--silent", suite],
        cwd=REPO_ROOT / "frontend",
        env=env,
        capture_output=True,
        text=True,
        timeout=E2E_TIMEOUT_S,
    )
    if done.returncode != 0:
        logs = stack.compose("logs", "--no-color", "--tail", "40", "runner", "api")
        pytest.fail(f"{done.stdout[-6000:]}\n{done.stderr[-3000:]}\n--- stack logs\n{logs}")


def test_a_class_in_a_real_browser(stack: Stack) -> None:
    """The classroom's browser end-to-end test (frontend/e2e/classroom.e2e.mjs, real Chromium)
    on this stack, first, while it is fresh: an instructor and students in browsers, the
    class's runs measured by the stack's runner. One stack serves it and the tests below."""
    run_browser_test(stack, "e2e:classroom", "Lovelace")


def test_assignments_and_a_gradebook_in_a_real_browser(stack: Stack) -> None:
    """frontend/e2e/gradebook.e2e.mjs on this stack: an instructor assigns two exercises, a
    student passes one and fails the other (each answer built and checked by the stack's
    runner), and the instructor's gradebook shows both and opens the failed answer."""
    run_browser_test(stack, "e2e:gradebook", "Noether")


def run_to_end(client: httpx.Client, server: str, **extra: Any) -> list[dict[str, Any]]:
    created = client.post("/api/runs", json=RUN | {"server": server} | extra)
    assert created.status_code == 202, created.text
    events = client.get(f"/api/runs/{created.json()['id']}/events", timeout=120)
    return parse_sse(events.text)


def test_a_class_runs_epoll_and_io_uring_benchmarks_on_the_stack(stack: Stack) -> None:
    add_instructor(stack, "Grace")

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

        # The runner in its container starts the syscall counter beside the server too.
        counted = run_to_end(ana, "c-epoll", profile="syscalls")[-1]["data"]["syscalls"]
        assert counted["refused"] is None and 1.5 < counted["calls_per_request"] < 3, counted

        mine = ana.get("/api/runs").json()
        assert {r["server"] for r in mine} == {"c-epoll", "c-io-uring"}
        assert all(r["status"] == "done" for r in grace.get("/api/runs").json())


# What a class does at once, for this long: the course answers no 5xx throughout.
BUSY_S = 45


def first_experiment(slug: str) -> dict[str, str]:
    """A lesson and its first experiment's key, as the course lists them."""
    lesson = next(x for x in load_lessons(Settings().content_dir) if x.slug == slug)
    return {"lesson": slug, "experiment": read_experiments(lesson.markdown)[0].key}


LESSON = first_experiment("01-c10k-problem")
QUICK_RUN = {"server": "c-epoll", "connections": 10, "duration_s": 1, "warmup_s": 0.5}


class Busy:
    """Clients that work until told to stop, and every 5xx any of them got."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.stop = threading.Event()
        self.errors: list[str] = []
        self.answers = 0
        self.runs_done: list[str] = []  # by id

    def client(self) -> httpx.Client:
        # uvicorn closes a connection idle for 5 s: the client lets it go first, or it may
        # send a request on a connection the server is just closing.
        keep = httpx.Limits(keepalive_expiry=2)
        return httpx.Client(base_url=self.base, timeout=60, limits=keep)

    def check(self, answer: httpx.Response) -> httpx.Response:
        self.answers += 1  # (a lost count under a race is harmless: it is only reported)
        if answer.status_code >= 500:
            request = answer.request
            self.errors.append(f"{answer.status_code} {request.method} {request.url.path}")
        return answer

    def read_the_class(self, teacher: httpx.Client, class_id: str) -> None:
        parts = ["", "/roster", "/queue", "/board", "/presentation"]
        while not self.stop.is_set():
            for part in parts:
                self.check(teacher.get(f"/api/classes/{class_id}{part}"))

    def present(self, teacher: httpx.Client, class_id: str) -> None:
        path = f"/api/classes/{class_id}"
        while not self.stop.wait(1):
            self.check(teacher.put(f"{path}/presentation", json=LESSON))
            self.check(teacher.post(f"{path}/pause"))
            self.stop.wait(0.5)
            self.check(teacher.post(f"{path}/resume"))
            self.check(teacher.delete(f"{path}/presentation"))

    def follow(self, someone: httpx.Client, class_id: str) -> None:
        """Opens the class stream, reads a little, closes it: presence comes and goes."""
        while not self.stop.is_set():
            with someone.stream("GET", f"/api/classes/{class_id}/events") as stream:
                self.check(stream)
                for _ in zip(range(3), stream.iter_lines(), strict=False):
                    pass

    def study(self, student: httpx.Client) -> None:
        while not self.stop.is_set():
            self.check(student.put("/api/progress/current", json={"lesson": LESSON["lesson"]}))
            self.check(student.put(f"/api/progress/read/{LESSON['lesson']}"))
            created = self.check(student.post("/api/runs", json=QUICK_RUN | LESSON))
            if created.status_code != 202:
                continue  # over a limit (a 429 says when), or the class ended
            run_id = created.json()["id"]
            events = self.check(student.get(f"/api/runs/{run_id}/events"))
            frames = parse_sse(events.text) if events.status_code == 200 else []
            if frames and frames[-1]["event"] == "done":
                self.runs_done.append(run_id)


def test_a_busy_class_gets_no_server_error(stack: Stack) -> None:
    """Six students run, read and mark lessons and follow the class stream while their
    instructor reads every class endpoint, presents, pauses and resumes; then the class ends.
    Two 500s this found: the class's queue read in two moments (a run queued in between had
    no place), and a write refused while the root runner's SQLite had just made its WAL file
    (group-writable only after its fchmod)."""
    add_instructor(stack, "Hopper")
    busy = Busy(stack.base)
    teacher = busy.client()
    assert teacher.post("/api/auth/login", json={"name": "Hopper", "password": PASSWORD}).is_success
    klass = teacher.post("/api/classes", json={"name": "Busy class"}).json()
    students = [busy.client() for _ in range(6)]
    for i, student in enumerate(students):
        joined = student.post(
            "/api/classes/join", json={"code": klass["join_code"], "name": f"S{i}"}
        )
        assert joined.status_code == 200, joined.text
    work = [
        *(lambda: busy.read_the_class(teacher, klass["id"]) for _ in range(3)),
        lambda: busy.present(teacher, klass["id"]),
        *(lambda s=s: busy.follow(s, klass["id"]) for s in students[:3]),
        lambda: busy.follow(teacher, klass["id"]),
        *(lambda s=s: busy.study(s) for s in students),
    ]
    with ThreadPoolExecutor(max_workers=len(work)) as pool:
        running = [pool.submit(job) for job in work]
        time.sleep(BUSY_S)
        ended = busy.check(teacher.post(f"/api/classes/{klass['id']}/end"))
        busy.stop.set()
        for job in running:
            job.result(timeout=90)
    assert ended.status_code == 200, ended.text
    assert busy.errors == [], f"{len(busy.errors)} of {busy.answers} answers"
    print(f"{busy.answers} answers, no 5xx; {len(busy.runs_done)} runs done")
    assert len(busy.runs_done) >= 3, "the students' runs went through meanwhile"


def live_runners(stack: Stack) -> list[dict[str, Any]]:
    runners: list[dict[str, Any]] = httpx.get(stack.base + "/api/health").json()["runners"]
    return [r for r in runners if r["state"] in ("idle", "running")]


def test_runners_scale_and_each_registers_under_its_host_name(stack: Stack) -> None:
    """`docker-compose up -d --scale runner=2`: a second runner container serves the same
    store, and /api/health lists both, live, each under its container's host name, on one
    machine (the engine's), pinned to the same CPUs: each says it shares them with the other."""
    stack.compose("up", "-d", "--scale", "runner=2")
    try:
        names = {hostname(c) for c in stack.service("runner")}
        assert len(names) == 2, names
        stack.note_runners()
        deadline = time.monotonic() + 60
        while {r["id"] for r in live_runners(stack)} != names and time.monotonic() < deadline:
            time.sleep(1)
        live = live_runners(stack)
        assert {r["id"] for r in live} == names, live
        assert all(r["ready"] for r in live) and len({r["host"] for r in live}) == 1, live
        for runner in live:
            assert runner["shares_cpus_with"] == sorted(names - {runner["id"]}), live
    finally:
        stack.compose("up", "-d", "--scale", "runner=1")


def test_only_the_api_has_a_route_out(stack: Stack) -> None:
    """The API, the runner and the database meet on a network with no route out; the API
    alone is on a second one, for its published port."""
    engine = docker.from_env()

    def internal(container: Any) -> dict[str, bool]:
        networks = container.attrs["NetworkSettings"]["Networks"]
        return {name: engine.networks.get(name).attrs["Internal"] for name in networks}

    store, web = f"{PROJECT}_store", f"{PROJECT}_web"
    assert internal(stack.service("api")[0]) == {store: True, web: False}
    for service in ("runner", "db"):
        assert [internal(c) for c in stack.service(service)] == [{store: True}], service
