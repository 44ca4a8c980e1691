"""How sure a figure is, and what a comparison of two servers may say: the one place the course
turns measurements into intervals and verdicts (docs/ARCHITECTURE.md, "Uncertainty").

- A figure measured several times (a series' rounds) is their median with a distribution-free
  95 % interval for it (scipy's quantile test): no shape assumed, an outlying run moves it little.
- Two servers run in rounds are compared pair by pair: each round ran both, one right after the
  other in a random order, so the log of their ratio cancels what drifted between rounds. The
  change is the geometric mean of those ratios with Student's t interval on their logs: at
  three to eight pairs it holds its 95 % where a bootstrap's holds 70-93 % (results/
  intervals.md), and an outlying round widens it, towards "no difference", never the wrong way.
- Figures measured once each are compared with this host's own run-to-run spread (HostNoise):
  what separate identical runs scatter by here, measured by the runner. The spread is itself
  estimated from a few runs, so the interval is Student's t at its degrees of freedom, not the
  normal's 1.96: five runs give t = 2.78, and a lucky calibration does not make every
  difference look real.

A verdict is "higher" or "lower" only when its whole interval is; otherwise "no difference this
host can detect", with how wide the interval was.
"""

import math
import statistics
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field, computed_field
from scipy import stats

LEVEL = 0.95
# Fewer pairs than this give an interval too wide to say anything (t at 1 degree of freedom).
MIN_PAIRS = 3

Metric = Literal["qps", "p99_us"]
Call = Literal["higher", "lower", "no_difference", "too_few"]
Method = Literal["median_order_statistics", "paired_log_ratio_t", "host_noise"]


class Interval(BaseModel):
    """A figure and the range that holds its true value with probability `level`."""

    estimate: float
    low: float
    high: float
    level: float = Field(description="the interval's confidence; below 0.95 only with few runs")
    count: int = Field(description="the measurements (or pairs of them) behind it")
    method: Method


class Comparison(BaseModel):
    """A verdict: what one entry's figure is against a reference's, as a relative change with
    its interval and the call that interval allows."""

    subject: str
    reference: str
    metric: Metric
    change: Interval | None = Field(
        description="subject / reference - 1 (0.05 = 5 % higher); null with too few measurements"
    )
    call: Call = Field(
        description="higher or lower when the whole interval is; no_difference when it holds "
        "0 (this host cannot tell them apart); too_few without enough measurements (for "
        "single runs: while neither side's host noise is known)"
    )


class HostNoise(BaseModel):
    """How far separate identical runs scatter on one runner host."""

    sigma: float = Field(
        description="standard deviation of log QPS between identical runs (about their "
        "coefficient of variation: 0.05 = 5 %)"
    )
    runs: int = Field(description="the runs it was estimated from")
    groups: int = Field(description="sets of identical runs among them")
    measured_at: str

    @computed_field(  # type: ignore[prop-decorator]
        description="the estimate's degrees of freedom: runs less sets, at least 1"
    )
    @property
    def freedom(self) -> int:
        return max(self.runs - self.groups, 1)

    @computed_field(  # type: ignore[prop-decorator]
        description="Student's t, two-sided 95 %, at `freedom`: a single run's 95 % range is "
        "±quantile·sigma, and a second run's distance from a first ±quantile·sigma·√2"
    )
    @property
    def quantile(self) -> float:
        return round(float(stats.t.ppf(0.5 + LEVEL / 2, self.freedom)), 4)


def _usable(values: Sequence[float | None]) -> list[float]:
    return [v for v in values if v is not None and math.isfinite(v) and v > 0]


def median_interval(values: Sequence[float | None]) -> Interval | None:
    """The median of repeated measurements and a distribution-free interval for it. From six
    values on it is the 95 % one; with fewer no pair of order statistics reaches 95 %, so it is
    the whole range, with the confidence it has (93.75 % of five, 75 % of three)."""
    usable = sorted(_usable(values))
    if not usable:
        return None
    median = statistics.median(usable)
    n = len(usable)
    # scipy-stubs says float; scipy returns a ConfidenceInterval (low, high)
    found: Any = stats.quantile_test(usable, q=median, p=0.5).confidence_interval(LEVEL)
    if math.isfinite(found.low) and math.isfinite(found.high):
        low, high, level = float(found.low), float(found.high), LEVEL
    else:
        low, high, level = usable[0], usable[-1], 1 - 2 * 0.5**n
    return Interval(
        estimate=median,
        low=low,
        high=high,
        level=round(level, 4),
        count=n,
        method="median_order_statistics",
    )


def single_interval(value: float | None, noise: HostNoise | None) -> Interval | None:
    """Where a figure measured once would land again on its host, with 95 %: value·e^(±t·sigma)
    by the host's run-to-run spread; None while that spread is unknown."""
    if noise is None or value is None or not _usable([value]):
        return None
    half = noise.quantile * noise.sigma
    return Interval(
        estimate=value,
        low=value * math.exp(-half),
        high=value * math.exp(half),
        level=LEVEL,
        count=1,
        method="host_noise",
    )


