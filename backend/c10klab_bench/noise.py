"""`make bench-noise`: where this host's run-to-run spread comes from, and how much foreign CPU
on a measured core moves a lesson's figure, into results/noise.md.

Every run goes through the course's own runner (a fresh server start each, lesson 1's settings:
c-epoll, echo, 100 connections, 5 s after 1 s of warm-up), and its result says how much of the
measured cores others took while it was measured (`interference`: other processes and the
hypervisor's steal, the course's own API, runner and Docker among them).

- Quiet runs: the spread of identical runs, the course's own share of the measured cores, and
  how much of the spread goes with that share (a regression of log QPS on it).
- Disturbed on purpose: a process pinned to the server's core, or the load generator's, busy
  for a fixed share of every 10 ms, in rounds whose order is drawn anew: how much QPS one
  per cent of a core taken costs. From it, the stability check's limit for this host: the share
  at which what others take moves the figure by as much as a second run would anyway (sigma).

- Back to back against separate (`--back-to-back BLOCKS`): in each block, one run of R
  repetitions (fresh containers each, taken back to back) and R separate single runs, in turn
  which first: whether a run's repetitions scatter as much as separate runs do, which decides
  what the runner may estimate its host's noise from (runner/noise.py).

Each invocation's figures go to results/noise-<label>.json; results/noise.md shows every label
measured, side by side (`--label before` on the code before a change, then `--label after`),
and the back-to-back blocks from results/noise-back-to-back.json.
"""

import argparse
import json
import math
import random
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats

from c10klab.config import REPO_ROOT, Settings, parse_cpus
from c10klab.runner.worker import cpu_model
from c10klab.uncertainty import pooled_sigma
from c10klab_bench.harness import Harness, harness

RESULTS = REPO_ROOT / "results"
LESSON = {
    "server": "c-epoll",
    "protocol": "echo",
    "connections": 100,
    "duration_s": 5,
    "warmup_s": 1,
}
# A busy loop pinned to one core, busy for `duty` of every 10 ms period and asleep otherwise.
HOG = """
import os, time
os.sched_setaffinity(0, {{{cpu}}})
busy, period = {duty} * 0.01, 0.01
while True:
    start = time.perf_counter()
    while time.perf_counter() - start < busy:
        pass
    time.sleep(period - busy)
"""


@dataclass(frozen=True)
class Measured:
    condition: str
    qps: float
    stable: bool
    server_share: float  # others + steal on the server's core while measured
    loadgen_share: float
    server_others: float
    loadgen_others: float
    steal: float


def measured(condition: str, result: dict[str, Any]) -> Measured | None:
    use = result.get("interference") or {}
    server, loadgen = use.get("server") or {}, use.get("loadgen") or {}
    if not (result.get("valid") and server.get("judged") and loadgen.get("judged")):
        return None
    return Measured(
        condition=condition,
        qps=float(result["summary"]["qps"]),
        stable=bool(result.get("stable")),
        server_share=server["interference"],
        loadgen_share=loadgen["interference"],
        server_others=server["others"],
        loadgen_others=loadgen["others"],
        steal=(server["steal"] + loadgen["steal"]) / 2,
    )


def run_once(bench: Harness, condition: str, cpu: str | None, duty: float) -> Measured | None:
    hog = None
    if cpu is not None and duty > 0:
        first = min(parse_cpus(cpu))
        code = HOG.format(cpu=first, duty=duty)
        hog = subprocess.Popen([sys.executable, "-c", code])
    try:
        outcome = bench.run(dict(LESSON))
    finally:
        if hog is not None:
            hog.kill()
            hog.wait()
    if outcome.result is None:
        print(f"  {condition}: {outcome.failure}", flush=True)
        return None
    figures = measured(condition, outcome.result)
    if figures:
        print(
            f"  {condition}: {figures.qps:,.0f} req/s, shares {figures.server_share:.1%} "
            f"/ {figures.loadgen_share:.1%}",
            flush=True,
        )
    return figures


BACK_TO_BACK = RESULTS / "noise-back-to-back.json"


def undisturbed_qps(result: dict[str, Any] | None) -> float | None:
    if not result or not result.get("valid") or result.get("stable") is False:
        return None
    return float(result["summary"]["qps"])


def back_to_back(bench: Harness, blocks: int, size: int) -> dict[str, Any]:
    """Each block: a run of `size` repetitions and `size` separate runs, the first of the two
    alternating by block so a drift of the host falls on both; the undisturbed QPS of each."""
    rows = []
    for block in range(blocks):
        repeated: list[float] = []
        separate: list[float] = []
        for kind in ("repetitions", "separate") if block % 2 == 0 else ("separate", "repetitions"):
            if kind == "repetitions":
                result = bench.run(dict(LESSON) | {"repetitions": size}).result or {}
                for rep in result.get("repetitions") or []:
                    if (qps := undisturbed_qps(rep)) is not None:
                        repeated.append(qps)
            else:
                for _ in range(size):
                    if (qps := undisturbed_qps(bench.run(dict(LESSON)).result)) is not None:
                        separate.append(qps)
        print(f"  block {block + 1}: {repeated} / {separate}", flush=True)
        rows.append({"repetitions": repeated, "separate": separate})
    return {
        "measured_at": datetime.now(UTC).isoformat(timespec="minutes"),
        "host": cpu_model(),
        "size": size,
        "blocks": rows,
    }


