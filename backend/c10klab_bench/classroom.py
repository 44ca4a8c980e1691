"""`make bench-classroom`: a class of 30 follows a presentation and runs lesson 1's experiment.

It starts the course as `make up` does (supervisor, unprivileged API, runner, real containers)
in classroom mode on a throwaway store. An instructor makes a class; 30 simulated students
(async HTTP clients) join and each opens the class stream, as the course page does, and keeps
it open to the end. Then:

1. Present: the instructor starts lesson 1's experiment, and once it is measuring, presses
   Present on it. Timed: from the instructor's request to the first measured point (a relayed
   `progress` event) on each student's stream.
2. The class runs the experiment: every student submits lesson 1's experiment at the same
   moment and follows its own run's event stream to its result. Timed: each student's wait
   from submitting to their result.

Meanwhile the API process's CPU time and resident memory are sampled from /proc every second.

Written to results/classroom.md: Present → first point on every stream (median and max over the
30), class-stream drops (must be 0), each student's wait to their result (median, max), and the
API's CPU and memory while the class was on.

    make bench-classroom          (Docker and the images needed; about six minutes)
"""

import asyncio
import json
import os
import shutil
import signal
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import yaml

from c10klab.config import REPO_ROOT
from c10klab_bench.hosting import PASSWORD, free_port, start_course, wait_ready

STUDENTS = 30
LESSON = "01-c10k-problem"
OUT = REPO_ROOT / "results" / "classroom.md"
TICK = os.sysconf("SC_CLK_TCK")


@dataclass
class Follower:
    """One student's class stream: when each relayed run event came, and whether it broke."""

    name: str
    client: httpx.AsyncClient
    class_id: str
    first_point_at: float | None = None
    presented_run: str | None = None
    drops: list[str] = field(default_factory=list)
    connected: asyncio.Event = field(default_factory=asyncio.Event)

    def take(self, event: str, data: Any) -> None:
        if event == "presentation":
            self.presented_run = (data or {}).get("run_id")
        elif (
            event == "run_event"
            and self.first_point_at is None
            and data["run_id"] == self.presented_run
            and data["type"] == "progress"
        ):
            self.first_point_at = time.monotonic()

    async def follow(self, stop: asyncio.Event) -> None:
        """Hold the stream open until `stop`; any end before that is a drop."""
        path = f"/api/classes/{self.class_id}/events"
        while not stop.is_set():
            try:
                async with self.client.stream("GET", path, timeout=None) as stream:
                    self.connected.set()
                    event = ""
                    async for line in stream.aiter_lines():
                        if line.startswith("event: "):
                            event = line[7:]
                        elif line.startswith("data: "):
                            self.take(event, json.loads(line[6:]))
                    if not stop.is_set():
                        self.drops.append(f"{self.name}: the class stream ended")
            except httpx.HTTPError as cut:
                if not stop.is_set():
                    self.drops.append(f"{self.name}: {cut!r}")
            await asyncio.sleep(0.5)


