"""`make record-baselines`: every experiment block of every lesson, run through the course's own
API and runner, recorded into content/baselines/<lesson>.json with its provenance.

The lesson page shows a block's recorded result at once (charts and table, marked as recorded,
with when and on what) and offers "Run live". A baseline belongs to what its block asks for (its
key): change the request and the page stops showing the old result until this script records it
again; a new title or id, or the block's translation, keeps it.

    make record-baselines                          # every lesson
    .venv/bin/python -m c10klab_bench.baselines --lesson 04-select-and-poll
    .venv/bin/python -m c10klab_bench.baselines --lesson 11-choosing-a-model --syscalls-only
    .venv/bin/python -m c10klab_bench.baselines --lesson 05-epoll --missing
    .venv/bin/python -m c10klab_bench.baselines --lesson 04-select-and-poll --only idle_sweep
"""

import argparse
import sys
from datetime import UTC, datetime
from typing import Any

import yaml
from fastapi.testclient import TestClient

from c10klab.content.check import WIDGET_ONLY_KEYS, fenced_blocks, series_request
from c10klab.content.schemas import Baseline, LessonBaselines
from c10klab.content.service import (
    baselines_path,
    load_lessons,
    read_baselines,
    read_experiment,
)
from c10klab.main import create_app
from c10klab.runs.service import parse_sse
from c10klab_bench.harness import harness

# Profiles whose stacks a series' recording keeps for its points (the flame graphs).
STACK_PROFILES = ("cpu", "offcpu")
# The events a widget replays; `queued` and `started` say nothing about the result.
REPLAYED_EVENTS = {"progress", "server_stats", "repetition", "done"}


def replayed(stream: str) -> list[dict[str, Any]]:
    """The events a widget replays, as the widget keeps them: {"type", "data"}."""
    return [{"type": f["event"], "data": f["data"]} for f in parse_sse(stream)]


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def record_run(client: TestClient, block: str, spec: dict[str, Any]) -> Baseline | str:
    request = {k: v for k, v in spec.items() if k not in WIDGET_ONLY_KEYS}
    created = client.post("/api/runs", json=request)
    if created.status_code != 202:
        return f"refused: {created.json()['detail']}"
    events = replayed(client.get(f"/api/runs/{created.json()['id']}/events").text)
    last: dict[str, Any] = events[-1] if events else {"type": "none", "data": {}}
    if last["type"] != "done":
        return f"the run failed: {last['data'].get('reason')}"
    return Baseline(
        block=block,
        kind="run",
        recorded_at=now(),
        provenance=last["data"]["provenance"],
        result={"events": [e for e in events if e["type"] in REPLAYED_EVENTS]},
    )


def record_series(client: TestClient, block: str, spec: dict[str, Any]) -> Baseline | str:
    created = client.post("/api/sweeps", json=series_request(spec).model_dump())
    if created.status_code != 202:
        return f"refused: {created.json()['detail']}"
    events = replayed(client.get(f"/api/sweeps/{created.json()['id']}/events").text)
    table = events[-1]["data"] if events and events[-1]["type"] == "done" else None
    if table is None:
        return "the sweep's stream ended without its table"
    ran = [p for p in table["points"] if p["status"] == "done"]
    if not ran:
        return "no point of the series finished: " + "; ".join(
            sorted({f"{p['status']}: {p['reason']}" for p in table["points"]})
        )
    runs = {p["run_id"]: client.get(f"/api/runs/{p['run_id']}").json() for p in ran}
    provenance = dict(runs[ran[0]["run_id"]]["result"]["provenance"])
    provenance.pop("request", None)  # one point's request; the block says them all
    result: dict[str, Any] = {"table": table}
    if spec.get("profile") in STACK_PROFILES:
        result["profiles"] = {run_id: run["result"]["stacks"] for run_id, run in runs.items()}
    return Baseline(
        block=block,
        kind="series",
        recorded_at=now(),
        provenance=provenance,
        result=result,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--lesson", action="append", help="only this lesson (repeatable)")
    parser.add_argument(
        "--syscalls-only",
        action="store_true",
        help="record again only the blocks that count system calls; keep the others' recordings",
    )
    parser.add_argument(
        "--missing",
        action="store_true",
        help="record only the blocks that have no recording; keep the others'",
    )
    parser.add_argument(
        "--only",
        action="append",
        metavar="ID",
        help="record again only the block with this id (repeatable); keep the others'",
    )
    args = parser.parse_args()

    problems = []
    with (
        harness() as bench,
        TestClient(create_app(bench.settings), base_url="http://localhost") as client,
    ):
        content_dir = bench.settings.content_dir
        for lesson in load_lessons(content_dir):
            if args.lesson and lesson.slug not in args.lesson:
                continue
            recorded = LessonBaselines(lesson=lesson.slug)
            committed = read_baselines(content_dir, lesson.slug)
            kept = {b.key: b for b in committed.experiments} if committed else {}
            for block in fenced_blocks(lesson.markdown):
                if block.language != "experiment":
                    continue
                spec = yaml.safe_load(block.body)
                experiment = read_experiment(block.body.strip())
                skipped = (
                    (args.syscalls_only and spec.get("profile") != "syscalls")
                    or (args.missing and experiment.key in kept)
                    or (args.only and experiment.id not in args.only)
                )
                if skipped:
                    if experiment.key in kept:
                        recorded.experiments.append(kept[experiment.key])
                    continue
                print(f"{lesson.slug}:{block.line}: {spec}", flush=True)
                record = record_series if "servers" in spec else record_run
                outcome = record(client, block.body.strip(), spec)
                if isinstance(outcome, str):
                    problems.append(f"{lesson.slug}:{block.line}: {outcome}")
                    print(f"  not recorded: {outcome}", flush=True)
                    continue
                recorded.experiments.append(outcome)
            path = baselines_path(content_dir, lesson.slug)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(recorded.model_dump_json(indent=1) + "\n")
            print(f"wrote {path} ({len(recorded.experiments)} experiments)", flush=True)
    for problem in problems:
        print(f"problem: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
