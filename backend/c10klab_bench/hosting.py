"""`make bench-hosting`: a class of 50 submitting at once, against the real course.

It starts the course as `make up` does (`python -m c10klab up`: supervisor, unprivileged API,
runner, real containers) in classroom mode on a throwaway store, makes an instructor and a
class, and has 50 simulated students join. Then, at one moment, every student submits a short
run; as soon as all have, every student submits a two-point sweep and 20 of them also race five
three-point sweeps each against their own limit and the site's; each student watches their
first run's event stream until it ends. Every run that was
admitted is then run for real, one after another, while a sampler checks the queue against its
limits every half second.

Written to results/hosting.md: 429s (with and without Retry-After), 5xx (must be 0), every admitted
run accounted for (done, failed or cancelled; none lost), the queue's peaks against its limits,
each student's wait for their first run to start and how fair those waits were (max / median,
Jain's index), event-stream drops among the 50 watchers (must be 0), and the lesson page's
compressed JavaScript (from `make bench-frontend`'s script).

    make bench-hosting            (Docker and the images needed; about ten minutes)
"""

import asyncio
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from c10klab.config import REPO_ROOT

STUDENTS = 50
RACERS = 20
RACING_SWEEPS = 5
PASSWORD = "bench-hosting-password"
# Limits for the benchmark: low enough that the burst meets them.
# The class's share of the queue at the site's cap: one class is the whole site here.
LIMITS = {
    "C10K_MAX_QUEUED_PER_PERSON": "6",
    "C10K_MAX_QUEUED_RUNS": "120",
    "C10K_MAX_QUEUED_PER_CLASS": "120",
}
RUN = {"server": "c-epoll", "connections": 10, "duration_s": 1, "warmup_s": 0}
SWEEP = {"servers": ["c-epoll"], "vary": "connections", "base": {"duration_s": 1, "warmup_s": 0}}
OUT = REPO_ROOT / "results" / "hosting.md"
# The section `make bench-probe` writes at the end of the same file (c10klab_bench/probe.py):
# this benchmark rewrites what comes before it and keeps it.
PROBE_HEADING = "## The classroom probe, again"


@dataclass
class Tally:
    statuses: Counter[int] = field(default_factory=Counter)
    retry_after_missing: int = 0
    admitted_runs: list[str] = field(default_factory=list)
    # run id -> the wait POST /api/runs announced for it
    announced_wait_s: dict[str, float] = field(default_factory=dict)
    admitted_sweeps: list[str] = field(default_factory=list)
    stream_drops: list[str] = field(default_factory=list)
    peak_queued: int = 0
    peak_per_person: int = 0

    def answer(self, response: httpx.Response) -> None:
        self.statuses[response.status_code] += 1
        if response.status_code == 429 and "retry-after" not in response.headers:
            self.retry_after_missing += 1


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_course(work: Path, port: int) -> subprocess.Popen[bytes]:
    env = (
        os.environ
        | LIMITS
        | {
            "C10K_MODE": "classroom",
            "C10K_PORT": str(port),
            "C10K_DB_PATH": str(work / "store.sqlite3"),
        }
    )
    add = [sys.executable, "-m", "c10klab", "instructor", "add", "Grace"]
    subprocess.run(add, input=f"{PASSWORD}\n".encode(), env=env, check=True, capture_output=True)
    log = (work / "course.log").open("wb")
    return subprocess.Popen(
        [sys.executable, "-m", "c10klab", "up"], env=env, stdout=log, stderr=subprocess.STDOUT
    )


async def wait_ready(base: str) -> None:
    async with httpx.AsyncClient(base_url=base) as client:
        for _ in range(240):
            try:
                if (await client.get("/api/health")).json().get("ready"):
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.5)
    raise SystemExit("the course did not become ready in 2 minutes")


async def watch(client: httpx.AsyncClient, run_id: str, who: str, tally: Tally) -> None:
    """Follow a run's event stream to its end as a browser would, resuming after a cut;
    every stream that ends or breaks before `done` or `failed` is a drop."""
    last = 0
    for _ in range(5):
        try:
            headers = {"Last-Event-ID": str(last)} if last else {}
            path = f"/api/runs/{run_id}/events"
            async with client.stream("GET", path, headers=headers, timeout=None) as stream:
                event = ""
                async for line in stream.aiter_lines():
                    if line.startswith("id: "):
                        last = int(line[4:])
                    elif line.startswith("event: "):
                        event = line[7:]
                    elif line == "" and event in ("done", "failed"):
                        return
            tally.stream_drops.append(f"{who}: the stream of {run_id} ended before its end")
        except httpx.HTTPError as cut:
            tally.stream_drops.append(f"{who}: {cut!r}")
    raise RuntimeError(f"{who} gave up following run {run_id}")


