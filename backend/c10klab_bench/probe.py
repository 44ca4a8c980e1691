"""`make bench-probe`: the classroom probe of issue 23, tried again against the real course.

A classroom-mode API (`python -m c10klab api`, real uvicorn, a throwaway SQLite store) and a
solo-mode one, a real nginx in front of the first as the README configures it, and clients on
several loopback addresses. Each attack the probe found is tried as it was, as many times, and
the answers counted. No runner: nothing here needs a benchmark to run, and runs are ended in
the store as a runner would end them. The runner-side items (a frozen runner, a restarted one,
a fork bomb) are measured by their tests in `make test` with real processes and containers;
the section says which.

Written into results/hosting.md as its section "The classroom probe, again" (`make
bench-hosting` keeps it).

    make bench-probe      (nginx; about a minute)
"""

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import httpx

from c10klab.config import REPO_ROOT, Settings
from c10klab.people.service import add_instructor
from c10klab.people.store import PeopleStore
from c10klab.results.schemas import BuildOutcome, CheckedEvent, CheckOutcome, CheckResult
from c10klab.runs.schemas import RunRequest
from c10klab.runs.store import RunStore
from c10klab_bench.hosting import PROBE_HEADING as HEADING
from c10klab_bench.hosting import free_port
from c10klab_bench.proxy import client_at, reverse_proxy

OUT = REPO_ROOT / "results" / "hosting.md"
PASSWORD = "probe-password-1"
RUN = RunRequest(server="c-epoll", duration_s=1, warmup_s=0)
BIG_BODY_BYTES = 50 * 1024 * 1024
LONE_SURROGATE = '"\\ud800"'


@dataclass
class Finding:
    item: str
    tried: str
    answers: str
    held: bool


