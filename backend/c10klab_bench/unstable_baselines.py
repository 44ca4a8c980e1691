"""Which recorded reference results the runner's drift check would call unstable.

content/baselines/*.json were recorded before the runner judged stability. A recorded run keeps
its progress events, so the same check the runner makes (runner/measure.drift: a measured
interval's QPS more than C10K_MAX_DRIFT from the run's median interval QPS) can be applied to
it now; a recorded series keeps only its sweep table (one figure per point), which has no
intervals to judge. CPU interference cannot be judged afterwards: nobody sampled /proc/stat.

    .venv/bin/python -m c10klab_bench.unstable_baselines [--max-drift 0.3]
"""

import argparse
import sys
from typing import Any

import yaml

from c10klab.config import Settings
from c10klab.content.check import fenced_blocks
from c10klab.content.service import load_lessons, read_baselines
from c10klab.results.schemas import CpuUse, Drift, Interference
from c10klab.runner import measure


def measured_intervals(events: list[dict[str, Any]]) -> dict[int, list[measure.Interval]]:
    """The measure phase's progress events of a recorded run, per repetition."""
    intervals: dict[int, list[measure.Interval]] = {}
    for event in events:
        data = event["data"]
        if event["type"] == "progress" and data.get("phase") == "measure":
            interval = measure.Interval(data["t_s"], data["qps"], data.get("interval_s"))
            intervals.setdefault(int(data.get("repetition") or 1), []).append(interval)
    return intervals


def largest_departure(figures: Drift, intervals: list[measure.Interval]) -> float:
    median = figures.median_qps or 0.0
    return max((abs(i.qps / median - 1) for i in intervals), default=0.0) if median else 0.0


def judge_run(spec: dict[str, Any], events: list[dict[str, Any]], max_drift: float) -> list[str]:
    """One line per repetition: steady, not judged, or unstable with the runner's sentence."""
    open_loop = float(spec.get("rate", 0)) > 0
    per_repetition = measured_intervals(events)
    lines = []
    for number, intervals in sorted(per_repetition.items()):
        figures = measure.drift(intervals, max_drift, open_loop)
        which = f"repetition {number}: " if len(per_repetition) > 1 else ""
        if not figures.judged:
            lines.append(f"{which}not judged: {figures.note}")
            continue
        reason = measure.judge_stability(NO_INTERFERENCE, figures)
        largest = largest_departure(figures, intervals)
        lines.append(
            f"{which}UNSTABLE: {reason}"
            if reason
            else f"{which}steady ({figures.intervals} intervals, median "
            f"{figures.median_qps or 0.0:,.0f} requests/s, largest departure {largest:.0%})"
        )
    return lines or ["not judged: no measured progress events recorded"]


# The recordings have no CPU figures: judge drift alone.
_UNJUDGED = CpuUse(cpus="", judged=False)
NO_INTERFERENCE = Interference(limit=1.0, server=_UNJUDGED, loadgen=_UNJUDGED)


def judge_series(table: dict[str, Any]) -> list[str]:
    """A sweep table keeps no intervals; it can only pass on verdicts recorded with it."""
    points = table.get("points", [])
    recorded = [p for p in points if p.get("stable") is False]
    if recorded:
        return [
            f"UNSTABLE point {p['server']}@{p['value']:g}: {p['unstable_reason']}" for p in recorded
        ]
    return [f"not judged: a sweep table ({len(points)} points) keeps no per-interval QPS"]


def main() -> int:
    settings = Settings()
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--max-drift", type=float, default=settings.max_drift)
    args = parser.parse_args()

    flagged = judged = 0
    for lesson in load_lessons(settings.content_dir):
        recorded = read_baselines(settings.content_dir, lesson.slug)
        if recorded is None:
            continue
        lines_of = {b.body.strip(): b.line for b in fenced_blocks(lesson.markdown)}
        for baseline in recorded.experiments:
            spec = yaml.safe_load(baseline.block)
            where = f"{lesson.slug}:{lines_of.get(baseline.block, '?')}"
            result = baseline.result.model_dump(mode="json", exclude_unset=True)  # as recorded
            if baseline.kind == "series":
                what = f"series {', '.join(spec['servers'])}"
                verdicts = judge_series(result["table"])
            else:
                what = f"run {spec['server']}" + (
                    f" at {spec['rate']:,} req/s" if spec.get("rate") else ""
                )
                verdicts = judge_run(spec, result["events"], args.max_drift)
            judged += any(not v.startswith("not judged") for v in verdicts)
            flagged += any("UNSTABLE" in v for v in verdicts)
            print(f"{where} {what}")
            for verdict in verdicts:
                print(f"    {verdict}")
    print(
        f"\n{flagged} of {judged} judged experiments would be marked unstable at "
        f"max_drift={args.max_drift:.0%} (series are not judged: their tables keep no intervals)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