def _both(subject: float | None, reference: float | None) -> tuple[float, float] | None:
    """Both figures, when both are positive finite numbers a ratio can be taken of."""
    if subject is None or reference is None or len(_usable([subject, reference])) < 2:
        return None
    return subject, reference


def _change(
    mean_log: float, low_log: float, high_log: float, count: int, method: Method
) -> Interval:
    return Interval(
        estimate=math.expm1(mean_log),
        low=math.expm1(low_log),
        high=math.expm1(high_log),
        level=LEVEL,
        count=count,
        method=method,
    )


def paired_change(
    subject: Sequence[float | None], reference: Sequence[float | None]
) -> Interval | None:
    """subject / reference - 1 over rounds that measured both (position i of each list is round
    i), with the t interval on the pairs' log ratios; None with fewer than MIN_PAIRS pairs."""
    pairs = [_both(s, r) for s, r in zip(subject, reference, strict=True)]
    logs = [math.log(s / r) for s, r in filter(None, pairs)]
    if len(logs) < MIN_PAIRS:
        return None
    mean = sum(logs) / len(logs)
    if max(logs) == min(logs):  # identical ratios: no spread to put an interval on
        return _change(mean, mean, mean, len(logs), "paired_log_ratio_t")
    found = stats.ttest_1samp(logs, 0.0).confidence_interval(LEVEL)
    return _change(mean, float(found.low), float(found.high), len(logs), "paired_log_ratio_t")


def single_change(
    subject: float | None,
    reference: float | None,
    subject_noise: HostNoise | None,
    reference_noise: HostNoise | None = None,
) -> Interval | None:
    """Two figures measured once each: their ratio, and the interval the hosts' run-to-run
    spread puts on it (the difference of two logs, each scattering by its host's sigma). A side
    whose host's noise is unknown is taken to scatter as the other's; None when neither is
    known, since then nothing says how far a second run could land."""
    both = _both(subject, reference)
    known = [n for n in (subject_noise, reference_noise) if n is not None]
    if not known or both is None:
        return None
    subject_noise = subject_noise or known[0]
    reference_noise = reference_noise or known[0]
    spread = math.hypot(subject_noise.sigma, reference_noise.sigma)
    log_ratio = math.log(both[0] / both[1])
    half = stats.t.ppf(0.5 + LEVEL / 2, _freedom(subject_noise, reference_noise)) * spread
    return _change(log_ratio, log_ratio - half, log_ratio + half, 1, "host_noise")


def _freedom(first: HostNoise, second: HostNoise) -> float:
    """The degrees of freedom of the two estimates' sum of variances: one estimate's own when
    both sides read the same one, else Welch-Satterthwaite's."""
    if first == second:
        return first.freedom
    a, b = first.sigma**2, second.sigma**2
    if a + b == 0:
        return min(first.freedom, second.freedom)
    return (a + b) ** 2 / (a**2 / first.freedom + b**2 / second.freedom)


def compare(subject: str, reference: str, metric: Metric, change: Interval | None) -> Comparison:
    if change is None:
        call: Call = "too_few"
    elif change.low > 0:
        call = "higher"
    elif change.high < 0:
        call = "lower"
    else:
        call = "no_difference"
    return Comparison(subject=subject, reference=reference, metric=metric, change=change, call=call)


def rounds_for(within: float, noise: HostNoise | None, most: int) -> int:
    """How many rounds a comparison needs for its QPS interval to be about ±within wide, from
    the host's known noise (each pair's log ratio scatters by sigma·√2): the fewest from
    MIN_PAIRS on, or `most` when the noise is unknown or that is not enough. Decided before any
    round runs, so the interval keeps its 95 %: stopping once an interval looks narrow enough
    would favour rounds that happened to agree (results/intervals.md)."""
    if noise is None:
        return most
    for n in range(MIN_PAIRS, most + 1):
        if stats.t.ppf(0.5 + LEVEL / 2, n - 1) * noise.sigma * math.sqrt(2 / n) <= within:
            return n
    return most


def pooled_sigma(groups: Sequence[Sequence[float]]) -> tuple[float, int, int] | None:
    """The standard deviation of log QPS within sets of identical runs, pooled over the sets
    (each contributes its size less one degrees of freedom): (sigma, runs, sets), or None
    without a set of two."""
    squares, freedom, runs, sets = 0.0, 0, 0, 0
    for group in groups:
        logs = [math.log(v) for v in _usable(group)]
        if len(logs) < 2:
            continue
        mean = sum(logs) / len(logs)
        squares += sum((x - mean) ** 2 for x in logs)
        freedom += len(logs) - 1
        runs += len(logs)
        sets += 1
    if freedom == 0:
        return None
    return math.sqrt(squares / freedom), runs, sets