def log_sd(values: list[float]) -> float | None:
    return statistics.stdev(math.log(v) for v in values) if len(values) > 1 else None


def pooled_cell(groups: list[list[float]]) -> str:
    """The blocks' spreads pooled (each block's level apart), with the runs behind it."""
    pooled = pooled_sigma(groups)
    return "—" if pooled is None else f"{pct(pooled[0])} ({pooled[1]})"


def back_to_back_section(figures: dict[str, Any]) -> list[str]:
    rows = figures["blocks"]
    lines = [
        f"## Back to back against separate ({figures['measured_at']} UTC, {figures['host']})",
        "",
        f"In each block, one run of {figures['size']} repetitions (each on fresh containers, "
        f"taken back to back) and {figures['size']} separate single runs, in turn which first. "
        "Undisturbed runs only. Each block's sigma is about its own level; the pooled row weighs "
        "each by its runs less one. The runner estimates its host's noise from separate runs "
        "only (runner/noise.py): how far a separate run lands from another.",
        "",
        "| block | repetitions: sigma of log QPS (runs) | separate: sigma of log QPS (runs) |",
        "|---:|---:|---:|",
    ]
    for number, row in enumerate(rows, 1):
        cells = [
            f"{pct(log_sd(row[kind]))} ({len(row[kind])})" for kind in ("repetitions", "separate")
        ]
        lines.append(f"| {number} | {cells[0]} | {cells[1]} |")
    cells = [pooled_cell([row[kind] for row in rows]) for kind in ("repetitions", "separate")]
    lines += [f"| pooled | {cells[0]} | {cells[1]} |", ""]
    return lines


def slope(xs: list[float], ys: list[float]) -> dict[str, float] | None:
    """Theil-Sen's slope of ys on xs with its 95 % interval: the median of the pairwise
    slopes, so one run an outside cause threw far off does not tilt it. None without spread."""
    if len(xs) < 3 or max(xs) == min(xs):
        return None
    fit = stats.theilslopes(ys, xs, alpha=0.95)
    return {"slope": float(fit.slope), "low": float(fit.low_slope), "high": float(fit.high_slope)}


def robust_sigma(logs: list[float]) -> float | None:
    """The spread of log QPS as 1.4826 median absolute deviations: sigma for a normal
    scatter, and one disturbed run cannot inflate it."""
    if len(logs) < 3:
        return None
    median = statistics.median(logs)
    return 1.4826 * statistics.median(abs(x - median) for x in logs)


def summarise(label: str, quiet: list[Measured], disturbed: list[Measured]) -> dict[str, Any]:
    logs = [math.log(m.qps) for m in quiet]
    sigma = robust_sigma(logs)
    roles: dict[str, Any] = {}
    for role, share in (("server", "server_share"), ("loadgen", "loadgen_share")):
        runs = quiet + [m for m in disturbed if m.condition.startswith(role)]
        fit = slope([getattr(m, share) for m in runs], [math.log(m.qps) for m in runs])
        usual = statistics.median(getattr(m, share) for m in quiet) if quiet else None
        limit = None
        if fit and fit["slope"] < 0 and sigma is not None and usual is not None:
            limit = usual + sigma / -fit["slope"]
        roles[role] = {"fit": fit, "usual": usual, "limit": limit, "runs": len(runs)}
    return {
        "label": label,
        "measured_at": datetime.now(UTC).isoformat(timespec="minutes"),
        "host": cpu_model(),
        "quiet": [asdict(m) for m in quiet],
        "disturbed": [asdict(m) for m in disturbed],
        "sigma": sigma,
        "sigma_stdev": statistics.stdev(logs) if len(logs) > 1 else None,
        "quiet_fit": slope([m.server_share + m.loadgen_share for m in quiet], logs),
        "roles": roles,
    }


def pct(value: float | None, digits: int = 1) -> str:
    return "—" if value is None else f"{value * 100:.{digits}f} %"