def api_pid(supervisor: int) -> int:
    """The supervisor's child serving the API (`python -m c10klab api`)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        if ppid == supervisor and b"api" in argv:
            return int(entry.name)
    raise SystemExit("no API process under the supervisor")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


async def sample_api(
    pid: int, stop: asyncio.Event, samples: list[tuple[float, float, int]]
) -> None:
    while not stop.is_set():
        samples.append((time.monotonic(), cpu_seconds(pid), rss_bytes(pid)))
        await asyncio.sleep(1.0)


async def run_to_result(client: httpx.AsyncClient, body: dict[str, Any]) -> tuple[float, str]:
    """Submit a run and follow its event stream to its end: seconds taken, and how it ended."""
    started = time.monotonic()
    answer = await client.post("/api/runs", json=body)
    answer.raise_for_status()
    path = f"/api/runs/{answer.json()['id']}/events"
    ending = "stream ended early"
    async with client.stream("GET", path, timeout=None) as stream:
        async for line in stream.aiter_lines():
            if line in ("event: done", "event: failed"):
                ending = line[7:]
                break
    return time.monotonic() - started, ending


async def wait_until_measuring(client: httpx.AsyncClient, run_id: str) -> None:
    async with client.stream("GET", f"/api/runs/{run_id}/events", timeout=None) as stream:
        async for line in stream.aiter_lines():
            if line == "event: progress":
                return
            if line in ("event: done", "event: failed"):
                raise SystemExit(f"the instructor's run {run_id} ended before it measured")


async def drive(base: str, supervisor: int) -> dict[str, Any]:
    await wait_ready(base)
    teacher = httpx.AsyncClient(base_url=base, timeout=60)
    login = await teacher.post("/api/auth/login", json={"name": "Grace", "password": PASSWORD})
    login.raise_for_status()
    klass = (await teacher.post("/api/classes", json={"name": "Bench class"})).json()
    experiment = (await teacher.get(f"/api/lessons/{LESSON}")).json()["experiments"][0]
    run_body = {"lesson": LESSON, "experiment": experiment["key"]} | {
        k: v for k, v in yaml_fields(experiment["source"]).items() if k != "title"
    }

    followers = []
    for n in range(STUDENTS):
        client = httpx.AsyncClient(base_url=base, timeout=60)
        joined = await client.post(
            "/api/classes/join", json={"code": klass["join_code"], "name": f"Student {n + 1:02}"}
        )
        joined.raise_for_status()
        followers.append(Follower(f"Student {n + 1:02}", client, klass["id"]))
    stop = asyncio.Event()
    following = [asyncio.create_task(f.follow(stop)) for f in followers]
    await asyncio.gather(*(f.connected.wait() for f in followers))

    samples: list[tuple[float, float, int]] = []
    sampler = asyncio.create_task(sample_api(api_pid(supervisor), stop, samples))

    # 1. Present a run that is measuring.
    shown = (await teacher.post("/api/runs", json=run_body)).json()["id"]
    await wait_until_measuring(teacher, shown)
    pressed = time.monotonic()
    present = await teacher.put(
        f"/api/classes/{klass['id']}/presentation",
        json={"lesson": LESSON, "experiment": experiment["key"], "run_id": shown},
    )
    present.raise_for_status()
    deadline = pressed + 30
    while any(f.first_point_at is None for f in followers) and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    to_first_point = [f.first_point_at - pressed for f in followers if f.first_point_at]
    missed = [f.name for f in followers if f.first_point_at is None]

    # 2. Every student runs the experiment at once.
    results = await asyncio.gather(*(run_to_result(f.client, run_body) for f in followers))
    stop.set()
    for task in following:
        task.cancel()
    await asyncio.gather(*following, return_exceptions=True)
    await sampler
    for f in followers:
        await f.client.aclose()
    await teacher.aclose()
    return {
        "to_first_point": to_first_point,
        "missed": missed,
        "drops": [d for f in followers for d in f.drops],
        "waits": [seconds for seconds, _ in results],
        "endings": [ending for _, ending in results],
        "samples": samples,
        "run": run_body,
    }


def yaml_fields(source: str) -> dict[str, Any]:
    fields: dict[str, Any] = yaml.safe_load(source)
    return fields


def report(outcome: dict[str, Any]) -> str:
    firsts = outcome["to_first_point"]
    waits = sorted(outcome["waits"])
    samples = outcome["samples"]
    (t0, cpu0, _), (t1, cpu1, _) = samples[0], samples[-1]
    cpu_share = (cpu1 - cpu0) / (t1 - t0) if t1 > t0 else 0.0
    peak_rss = max(rss for *_, rss in samples)
    done = outcome["endings"].count("done")
    run = outcome["run"]
    lines = [
        f"# Classroom: a class of {STUDENTS} follows a presentation and runs lesson 1",
        "",
        f"Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by `make bench-classroom` on this "
        f"machine ({os.cpu_count()} CPUs): the course as `make up` runs it, in classroom mode. "
        f"{STUDENTS} students join and keep the class stream open throughout; the instructor "
        f"presents a run of lesson 1's first experiment while it measures; then every student "
        f"runs that experiment ({run['server']}, {run['connections']} connections, "
        f"{run['duration_s']} s after {run['warmup_s']} s of warm-up) at the same moment.",
        "",
        "| figure | value |",
        "|---|---:|",
        f"| Present → first point on a student's stream: median / max over {len(firsts)} "
        f"| {statistics.median(firsts) * 1000:.0f} ms / {max(firsts) * 1000:.0f} ms |",
        f"| students who did not see it within 30 s (must be 0) | {len(outcome['missed'])} |",
        f"| class-stream drops, {STUDENTS} streams (must be 0) | {len(outcome['drops'])} |",
        f"| each student's wait from submitting to their result: median / max | "
        f"{statistics.median(waits):.0f} s / {max(waits):.0f} s |",
        f"| runs that ended done | {done} of {len(waits)} |",
        f"| the API's CPU while the class was on (one core = 100 %) | {cpu_share * 100:.1f} % |",
        f"| the API's resident memory, peak | {peak_rss / 2**20:.0f} MiB |",
        f"| the class was on for | {t1 - t0:.0f} s |",
        "",
        "Each class stream is served from one feed per class (one read of the store per quarter "
        "second, fanned out), so following a presentation costs the same for 30 students as "
        "for one. The runs go through the one runner one after another: the waits are the "
        "queue's, about one run length per student ahead.",
    ]
    if outcome["drops"] or outcome["missed"]:
        lines += [
            "",
            "Drops and misses:",
            *(f"- {d}" for d in outcome["drops"] + outcome["missed"]),
        ]
    return "\n".join(lines) + "\n"


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="c10klab-classroom-", dir="/tmp"))
    port = free_port()
    course = start_course(work, port)
    try:
        outcome = asyncio.run(drive(f"http://127.0.0.1:{port}", course.pid))
    finally:
        course.send_signal(signal.SIGTERM)
        course.wait(timeout=60)
    text = report(outcome)
    OUT.write_text(text)
    print(text)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
