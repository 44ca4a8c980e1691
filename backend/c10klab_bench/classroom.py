"""`make bench-classroom`: a class of 30 follows a presentation, runs lesson 1's experiment,
and uses the live-class tools meanwhile.

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
3. While those runs queue, the live-class tools, as a class uses them: the instructor's page
   polls the roster, the queue and the answers as the class page does; ten students raise a
   hand, then all thirty answer lesson 1's first "Check yourself" question at once; the
   instructor starts a timer, posts an announcement and reveals the answers. Timed: each
   request; a hand up → on the instructor's roster, as polled; the thirty answers → all on the
   instructor's screen; an announcement and a reveal → on every student's class stream.

Meanwhile the API process's CPU time and resident memory are sampled from /proc every second.

Written to results/classroom.md: Present → first point on every stream (median and max over the
30), class-stream drops (must be 0), each student's wait to their result (median, max), the
live tools' figures, and the API's CPU and memory while the class was on (and in the minute of
the live tools).

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

from c10klab.config import REPO_ROOT
from c10klab_bench.hosting import PASSWORD, free_port, start_course, wait_ready

STUDENTS = 30
HANDS = 10
LESSON = "01-c10k-problem"
QUESTION = 1
# How often the instructor's class page asks (frontend: use-classroom.ts, use-live.ts).
ROSTER_EVERY_S = 3.0
QUEUE_EVERY_S = 2.0
ANSWERS_EVERY_S = 2.0
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
    # When each announcement (by id) and the reveal of QUESTION first came on the stream.
    announced_at: dict[str, float] = field(default_factory=dict)
    revealed_at: float | None = None

    def take(self, event: str, data: Any) -> None:
        if event == "live":
            now = time.monotonic()
            for note in data["announcements"]:
                self.announced_at.setdefault(note["id"], now)
            shown = {(q["lesson"], q["question"]) for q in data["revealed"]}
            if self.revealed_at is None and (LESSON, QUESTION) in shown:
                self.revealed_at = now
        elif event == "presentation":
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


@dataclass
class Timed:
    """Requests of one kind and how long each took (seconds)."""

    took: list[float] = field(default_factory=list)

    async def send(self, request: Any) -> httpx.Response:
        started = time.monotonic()
        answer: httpx.Response = await request
        self.took.append(time.monotonic() - started)
        answer.raise_for_status()
        return answer


@dataclass
class LiveOutcome:
    requests: dict[str, Timed]
    hand_to_roster: list[float]
    answers_to_screen: float | None
    announcement_to_streams: list[float]
    reveal_to_streams: list[float]
    window: tuple[float, float]


async def instructor_page(
    teacher: httpx.AsyncClient, class_id: str, timed: dict[str, Timed], stop: asyncio.Event
) -> dict[str, list[tuple[float, Any]]]:
    """The class page open on the instructor's screen: the roster, the queue and the answers
    polled as often as the page polls them. Returns each poll's answer, with when it came."""
    seen: dict[str, list[tuple[float, Any]]] = {"roster": [], "answers": []}

    async def poll(name: str, path: str, every_s: float) -> None:
        while not stop.is_set():
            answer = await timed[name].send(teacher.get(path))
            if name in seen:
                seen[name].append((time.monotonic(), answer.json()))
            await asyncio.sleep(every_s)

    base = f"/api/classes/{class_id}"
    await asyncio.gather(
        poll("roster", f"{base}/roster", ROSTER_EVERY_S),
        poll("queue", f"{base}/queue", QUEUE_EVERY_S),
        poll("answers", f"{base}/questions/{LESSON}", ANSWERS_EVERY_S),
    )
    return seen


def first_seen(polls: list[tuple[float, Any]], after: float, shows: Any) -> float | None:
    """When a poll answered after `after` first showed what `shows` looks for."""
    return next((at for at, body in polls if at >= after and shows(body)), None)


async def use_live_tools(
    teacher: httpx.AsyncClient, class_id: str, followers: list["Follower"], experiment: str
) -> LiveOutcome:
    """Phase 3, while the class's runs queue: hands, answers, a timer, an announcement and a
    reveal, with the instructor's page polling throughout."""
    base = f"/api/classes/{class_id}"
    timed = {name: Timed() for name in ("roster", "queue", "answers", "hand", "answer", "tools")}
    stop = asyncio.Event()
    page = asyncio.create_task(instructor_page(teacher, class_id, timed, stop))
    started = time.monotonic()
    await asyncio.sleep(ROSTER_EVERY_S)

    hands = followers[:HANDS]
    raised: dict[str, float] = {}

    async def raise_hand(f: Follower) -> None:
        raised[f.name] = time.monotonic()
        await timed["hand"].send(
            f.client.put(f"{base}/hand", json={"lesson": LESSON, "experiment": experiment})
        )

    await asyncio.gather(*(raise_hand(f) for f in hands))
    await asyncio.sleep(2 * ROSTER_EVERY_S)

    answered = time.monotonic()
    path = f"{base}/questions/{LESSON}/{QUESTION}/answer"
    await asyncio.gather(
        *(
            timed["answer"].send(f.client.put(path, json={"answer": f"{f.name}: one per thread"}))
            for f in followers
        )
    )
    await asyncio.sleep(2 * ANSWERS_EVERY_S)

    await timed["tools"].send(teacher.put(f"{base}/timer", json={"minutes": 5, "label": "Q1"}))
    announced = time.monotonic()
    note = await timed["tools"].send(
        teacher.post(f"{base}/announcements", json={"text": "Answers revealed in a moment"})
    )
    revealed = time.monotonic()
    await timed["tools"].send(teacher.put(f"{base}/questions/{LESSON}/{QUESTION}/revealed"))
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(
        f.revealed_at is None or note.json()["id"] not in f.announced_at for f in followers
    ):
        await asyncio.sleep(0.05)
    stop.set()
    seen = await page
    ended = time.monotonic()

    def on_roster(name: str) -> Any:
        return lambda roster: any(s["name"] == name and s["hand"] for s in roster)

    def all_answers(body: Any) -> bool:
        first = next(q for q in body["questions"] if q["question"] == QUESTION)
        return len(first["answers"]) >= len(followers)

    hand_seen = [first_seen(seen["roster"], raised[f.name], on_roster(f.name)) for f in hands]
    on_screen = first_seen(seen["answers"], answered, all_answers)
    note_id = note.json()["id"]
    return LiveOutcome(
        requests=timed,
        hand_to_roster=[at - raised[f.name] for f, at in zip(hands, hand_seen, strict=True) if at],
        answers_to_screen=on_screen - answered if on_screen else None,
        announcement_to_streams=[
            f.announced_at[note_id] - announced for f in followers if note_id in f.announced_at
        ],
        reveal_to_streams=[f.revealed_at - revealed for f in followers if f.revealed_at],
        window=(started, ended),
    )