def section(figures: dict[str, Any]) -> list[str]:
    quiet = [Measured(**m) for m in figures["quiet"]]
    disturbed = [Measured(**m) for m in figures["disturbed"]]
    qps = [m.qps for m in quiet]
    flagged = sum(not m.stable for m in quiet)
    fit = figures["quiet_fit"]
    lines = [
        f"## {figures['label']} ({figures['measured_at']} UTC, {figures['host']})",
        "",
        *([figures["note"], ""] if figures.get("note") else []),
        f"{len(quiet)} identical quiet runs: median {statistics.median(qps):,.0f} req/s, "
        f"{min(qps):,.0f} to {max(qps):,.0f}; run-to-run sigma of log QPS "
        f"{pct(figures['sigma'])} (1.4826 MAD; standard deviation {pct(figures['sigma_stdev'])}"
        f"); {flagged} flagged disturbed by the limit of the code measured.",
        "",
        "| measured core | others (median) | steal (median) | others + steal, 10th–90th pct |",
        "|---|---:|---:|---|",
    ]
    for role, share, others in (
        ("server's", "server_share", "server_others"),
        ("load generator's", "loadgen_share", "loadgen_others"),
    ):
        values = [getattr(m, share) for m in quiet]
        low, high = np.percentile(values, [10, 90]) if values else (0.0, 0.0)
        lines.append(
            f"| {role} | {pct(statistics.median(getattr(m, others) for m in quiet))} | "
            f"{pct(statistics.median(m.steal for m in quiet))} | "
            f"{pct(float(low))} – {pct(float(high))} |"
        )
    lines += [""]
    if fit:
        lines.append(
            f"Within the quiet runs, log QPS against what others took of both measured cores: "
            f"Theil-Sen slope {fit['slope']:.2f} ({fit['low']:.2f} to {fit['high']:.2f}, 95 %): "
            "how far the course's own and the host's work on the measured cores moves a quiet "
            "run's figure."
        )
        lines.append("")
    lines += [
        "| disturbed on purpose | runs | slope of log QPS per share taken (95 %) | usual share "
        "| limit: usual + sigma / -slope |",
        "|---|---:|---|---:|---:|",
    ]
    for role, words in (("server", "the server's core"), ("loadgen", "the load generator's")):
        r = figures["roles"][role]
        f = r["fit"]
        slope_text = "—" if f is None else f"{f['slope']:.2f} ({f['low']:.2f} to {f['high']:.2f})"
        lines.append(
            f"| {words} | {r['runs']} | {slope_text} | {pct(r['usual'])} | {pct(r['limit'])} |"
        )
    by_condition: dict[str, list[float]] = {}
    for m in disturbed:
        by_condition.setdefault(m.condition, []).append(m.qps)
    if by_condition:
        lines += ["", "| condition | runs | median req/s |", "|---|---:|---:|"]
        lines += [
            f"| {name} | {len(values)} | {statistics.median(values):,.0f} |"
            for name, values in sorted(by_condition.items())
        ]
    return [*lines, ""]


def write_report(output: Path) -> None:
    measured_sets = sorted(
        (p for p in RESULTS.glob("noise-*.json") if p != BACK_TO_BACK),
        key=lambda p: p.stat().st_mtime,
    )
    lines = [
        "# Where the run-to-run spread comes from (make bench-noise)",
        "",
        "Identical runs of lesson 1's experiment through the course's own runner, each a fresh "
        "server start; then the same with a process pinned to a measured core, busy for a fixed "
        "share of every 10 ms. `others` is what processes other than the run's own containers "
        "took of a measured core while it was measured (the course's API, runner and Docker "
        "among them), `steal` what the hypervisor took. Each section was measured by one "
        "invocation; compare sections measured back to back only.",
        "",
    ]
    for path in measured_sets:
        lines += section(json.loads(path.read_text()))
    if BACK_TO_BACK.exists():
        lines += back_to_back_section(json.loads(BACK_TO_BACK.read_text()))
    output.write_text("\n".join(lines))
    print(f"wrote {output}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--label", default="now", help="names this measurement's section")
    parser.add_argument("--quiet", type=int, default=12, help="identical quiet runs")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the disturbed runs")
    parser.add_argument("--duty", type=float, nargs="+", default=[0.15, 0.3])
    parser.add_argument("--note", default="", help="what the code measured was, in a sentence")
    parser.add_argument("--report-only", action="store_true")
    parser.add_argument(
        "--back-to-back",
        type=int,
        default=0,
        metavar="BLOCKS",
        help="measure only this many blocks of repetitions against separate runs",
    )
    args = parser.parse_args()
    RESULTS.mkdir(exist_ok=True)
    if args.back_to_back:
        with harness(Settings(calibration_runs=0)) as bench:
            figures = back_to_back(bench, args.back_to_back, size=5)
        BACK_TO_BACK.write_text(json.dumps(figures, indent=1) + "\n")
    elif not args.report_only:
        settings = Settings(calibration_runs=0)
        conditions = [
            (f"{role} core {duty:.0%} taken", cpus, duty)
            for role, cpus in (("server", settings.server_cpus), ("loadgen", settings.loadgen_cpus))
            for duty in args.duty
        ]
        rng = random.Random(2026)
        quiet: list[Measured] = []
        disturbed: list[Measured] = []
        started = time.monotonic()
        with harness(settings) as bench:
            print("quiet runs", flush=True)
            for _ in range(args.quiet):
                if m := run_once(bench, "quiet", None, 0.0):
                    quiet.append(m)
            print("disturbed runs", flush=True)
            for _ in range(args.rounds):
                for name, cpus, duty in rng.sample(conditions, len(conditions)):
                    if m := run_once(bench, name, cpus, duty):
                        disturbed.append(m)
        figures = summarise(args.label, quiet, disturbed)
        figures["seconds"] = round(time.monotonic() - started)
        figures["note"] = args.note
        (RESULTS / f"noise-{args.label}.json").write_text(json.dumps(figures, indent=1) + "\n")
    write_report(RESULTS / "noise.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
