"""`make bench-trust`: whether the course's comparisons can be trusted, measured through its own
comparison path (POST /api/variants, POST /api/sweeps with `vary: round`, the verdict in GET
/api/sweeps/{id}) with a real runner behind it, into results/trust.md.

- A/A: two edited servers with the very same source as c-epoll, compared at a lesson's settings,
  many times: how often the verdict is "no difference" (goal: at least 95 %).
- A known effect: the same source with a fixed amount of extra work on every read (a counted
  busy loop: honest, and its size does not depend on the kernel). Its true size is measured
  once by a long comparison; then lesson-sized comparisons say how often they call it and in
  which direction (goal: at least 80 %, never the wrong way).
- The wall time of one comparison (goal: a median of at most 60 s).
- With `--within W`, each comparison asks the API for a QPS interval about ±W wide and runs
  as many of its (at most `--rounds`) rounds as the runner's measured noise says that needs:
  the runner then calibrates first, as a course's does.
- The run-to-run coefficient of variation of a lesson's figure: identical single runs of
  lesson 1's experiment through POST /api/runs (goal: at most 3 % on a quiet host).

Every figure says its host; every goal says whether it was met.
"""

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from c10klab.config import REPO_ROOT, Settings
from c10klab.main import create_app
from c10klab.runner.worker import cpu_model
from c10klab_bench.harness import harness, write_result

POLL_S = 5.0  # the API answers each poll on the measured cores: not more often
RESULT = REPO_ROOT / "results" / "trust.md"
EPOLL_SOURCE = REPO_ROOT / "sandboxes" / "servers" / "c" / "epoll.c"
# A lesson's settings: lesson 1's experiment.
LESSON = {"protocol": "echo", "connections": 100, "duration_s": 5, "warmup_s": 1}
# Where the extra work goes: the start of the function that serves a readable socket.
READ_HOOK = "static void handle_readable(struct conn *c)\n{\n"


def with_extra_work(source: str, iterations: int) -> str:
    """c-epoll doing `iterations` more turns of an empty loop on every read: a cost per request
    that only the CPU pays (no system call, so no kernel or filter changes its size)."""
    if READ_HOOK not in source:
        raise SystemExit(f"epoll.c no longer has {READ_HOOK!r}: update READ_HOOK")
    spin = (
        f"    for (volatile unsigned spin = 0; spin < {iterations}u; spin++)\n"
        "        ; /* bench-trust: a known cost per read */\n"
    )
    return source.replace(READ_HOOK, READ_HOOK + spin, 1)


@dataclass(frozen=True)
class Verdict:
    call: str
    estimate: float | None
    low: float | None
    high: float | None
    pairs: int
    seconds: float


class Course:
    """The course's API in this process, its runner in a thread, on a store of its own."""

    def __init__(self, client: TestClient, within: float | None) -> None:
        self.client = client
        self.within = within

    def variant(self, source: str) -> str:
        made = self.client.post("/api/variants", json={"server": "c-epoll", "source": source})
        if made.status_code != 202:
            raise SystemExit(f"variant refused: {made.text}")
        body = made.json()
        self.wait_run(body["check"]["id"])
        return f"variant:{body['id']}"

    def wait_run(self, run_id: str) -> dict[str, Any]:
        while True:
            run = self.client.get(f"/api/runs/{run_id}").json()
            if run["status"] in ("done", "failed", "cancelled"):
                if run["status"] != "done":
                    raise SystemExit(f"run {run_id} {run['status']}: {run.get('error')}")
                return dict(run)
            time.sleep(POLL_S)

    def compare(self, reference: str, subject: str, rounds: int) -> Verdict:
        started = time.monotonic()
        body = {
            "servers": [reference, subject],
            "vary": "round",
            "values": list(range(1, rounds + 1)),
            "base": LESSON,
        } | ({"within": self.within} if self.within else {})
        created = self.client.post("/api/sweeps", json=body)
        if created.status_code != 202:
            raise SystemExit(f"comparison refused: {created.text}")
        while True:
            table = self.client.get(f"/api/sweeps/{created.json()['id']}").json()
            if table["finished"]:
                break
            time.sleep(POLL_S)
        qps = next(v for v in table["verdicts"] if v["metric"] == "qps")
        change = qps["change"] or {}
        verdict = Verdict(
            call=qps["call"],
            estimate=change.get("estimate"),
            low=change.get("low"),
            high=change.get("high"),
            pairs=change.get("count", 0),
            seconds=time.monotonic() - started,
        )
        print(f"  {verdict}", flush=True)
        return verdict

    def lesson_run(self) -> float | None:
        created = self.client.post("/api/runs", json={"server": "c-epoll"} | LESSON)
        run = self.wait_run(created.json()["id"])
        result = run["result"]
        return float(result["summary"]["qps"]) if result["valid"] else None


def percent(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:+.1f} %"