async def drive(base: str, supervisor: int) -> dict[str, Any]:
    await wait_ready(base)
    teacher = httpx.AsyncClient(base_url=base, timeout=60)
    login = await teacher.post("/api/auth/login", json={"name": "Grace", "password": PASSWORD})
    login.raise_for_status()
    klass = (await teacher.post("/api/classes", json={"name": "Bench class"})).json()
    experiment = (await teacher.get(f"/api/lessons/{LESSON}")).json()["experiments"][0]
    # The request the block stands for, as the lesson page posts it.
    run_body = {"lesson": LESSON, "experiment": experiment["key"]} | experiment["run"]

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

    # 2. Every student runs the experiment at once; 3. the live tools while the runs queue.
    runs = asyncio.gather(*(run_to_result(f.client, run_body) for f in followers))
    live = await use_live_tools(teacher, klass["id"], followers, experiment["key"])
    results = await runs
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
        "live": live,
    }


def ms(seconds: list[float]) -> str:
    """median / max in milliseconds, or a dash when nothing was timed."""
    if not seconds:
        return "—"
    return f"{statistics.median(seconds) * 1000:.0f} ms / {max(seconds) * 1000:.0f} ms"


def cpu_between(samples: list[tuple[float, float, int]], start: float, end: float) -> float:
    """The API's share of one core between two moments, from the samples inside them."""
    inside = [(t, cpu) for t, cpu, _ in samples if start <= t <= end]
    if len(inside) < 2 or inside[-1][0] <= inside[0][0]:
        return 0.0
    return (inside[-1][1] - inside[0][1]) / (inside[-1][0] - inside[0][0])


def live_lines(live: LiveOutcome, samples: list[tuple[float, float, int]]) -> list[str]:
    requests = live.requests
    seen_answers = (
        f"{live.answers_to_screen:.1f} s"
        if live.answers_to_screen is not None
        else "not within the phase"
    )
    return [
        "",
        "## The live-class tools, while the runs queue",
        "",
        f"The instructor's class page polls the roster every {ROSTER_EVERY_S:.0f} s, the queue "
        f"every {QUEUE_EVERY_S:.0f} s and the answers every {ANSWERS_EVERY_S:.0f} s, as the page "
        f"does. {HANDS} students raise a hand; then all {STUDENTS} answer lesson 1's question "
        f"{QUESTION} at once; the instructor starts a timer, announces, and reveals the answers.",
        "",
        "| figure | median / max |",
        "|---|---:|",
        f"| raise a hand: the request ({len(requests['hand'].took)}) | "
        f"{ms(requests['hand'].took)} |",
        f"| a hand up → on the instructor's roster, as polled every {ROSTER_EVERY_S:.0f} s "
        f"({len(live.hand_to_roster)} of {HANDS} seen) | {ms(live.hand_to_roster)} |",
        f"| answer the question: the request, {STUDENTS} at once | {ms(requests['answer'].took)} |",
        f"| the {STUDENTS} answers → all on the instructor's screen, as polled every "
        f"{ANSWERS_EVERY_S:.0f} s | {seen_answers} |",
        f"| an announcement → on each student's class stream "
        f"({len(live.announcement_to_streams)} of {STUDENTS}) | "
        f"{ms(live.announcement_to_streams)} |",
        f"| a reveal → on each student's class stream ({len(live.reveal_to_streams)} of "
        f"{STUDENTS}) | {ms(live.reveal_to_streams)} |",
        f"| the instructor's polls: roster ({len(requests['roster'].took)}) | "
        f"{ms(requests['roster'].took)} |",
        f"| the instructor's polls: queue ({len(requests['queue'].took)}) | "
        f"{ms(requests['queue'].took)} |",
        f"| the instructor's polls: answers ({len(requests['answers'].took)}) | "
        f"{ms(requests['answers'].took)} |",
        f"| timer, announcement, reveal: the requests | {ms(requests['tools'].took)} |",
        "",
        f"The API's CPU over the {live.window[1] - live.window[0]:.0f} s of the live tools: "
        f"{cpu_between(samples, *live.window) * 100:.1f} % of one core.",
    ]


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
        "for one. Present → first point is one draw, the same for every student: the next "
        "point comes up to one progress interval (1 s) after Present, plus the feed's quarter "
        "second, so it falls anywhere from 0 to about 1.3 s from run to run. The runs go "
        "through the one runner one after another: the waits are the queue's, about one run "
        "length per student ahead.",
    ]
    lines += live_lines(outcome["live"], samples)
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