async def sample_queue(teacher: httpx.AsyncClient, tally: Tally, stop: asyncio.Event) -> None:
    while not stop.is_set():
        answer = await teacher.get("/api/runs", params={"limit": 500})
        tally.answer(answer)  # the instructor's reads count too: a 5xx here is a 5xx
        if answer.status_code != 200:
            await asyncio.sleep(0.5)
            continue
        runs = answer.json()
        queued = [r for r in runs if r["status"] == "queued"]
        per_person = Counter(r["owner_id"] for r in queued)
        tally.peak_queued = max(tally.peak_queued, len(queued))
        tally.peak_per_person = max(tally.peak_per_person, max(per_person.values(), default=0))
        await asyncio.sleep(0.5)


async def student(
    base: str, code: str, number: int, go: asyncio.Event, burst: asyncio.Barrier, tally: Tally
) -> None:
    """Join; at the starting gun submit a run; once every student has, the sweeps and the
    racers' extra sweeps, all at once; then follow the first run to its end."""
    client = httpx.AsyncClient(base_url=base, timeout=60)
    joined = await client.post("/api/classes/join", json={"code": code, "name": f"s{number:02}"})
    joined.raise_for_status()
    await go.wait()
    first = await client.post("/api/runs", json=RUN)
    await burst.wait()
    more = [client.post("/api/sweeps", json=SWEEP | {"values": [5, 10]})]
    if number < RACERS:
        racing = SWEEP | {"values": [2, 4, 6]}
        more += [client.post("/api/sweeps", json=racing) for _ in range(RACING_SWEEPS)]
    answers = [first, *await asyncio.gather(*more)]
    for answer in answers:
        tally.answer(answer)
    for answer in answers[1:]:
        if answer.status_code == 202:
            tally.admitted_sweeps.append(answer.json()["id"])
    if first.status_code == 202:
        tally.admitted_runs.append(first.json()["id"])
        tally.announced_wait_s[first.json()["id"]] = first.json()["wait_s"]
        await watch(client, first.json()["id"], f"s{number:02}", tally)
    await client.aclose()


async def drive(base: str) -> dict[str, Any]:
    tally = Tally()
    await wait_ready(base)
    async with httpx.AsyncClient(base_url=base, timeout=60) as teacher:
        login = await teacher.post("/api/auth/login", json={"name": "Grace", "password": PASSWORD})
        login.raise_for_status()
        code = (await teacher.post("/api/classes", json={"name": "Bench"})).json()["join_code"]
        go, stop, burst = asyncio.Event(), asyncio.Event(), asyncio.Barrier(STUDENTS)
        students = [
            asyncio.create_task(student(base, code, n, go, burst, tally)) for n in range(STUDENTS)
        ]
        await asyncio.sleep(3)  # everyone has joined
        sampler = asyncio.create_task(sample_queue(teacher, tally, stop))
        started = time.monotonic()
        go.set()
        await asyncio.gather(*students)
        # The streams watched only the first runs; wait for every admitted run to end.
        while True:
            runs = (await teacher.get("/api/runs", params={"limit": 500})).json()
            if all(r["status"] in ("done", "failed", "cancelled") for r in runs):
                break
            await asyncio.sleep(2)
        stop.set()
        await sampler
        elapsed = time.monotonic() - started
        sweeps = [(await teacher.get(f"/api/sweeps/{s}")).json() for s in tally.admitted_sweeps]
    return {"tally": tally, "runs": runs, "sweeps": sweeps, "elapsed_s": elapsed}


def seconds_between(start: str, end: str) -> float:
    return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()


def jain(values: list[float]) -> float:
    return sum(values) ** 2 / (len(values) * sum(v * v for v in values)) if values else 0.0


def frontend_weight() -> dict[str, Any] | None:
    """The lesson pages' first-load JavaScript, from the frontend benchmark's last line."""
    script = REPO_ROOT / "frontend" / "bench" / "first-load.mjs"
    if not script.is_file():
        return None
    done = subprocess.run(["node", str(script)], cwd=REPO_ROOT / "frontend", capture_output=True)
    lines = done.stdout.decode().strip().splitlines()
    try:
        found: dict[str, Any] = json.loads(lines[-1])
        return found
    except (IndexError, json.JSONDecodeError):
        return None