def verdict_rows(verdicts: list[Verdict]) -> list[str]:
    rows = [
        "| # | call | change | 95 % interval | rounds paired | seconds |",
        "|---:|---|---:|---|---:|---:|",
    ]
    for n, v in enumerate(verdicts, 1):
        interval = f"{percent(v.low)} to {percent(v.high)}"
        rows.append(
            f"| {n} | {v.call} | {percent(v.estimate)} | {interval} | {v.pairs} | {v.seconds:.0f} |"
        )
    return rows


def goal(met: bool) -> str:
    return "**met**" if met else "**not met**"


def aa_section(aa: list[Verdict]) -> list[str]:
    if not aa:
        return []
    same = sum(v.call == "no_difference" for v in aa)
    return [
        "## A/A: c-epoll against the very same source",
        "",
        f'{same} of {len(aa)} said "no difference" ({same / len(aa):.0%}; goal at '
        f"least 95 %: {goal(same >= 0.95 * len(aa))}).",
        "",
        *verdict_rows(aa),
        "",
    ]


def runs_section(runs: list[float | None]) -> list[str]:
    if not runs:
        return []
    measured = [q for q in runs if q is not None]
    cv = statistics.stdev(measured) / statistics.mean(measured) if len(measured) > 1 else None
    return [
        "## Identical lesson runs",
        "",
        f"{len(measured)} valid of {len(runs)}: QPS "
        + ", ".join(f"{q:,.0f}" for q in measured)
        + (
            f"; coefficient of variation {cv:.1%} (goal at most 3 %: {goal(cv <= 0.03)})."
            if cv is not None
            else "."
        ),
        "",
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--aa", type=int, default=20, help="A/A comparisons")
    parser.add_argument("--effect", type=int, default=10, help="comparisons of the known effect")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each comparison")
    parser.add_argument("--within", type=float, help="plan each comparison's rounds from noise")
    parser.add_argument("--truth-rounds", type=int, default=10, help="0: do not measure it")
    parser.add_argument("--spin", type=int, default=400, help="loop turns added per read")
    parser.add_argument("--runs", type=int, default=10, help="identical single runs for the CV")
    parser.add_argument("--output", type=Path, default=RESULT)
    args = parser.parse_args()

    started = datetime.now(UTC)
    source = EPOLL_SOURCE.read_text()
    # planning rounds needs the runner's noise: it measures it first, as a course's does
    settings = Settings() if args.within else Settings(calibration_runs=0)
    with (
        harness(settings) as bench,
        TestClient(create_app(bench.settings), base_url="http://localhost") as client,
    ):
        course = Course(client, args.within)
        same_a, same_b = course.variant(source), course.variant(source)
        slower = course.variant(with_extra_work(source, args.spin))
        print("A/A", flush=True)
        aa = [course.compare(same_a, same_b, args.rounds) for _ in range(args.aa)]
        print("the known effect, measured long", flush=True)
        truth = course.compare(same_a, slower, args.truth_rounds) if args.truth_rounds else None
        print("the known effect, lesson-sized", flush=True)
        effect = [course.compare(same_a, slower, args.rounds) for _ in range(args.effect)]
        print("identical lesson runs", flush=True)
        runs = [course.lesson_run() for _ in range(args.runs)]

    called = sum(v.call == "lower" for v in effect)
    wrong = sum(v.call == "higher" for v in effect)
    times = [v.seconds for v in aa + effect]
    median_s = statistics.median(times) if times else 0.0
    rounds = (
        f"as many of at most {args.rounds} rounds as the runner's noise says a ±"
        f"{args.within:.0%} interval needs"
        if args.within
        else f"{args.rounds} rounds"
    )
    size = (
        f"Its size, from {args.truth_rounds} rounds: {percent(truth.estimate)} "
        f"({percent(truth.low)} to {percent(truth.high)})."
        if truth
        else "Its size was not measured again here (see the section of the fixed rounds)."
    )
    lines = [
        "# Can the course's comparisons be trusted? (make bench-trust)",
        "",
        f"Host: {cpu_model()}, {bench.settings.server_cpus} for the server and "
        f"{bench.settings.loadgen_cpus} for the load generator; started "
        f"{started:%Y-%m-%d %H:%M} UTC. Every comparison went through the course's API "
        f"(two edited servers of c-epoll, `vary: round`, {rounds}, lesson 1's "
        "settings: echo, 100 connections, 5 s after 1 s of warm-up) and its verdict is the "
        "API's.",
        "",
        *aa_section(aa),
        f"## A known effect: {args.spin} more loop turns on every read",
        "",
        size,
        f"Of {len(effect)} lesson-sized comparisons, {called} called it lower, {wrong} higher "
        f"(goal at least 80 %, never the wrong way: "
        f"{goal(called >= 0.8 * len(effect) and wrong == 0)}).",
        "",
        *verdict_rows(effect),
        "",
        "## Time per comparison",
        "",
        f"Median {median_s:.0f} s over {len(times)} comparisons of {rounds} "
        f"(goal at most 60 s: {goal(median_s <= 60)}).",
        "",
        *runs_section(runs),
    ]
    write_result(args.output, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
