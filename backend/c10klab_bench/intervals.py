"""make bench-intervals: how the course's comparison method behaves on simulated rounds, before
any container runs: how often its 95 % interval holds the true change, how wide it is, and what
a rule for adding rounds does to both. Written to results/intervals.md.

Each round's pair is simulated as the course measures it: two runs whose log QPS each scatter
by sigma around their server's level, a drift shared by the round (it cancels in the ratio),
and now and then a disturbed run far below (the stability check misses some). The method is
the one the product uses (c10klab.uncertainty.paired_change); the alternatives are scipy's
bootstrap intervals, which the method was chosen against.
"""

import argparse
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
from scipy import stats

from c10klab.uncertainty import HostNoise, compare, paired_change, rounds_for

RESULTS = Path(__file__).resolve().parents[2] / "results" / "intervals.md"
Interval = tuple[float, float]


@dataclass(frozen=True)
class Scenario:
    name: str
    sigma: float  # each run's scatter, log QPS
    outliers: float  # share of runs disturbed
    drift: float = 0.05  # each round's shift, shared by its two runs


def simulate_rounds(rng: np.random.Generator, s: Scenario, n: int, effect: float) -> np.ndarray:
    """n rounds of (reference, subject) QPS: the subject `effect` higher in truth."""
    shared = rng.normal(0, s.drift, n)
    logs = np.log(100_000) + shared[:, None] + rng.normal(0, s.sigma, (n, 2))
    logs[:, 1] += math.log1p(effect)
    logs[rng.random((n, 2)) < s.outliers] -= 0.3
    rounds: np.ndarray = np.exp(logs)
    return rounds


def course_interval(rounds: np.ndarray) -> Interval:
    change = paired_change(list(rounds[:, 1]), list(rounds[:, 0]))
    assert change is not None
    return change.low, change.high


def _bootstrap(
    statistic: Callable[..., np.ndarray], method: Literal["BCa", "percentile"]
) -> Callable[[np.ndarray], Interval]:
    def interval(rounds: np.ndarray) -> Interval:
        logs = np.log(rounds[:, 1] / rounds[:, 0])
        found = stats.bootstrap(
            (logs,), statistic, method=method, n_resamples=999, random_state=1
        ).confidence_interval
        return math.expm1(found.low), math.expm1(found.high)

    return interval


def hodges_lehmann(x: np.ndarray, axis: int = -1) -> np.ndarray:
    x = np.moveaxis(np.asarray(x), axis, -1)
    i, j = np.triu_indices(x.shape[-1])
    medians: np.ndarray = np.median((x[..., i] + x[..., j]) / 2, axis=-1)
    return medians


METHODS: dict[str, Callable[[np.ndarray], Interval]] = {
    "paired t on log ratios (the course's)": course_interval,
    "bootstrap BCa, mean log ratio": _bootstrap(np.mean, "BCa"),
    "bootstrap percentile, Hodges-Lehmann": _bootstrap(hodges_lehmann, "percentile"),
}
SCENARIOS = [
    Scenario("quiet: 3 % per run", sigma=0.03, outliers=0.0),
    Scenario("noisy: 6 % per run, 1 run in 10 disturbed", sigma=0.06, outliers=0.1),
]


def coverage_table(rng: np.random.Generator, trials: int) -> list[str]:
    lines = [
        "| scenario | rounds | method | holds the true change | median width |",
        "|---|---:|---|---:|---:|",
    ]
    for scenario in SCENARIOS:
        for n in (3, 5, 8):
            for name, method in METHODS.items():
                held, widths = 0, []
                for _ in range(trials):
                    rounds = simulate_rounds(rng, scenario, n, effect=0.0)
                    # with outliers the true change is still 0: both servers are disturbed alike
                    low, high = method(rounds)
                    held += low <= 0 <= high
                    widths.append(high - low)
                lines.append(
                    f"| {scenario.name} | {n} | {name} | {held / trials:.1%} "
                    f"| ±{np.median(widths) / 2:.1%} |"
                )
    return lines


@dataclass(frozen=True)
class Rule:
    name: str
    first: int  # rounds before the first look
    most: int
    stop: Callable[[float, float], bool]  # (low, high) of the QPS change -> enough


def planned(scenario: Scenario) -> Rule:
    """The course's rule: a fixed number of rounds, planned from the host's known noise for a
    ±5 % interval (at most 10)."""
    noise = HostNoise(sigma=scenario.sigma, runs=10, groups=2, measured_at="")
    n = rounds_for(0.05, noise, 10)
    return Rule(f"planned from the host's noise for ±5 %: {n} rounds", n, n, lambda lo, hi: True)


RULES = [
    Rule("fixed: 5 rounds", 5, 5, lambda low, high: True),
    Rule("until ±3 % wide, 4 to 10 rounds", 4, 10, lambda low, high: (high - low) / 2 <= 0.03),
    Rule("until decided (for contrast), 4 to 10", 4, 10, lambda low, high: low > 0 or high < 0),
]


def adaptive_table(rng: np.random.Generator, trials: int) -> list[str]:
    lines = [
        "| scenario | rule | A/A called 'no difference' | +10 % called higher | mean rounds |",
        "|---|---|---:|---:|---:|",
    ]
    for scenario in SCENARIOS:
        for rule in [planned(scenario), *RULES]:
            same, found, spent = 0, 0, 0
            for effect in (0.0, 0.10):
                for _ in range(trials):
                    rounds = simulate_rounds(rng, scenario, rule.most, effect)
                    n = rule.first
                    while True:
                        change = paired_change(list(rounds[:n, 1]), list(rounds[:n, 0]))
                        assert change is not None
                        if n == rule.most or rule.stop(change.low, change.high):
                            break
                        n += 1
                    call = compare("b", "a", "qps", change).call
                    spent += n
                    if effect == 0.0:
                        same += call == "no_difference"
                    else:
                        found += call == "higher"
            lines.append(
                f"| {scenario.name} | {rule.name} | {same / trials:.1%} | {found / trials:.1%} "
                f"| {spent / (2 * trials):.1f} |"
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trials", type=int, default=1000)
    args = parser.parse_args()
    rng = np.random.default_rng(2026)
    started = time.monotonic()
    coverage = coverage_table(rng, args.trials)
    adaptive = adaptive_table(rng, args.trials)
    text = "\n".join(
        [
            "# Intervals on simulated rounds (make bench-intervals)",
            "",
            f"{args.trials} simulated comparisons per row, seed 2026, "
            f"{time.monotonic() - started:.0f} s. A round runs both servers; each run's log QPS "
            "scatters by the scenario's sigma, the round's drift (5 %) falls on both, and a "
            "disturbed run loses 30 %. No container runs: this is the method alone, "
            "`c10klab.uncertainty`, against scipy's bootstrap.",
            "",
            "## How often a 95 % interval holds the true change (A against itself)",
            "",
            *coverage,
            "",
            "## Adding rounds: when to stop",
            "",
            "Stopping as soon as the interval leaves zero tests again at every round and calls "
            "a difference between identical servers far more often than one time in twenty. "
            "Stopping once the interval is narrow enough looks only at its width, and still "
            "loses part of the 95 %: a few rounds' spread is underestimated exactly when they "
            "happen to agree, which is when it stops. A number of rounds fixed before any runs, "
            "planned from the host's known noise, keeps it; that is the course's rule "
            "(`within`).",
            "",
            *adaptive,
            "",
        ]
    )
    RESULTS.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