def report(outcome: dict[str, Any], weight: dict[str, Any] | None) -> str:
    tally: Tally = outcome["tally"]
    runs: list[dict[str, Any]] = outcome["runs"]
    by_id = {r["id"]: r for r in runs}
    admitted = set(tally.admitted_runs) | {
        p["run_id"] for s in outcome["sweeps"] for p in s["points"] if p["run_id"]
    }
    endings = Counter(by_id[i]["status"] for i in admitted if i in by_id)
    lost = sorted(admitted - by_id.keys())
    waits: dict[str, float] = {}
    for run in sorted(runs, key=lambda r: r["created_at"]):
        if run["started_at"] and run["owner_id"] not in waits:
            waits[run["owner_id"]] = seconds_between(run["created_at"], run["started_at"])
    values = sorted(waits.values())
    # How the wait each first run was told compares with the wait it had.
    told = [
        (tally.announced_wait_s[i], seconds_between(by_id[i]["created_at"], by_id[i]["started_at"]))
        for i in tally.admitted_runs
        if i in by_id and by_id[i]["started_at"] and tally.announced_wait_s.get(i)
    ]
    accuracy = statistics.median(real / said for said, real in told) if told else 0.0
    firsts = {i for i in tally.admitted_runs if i in by_id}
    swept = [
        by_id[i]["started_at"] for i in admitted - firsts if by_id.get(i, {}).get("started_at")
    ]
    overtaken = sum(1 for i in firsts if swept and (by_id[i]["started_at"] or "~") > min(swept))
    median = statistics.median(values) if values else 0.0
    fives = sum(n for status, n in tally.statuses.items() if status >= 500)
    lines = [
        "# Hosting: a class of 50 submitting at once",
        "",
        f"Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by `make bench-hosting` on this machine "
        f"({os.cpu_count()} CPUs): the course as `make up` runs it, classroom mode, limits "
        f"{', '.join(f'{k}={v}' for k, v in LIMITS.items())}. {STUDENTS} students each submit a "
        f"run at the same moment, then all at once a 2-point sweep each, {RACERS} of them also "
        f"racing {RACING_SWEEPS} 3-point sweeps. Runs: c-epoll, 10 connections, 1 s, no warm-up.",
        "",
        "| figure | value |",
        "|---|---:|",
        f"| answers, submissions and the instructor's queue reads | {sum(tally.statuses.values())} "
        f"({', '.join(f'{k}: {v}' for k, v in sorted(tally.statuses.items()))}) |",
        f"| 5xx (must be 0) | {fives} |",
        f"| 429 without Retry-After (must be 0) | {tally.retry_after_missing} |",
        f"| runs admitted (runs and sweep points) | {len(admitted)} |",
        f"| ... ended done / failed / cancelled | {endings['done']} / {endings['failed']} / "
        f"{endings['cancelled']} |",
        f"| ... lost (must be 0) | {len(lost)} |",
        f"| peak queued, all (limit {LIMITS['C10K_MAX_QUEUED_RUNS']}) | {tally.peak_queued} |",
        f"| peak queued, one person (limit {LIMITS['C10K_MAX_QUEUED_PER_PERSON']}) | "
        f"{tally.peak_per_person} |",
        f"| event-stream drops, {STUDENTS} watchers (must be 0) | {len(tally.stream_drops)} |",
        f"| wait for a student's first run to start: median / max | {median:.1f} s / "
        f"{max(values, default=0):.1f} s |",
        f"| fairness of those waits: max / median | "
        f"{(max(values) / median) if median else 0:.2f} |",
        f"| fairness: Jain's index over the students' first waits (1 = equal) | "
        f"{jain(values):.3f} |",
        f"| first runs that started after a sweep point had (must be 0) | {overtaken} |",
        f"| a first run's real wait / the wait its answer announced: median | {accuracy:.2f} |",
        f"| all admitted runs done in | {outcome['elapsed_s']:.0f} s |",
    ]
    if weight:
        lines.append(
            f"| lesson page first load, gzipped JavaScript (max over lessons; limit 300 KB) | "
            f"{weight['max_gzip_js_bytes'] / 1000:.0f} KB |"
        )
    lines += [
        "",
        "A first run's wait is from its submission to its start. The 50 first runs arrive "
        "together with nothing ahead of them, so they run in the order they were admitted and "
        "the last waits for the 49 before it: the spread of these waits is the burst's, not "
        "unfairness. What fair share decides is that no student's first run waits behind "
        "anybody's sweep: every sweep point and racing sweep came after all the first runs. "
        "The waits announced in the burst were estimated before any run had finished here, "
        "from the guessed overhead per run; once runs finish, the estimates follow the pace "
        "they really keep (the median of their real ÷ expected lengths).",
    ]
    if tally.stream_drops:
        lines += ["", "Stream drops:", *(f"- {d}" for d in tally.stream_drops)]
    return "\n".join(lines) + "\n"


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="c10klab-hosting-", dir="/tmp"))
    port = free_port()
    course = start_course(work, port)
    try:
        outcome = asyncio.run(drive(f"http://127.0.0.1:{port}"))
    finally:
        course.send_signal(signal.SIGTERM)
        course.wait(timeout=60)
    text = report(outcome, frontend_weight())
    before = OUT.read_text() if OUT.exists() else ""
    probe = before[before.index(PROBE_HEADING) :] if PROBE_HEADING in before else ""
    OUT.write_text(text + ("\n" + probe if probe else ""))
    print(text)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