@contextmanager
def course(work: Path, mode: str, **env: str) -> Iterator[tuple[str, int]]:
    """The API as `python -m c10klab api` runs it: its URL and process id."""
    port = free_port()
    environment = os.environ | {
        "C10K_MODE": mode,
        "C10K_DB_PATH": str(work / f"{mode}.sqlite3"),
        "C10K_HOST": "127.0.0.1",
        "C10K_PORT": str(port),
        "C10K_TRUSTED_PROXIES": "127.0.0.1",
        **env,
    }
    api = subprocess.Popen(
        [sys.executable, "-m", "c10klab", "api"],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=(work / f"{mode}.log").open("wb"),
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx.get(url + "/api/health", timeout=1)
            break
        except httpx.TransportError:
            if api.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError((work / f"{mode}.log").read_text()) from None
            time.sleep(0.1)
    try:
        yield url, api.pid
    finally:
        api.send_signal(signal.SIGTERM)
        api.wait(timeout=30)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def counted(statuses: list[int]) -> str:
    return ", ".join(f"{n}× {status}" for status, n in sorted(Counter(statuses).items()))


def logged_in(url: str, name: str, source: str = "127.0.0.1") -> httpx.Client:
    client = client_at(source)
    client.base_url = httpx.URL(url)
    answer = client.post("/api/auth/login", json={"name": name, "password": PASSWORD})
    answer.raise_for_status()
    return client


def joined(url: str, code: str, name: str, source: str = "127.0.0.1") -> httpx.Client:
    client = client_at(source)
    client.base_url = httpx.URL(url)
    client.post("/api/classes/join", json={"code": code, "name": name}).raise_for_status()
    return client


def removal_across_classes(url: str) -> Finding:
    grace, linus = logged_in(url, "Grace"), logged_in(url, "Linus")
    ours = grace.post("/api/classes", json={"name": "Ours"}).json()
    theirs = linus.post("/api/classes", json={"name": "Theirs"}).json()
    victims = [joined(url, theirs["join_code"], f"Victim {i}") for i in range(10)]
    roster = linus.get(f"/api/classes/{theirs['id']}/roster").json()
    statuses = [
        grace.delete(f"/api/classes/{ours['id']}/students/{student['id']}").status_code
        for student in roster
    ]
    still_in = sum(1 for v in victims if v.get("/api/auth/me").json()["person"] is not None)
    return Finding(
        "1. an instructor removes another class's students",
        f"{len(statuses)} DELETEs of students of another instructor's class",
        f"{counted(statuses)}; victims still signed in: {still_in} of {len(victims)}",
        still_in == len(victims) and set(statuses) == {404},
    )


def instructor_panels(url: str, store: RunStore) -> Finding:
    grace = logged_in(url, "Grace")
    klass = grace.post("/api/classes", json={"name": "网络编程 一班"}).json()
    ada = joined(url, klass["join_code"], "Ada")
    source = (REPO_ROOT / "sandboxes" / "servers" / "c" / "epoll.c").read_text()
    ada.post("/api/variants", json={"server": "c-epoll", "source": source}).raise_for_status()
    check = store.claim_next("probe")
    assert check is not None and check.lease is not None
    passed = CheckResult(
        build=BuildOutcome(status="compiled", seconds=1.0),
        checks=[CheckOutcome(protocol="echo", ok=True), CheckOutcome(protocol="http", ok=True)],
    )
    store.finish(check.lease, "done", CheckedEvent(type="checked", data=passed))
    answers = [
        grace.get(f"/api/classes/{klass['id']}/queue").status_code,
        grace.get(f"/api/classes/{klass['id']}/runs.csv").status_code,
    ]
    return Finding(
        "2. an instructor's runs panel after a passed check; the CSV of a class named in Chinese",
        "GET the runs panel and the CSV export",
        counted(answers),
        answers == [200, 200],
    )


def lone_surrogates(url: str, code: str) -> Finding:
    grace = logged_in(url, "Grace")
    bodies = {
        "/api/auth/login": f'{{"name": {LONE_SURROGATE}, "password": "x"}}',
        "/api/classes/join": f'{{"code": {LONE_SURROGATE}, "name": "Ana"}}',
        "/api/classes/join ": f'{{"code": "{code}", "name": {LONE_SURROGATE}}}',
        "/api/classes": f'{{"name": {LONE_SURROGATE}}}',
    }
    statuses = []
    for path, body in bodies.items():
        client = grace if path == "/api/classes" else httpx.Client(base_url=url)
        statuses.append(
            client.post(
                path.strip(), content=body, headers={"content-type": "application/json"}
            ).status_code
        )
    return Finding(
        "3. a lone UTF-16 surrogate in a name field",
        f"{len(statuses)} name fields (login, join code, join name, class name)",
        counted(statuses),
        set(statuses) == {422},
    )


def big_bodies(url: str, pid: int) -> Finding:
    before = rss_mb(pid)
    body = b'{"server": "c-epoll", "x": "' + b"a" * BIG_BODY_BYTES + b'"}'
    statuses = []
    for path in ("/api/runs", "/api/variants", "/api/auth/login"):
        try:
            statuses.append(
                httpx.post(
                    url + path, content=body, headers={"content-type": "application/json"}
                ).status_code
            )
        except httpx.TransportError:  # the API answered and closed before the body ended
            statuses.append(0)
    grown = rss_mb(pid) - before
    return Finding(
        "4. a 50 MB body",
        "POST 50 MB of JSON to three routes",
        f"{counted(statuses)}; the API's memory grew by {grown:.1f} MB (was +87 MB)",
        set(statuses) == {413} and grown < 10,
    )


def rebinding(solo: str) -> Finding:
    port = solo.rsplit(":", 1)[1]
    rebound = f"attacker.example:{port}"
    page = {"Host": rebound, "Origin": f"http://{rebound}", "Sec-Fetch-Site": "same-origin"}
    source = "int main(void) { return 0; }"
    statuses = [
        httpx.post(solo + "/api/runs", json=RUN, headers=page).status_code,
        httpx.post(
            solo + "/api/variants", json={"server": "c-epoll", "source": source}, headers=page
        ).status_code,
    ]
    return Finding(
        "5. DNS rebinding in solo mode",
        "a run and an edited server from a page whose name was rebound to 127.0.0.1",
        counted(statuses),
        set(statuses) == {400},
    )


def owner_lock_out(url: str) -> Finding:
    logged_in(url, "Linus").post("/api/auth/logout")
    own = logged_in(url, "Linus")  # the browser Linus uses: it holds his device cookie
    own.post("/api/auth/logout")
    guesses = []
    for i in range(20):
        with client_at(f"127.0.0.{10 + i % 5}") as attacker:
            guesses.append(
                attacker.post(
                    url + "/api/auth/login", json={"name": "Linus", "password": "guess"}
                ).status_code
            )
    back = own.post("/api/auth/login", json={"name": "Linus", "password": PASSWORD}).status_code
    return Finding(
        "6a. wrong passwords lock the owner out",
        "20 wrong passwords for one instructor from 5 addresses, then the owner from their "
        "own browser",
        f"guesses: {counted(guesses)}; the owner: {back}",
        back == 200 and guesses.count(429) >= 15,
    )


def spoofed_forwarding(proxied: str) -> Finding:
    statuses = []
    with client_at("127.0.0.2") as client:
        for i in range(40):
            statuses.append(
                client.post(
                    proxied + "/api/auth/login",
                    json={"name": f"nobody {i}", "password": "wrong"},
                    headers={"X-Forwarded-For": f"203.0.113.{i}"},
                ).status_code
            )
    return Finding(
        "6b. X-Forwarded-For spoofed behind the README's proxy",
        "40 wrong logins through nginx, each with a new made-up X-Forwarded-For",
        counted(statuses),
        statuses.count(429) == 40 - 30,
    )


def rejoining(url: str) -> Finding:
    grace = logged_in(url, "Grace")
    klass = grace.post("/api/classes", json={"name": "Rejoiners"}).json()
    admitted = 0
    for i in range(5):
        name = joined(url, klass["join_code"], f"Mallory {i}", source="127.0.0.20")
        for _ in range(40):
            answer = name.post("/api/runs", json=RUN)
            if answer.status_code != 202:
                break
            admitted += 1
    return Finding(
        "7a. new names, new quotas",
        "5 names joined by one student, each queueing until refused",
        f"{admitted} runs admitted (the class's share is 100; the course's queue 200)",
        admitted <= 100,
    )


def guessing(url: str) -> Finding:
    statuses, started = [], time.monotonic()
    with client_at("127.0.0.30") as client:
        for i in range(250):
            statuses.append(
                client.post(
                    url + "/api/classes/join", json={"code": f"AAAAA-{i:05d}", "name": "x"}
                ).status_code
            )
    rate = len(statuses) / (time.monotonic() - started)
    return Finding(
        "7b. guessing join codes",
        f"250 made-up codes from one address ({rate:.0f} tries/s)",
        f"{counted(statuses)}; codes are 10 characters of 31 (8·10^14)",
        statuses.count(404) == 20,
    )


def logout_cookie(url: str) -> Finding:
    cleared = logged_in(url, "Grace").post("/api/auth/logout").headers["set-cookie"]
    marks = ("HttpOnly", "SameSite=strict", "Path=/", "Max-Age=0")
    return Finding(
        "10a. the logout cookie",
        "the Set-Cookie that clears the session",
        "; ".join(m for m in marks if m in cleared),
        all(m in cleared for m in marks),
    )


def queue_message(url: str, store: RunStore) -> Finding:
    for _ in range(199 - store.count_queued()):
        store.create_run(RUN)
    grace = logged_in(url, "Grace")
    base = {"duration_s": 1, "warmup_s": 0}
    sweep = {"servers": ["c-epoll"], "vary": "connections", "values": [5, 10], "base": base}
    detail = grace.post("/api/sweeps", json=sweep).json()["detail"]
    return Finding(
        "10b. the queue's 429 at 199 of 200",
        "a two-point sweep with 199 runs waiting",
        detail.split(": ", 1)[0],
        "has room for 1 more" in detail,
    )


RUNNER_SIDE = [
    (
        "8. a runner frozen past its lease",
        "tests/runner/test_runner_hosts_docker.py::test_a_runner_frozen_past_its_lease_writes_"
        "nothing_once_another_took_its_run (SIGSTOP past the 15 s lease, a second runner)",
    ),
    (
        "9. a runner restarted before a run's load began",
        "tests/test_store.py::test_a_restarted_runner_queues_again_once_a_run_it_had_not_begun_"
        "measuring, tests/runner/test_worker_docker.py (recover)",
    ),
    (
        "10c. a fork bomb in a fork-per-connection variant (held ~5,100 host processes)",
        "not counted again. The pids limit is now sized to the request, the catalog's limit or "
        "connections + idle + 100 if fewer, and shown on the run's page "
        "(tests/runner/test_plan.py); tests/variants/test_variants_docker.py contains a fork "
        "bomb and builds the next variant",
    ),
]


def report(findings: list[Finding], measured: str) -> str:
    held = sum(f.held for f in findings)
    lines = [
        HEADING,
        "",
        f"Measured {measured} by `make bench-probe` on this machine: a classroom-mode API and a "
        "solo one as `python -m c10klab api` runs them, on throwaway SQLite stores, a real "
        "nginx in front of the first configured as the README says, and clients on several "
        "loopback addresses. Each attack issue 23's probe found, tried again: "
        f"{held} of {len(findings)} held.",
        "",
        "| what the probe found | tried | answers | held |",
        "|---|---|---|---|",
        *(
            f"| {f.item} | {f.tried} | {f.answers} | {'yes' if f.held else '**no**'} |"
            for f in findings
        ),
        "",
        "The runner's side, in `make test` with real processes and containers:",
        "",
        *(f"- {item}: {where}" for item, where in RUNNER_SIDE),
        "",
        "The API fuzz in `make test` runs every operation as each role (anonymous, a student, "
        "the instructor of the class, an instructor of another class) and checks every 2xx and "
        "every JSON 4xx against the documented schema; 0 × 5xx.",
    ]
    return "\n".join(lines) + "\n"


def write_section(section: str, out: Path = OUT) -> None:
    """Put the section at the end of results/hosting.md, in place of the one before."""
    text = out.read_text() if out.exists() else ""
    kept = text.split(HEADING, 1)[0].rstrip("\n")
    out.write_text((kept + "\n\n" if kept else "") + section)


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="c10klab-probe-", dir="/tmp"))
    classroom_store = work / "classroom.sqlite3"
    people = PeopleStore(classroom_store)
    for name in ("Grace", "Linus"):
        add_instructor(people, name, PASSWORD)
    store = RunStore(Settings(db_path=classroom_store).store)
    measured = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    findings: list[Finding] = []
    with (
        course(work, "classroom") as (url, pid),
        course(work, "solo") as (solo, _),
        reverse_proxy(url, work / "nginx", free_port()) as proxied,
    ):
        grace = logged_in(url, "Grace")
        code = grace.post("/api/classes", json={"name": "Names"}).json()["join_code"]
        probes: list[Callable[[], Finding]] = [
            lambda: removal_across_classes(url),
            lambda: instructor_panels(url, store),
            lambda: lone_surrogates(url, code),
            lambda: big_bodies(url, pid),
            lambda: rebinding(solo),
            lambda: owner_lock_out(url),
            lambda: spoofed_forwarding(proxied),
            lambda: rejoining(url),
            lambda: guessing(url),
            lambda: logout_cookie(url),
            lambda: queue_message(url, store),
        ]
        for probe in probes:
            finding = probe()
            print(f"{'held' if finding.held else 'NOT HELD'}: {finding.item}: {finding.answers}")
            findings.append(finding)
    write_section(report(findings, measured))
    print(f"written to {OUT}")


if __name__ == "__main__":
    main()
