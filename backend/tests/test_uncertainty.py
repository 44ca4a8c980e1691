"""The intervals and verdicts every comparison in the course is built from."""

import math
import random

import pytest

from c10klab.uncertainty import (
    HostNoise,
    compare,
    median_interval,
    paired_change,
    pooled_sigma,
    rounds_for,
    single_change,
    single_interval,
)

NOISE_5 = HostNoise(sigma=0.05, runs=20, groups=4, measured_at="2026-11-28T00:00:00Z")


def test_median_interval_of_six_or_more_is_a_95_percent_one_inside_the_range() -> None:
    values = [100.0, 104.0, 97.0, 101.0, 99.0, 180.0, 102.0, 98.0, 103.0, 100.5]
    found = median_interval(values)
    assert found is not None
    assert found.estimate == pytest.approx(100.75)
    assert found.level == 0.95
    assert min(values) < found.low <= found.estimate <= found.high < max(values)
    # the outlier at 180 stays out of it
    assert found.high < 110


def test_median_interval_of_few_runs_is_their_range_at_the_confidence_it_has() -> None:
    found = median_interval([10.0, 12.0, 11.0, None, 13.0, 9.0])
    assert found is not None
    assert (found.low, found.estimate, found.high) == (9.0, 11.0, 13.0)
    assert found.level == 0.9375  # 1 - 2 / 2**5
    assert found.count == 5
    assert median_interval([None, float("nan")]) is None


def test_paired_change_finds_a_ten_percent_effect_and_says_its_interval() -> None:
    rng = random.Random(3)
    reference = [100_000 * math.exp(rng.gauss(0, 0.03)) for _ in range(8)]
    # each round's drift falls on both alike: it cancels in the ratio
    subject = [r * 1.10 * math.exp(rng.gauss(0, 0.01)) for r in reference]
    change = paired_change(subject, reference)
    assert change is not None and change.count == 8
    assert change.low < 0.10 < change.high
    assert change.low > 0.05 and change.high < 0.15
    assert compare("b", "a", "qps", change).call == "higher"


def test_a_server_against_itself_is_called_different_about_one_time_in_twenty() -> None:
    rng = random.Random(5)

    def rounds() -> list[float]:
        return [100_000 * math.exp(rng.gauss(0, 0.05)) for _ in range(6)]

    calls = [compare("a'", "a", "qps", paired_change(rounds(), rounds())).call for _ in range(400)]
    assert set(calls) <= {"no_difference", "higher", "lower"}
    assert 0.92 <= calls.count("no_difference") / len(calls) <= 0.99


def test_paired_change_skips_rounds_missing_either_side_and_needs_three_pairs() -> None:
    assert paired_change([1.0, None, 3.0, 4.0], [1.0, 2.0, None, 4.0]) is None
    change = paired_change([2.0, None, 2.2, 1.8, 2.0], [1.0, 1.0, 1.1, 0.9, 1.0])
    assert change is not None and change.count == 4
    assert change.low == change.high == pytest.approx(1.0)  # every ratio exactly 2
    assert compare("s", "r", "p99_us", None).call == "too_few"


def test_an_outlying_round_widens_the_interval_rather_than_turning_the_call() -> None:
    reference = [100.0, 101.0, 99.0, 100.0, 100.5, 99.5]
    subject = [100.5, 100.5, 99.5, 100.0, 100.0, 60.0]  # one disturbed round
    change = paired_change(subject, reference)
    assert change is not None
    assert compare("s", "r", "qps", change).call == "no_difference"


def test_single_runs_are_compared_with_the_hosts_run_to_run_spread() -> None:
    close = single_change(105.0, 100.0, NOISE_5)
    assert close is not None and close.method == "host_noise"
    assert compare("s", "r", "qps", close).call == "no_difference"
    # two runs each scattering 5 %, known from 20 runs in 4 sets (16 degrees of freedom,
    # t = 2.120): a ratio within about ±15 % is one the host cannot tell
    assert NOISE_5.freedom == 16 and NOISE_5.quantile == pytest.approx(2.1199, abs=1e-4)
    assert math.log1p(close.high) - math.log1p(close.estimate) == pytest.approx(
        2.1199 * 0.05 * 2**0.5, rel=1e-3
    )
    far = single_change(60.0, 100.0, NOISE_5)
    assert far is not None and compare("s", "r", "qps", far).call == "lower"
    assert single_change(105.0, 100.0, None) is None
    assert single_change(None, 100.0, NOISE_5) is None


def test_a_figure_measured_once_has_the_range_a_second_run_would_land_in() -> None:
    found = single_interval(200_000.0, NOISE_5)
    assert found is not None and found.method == "host_noise" and found.count == 1
    # ±t·sigma in logs, so the range is even in ratio: 200k·e^(±2.1199·0.05)
    assert found.low == pytest.approx(200_000 * math.exp(-2.1199 * 0.05), rel=1e-4)
    assert found.high / found.estimate == pytest.approx(found.estimate / found.low)
    assert single_interval(200_000.0, None) is None
    assert single_interval(None, NOISE_5) is None


def test_single_runs_of_two_hosts_add_their_spreads_and_lend_a_known_one_to_an_unknown() -> None:
    noise_10 = NOISE_5.model_copy(update={"sigma": 0.10})
    mixed = single_change(105.0, 100.0, NOISE_5, noise_10)
    assert mixed is not None
    # Welch-Satterthwaite: (0.05² + 0.10²)² / (0.05⁴/16 + 0.10⁴/16) = 23.5 degrees of freedom
    assert math.log1p(mixed.high) - math.log1p(mixed.estimate) == pytest.approx(
        2.0661 * math.hypot(0.05, 0.10), rel=1e-3
    )
    lent = single_change(105.0, 100.0, None, NOISE_5)
    same = single_change(105.0, 100.0, NOISE_5)
    assert lent is not None and same is not None and lent.high == pytest.approx(same.high)


def test_a_spread_known_from_few_runs_widens_the_interval() -> None:
    """Three calibration runs that happened to agree: t at 2 degrees of freedom is 4.30, so
    the interval is more than twice the normal one, not a certainty the runs do not give."""
    lucky = HostNoise(sigma=0.01, runs=3, groups=1, measured_at="2026-11-29T00:00:00Z")
    assert lucky.freedom == 2 and lucky.quantile == pytest.approx(4.3027, abs=1e-4)
    found = single_change(110.0, 100.0, lucky)
    assert found is not None
    assert math.log1p(found.high) - math.log1p(found.estimate) == pytest.approx(
        4.3027 * 0.01 * 2**0.5, rel=1e-3
    )
    assert HostNoise(sigma=0.01, runs=1, groups=1, measured_at="x").freedom == 1


def test_pooled_sigma_is_the_spread_within_sets_of_identical_runs() -> None:
    # two sets whose levels differ greatly: only the scatter within each counts
    low = [100.0 * math.exp(d) for d in (-0.05, 0.0, 0.05)]
    high = [500.0 * math.exp(d) for d in (-0.05, 0.05)]
    sigma, runs, sets = pooled_sigma([low, high, [42.0]]) or (0, 0, 0)
    assert (runs, sets) == (5, 2)
    assert sigma == pytest.approx(math.sqrt((0.005 + 0.005) / 3))
    assert pooled_sigma([[1.0], []]) is None


def test_rounds_are_planned_from_the_hosts_noise_before_any_runs() -> None:
    quiet = NOISE_5.model_copy(update={"sigma": 0.01})
    assert rounds_for(0.05, quiet, most=10) == 3  # the fewest that give an interval
    # 5 % per run: t(n-1) * 0.05 * sqrt(2 / n) is ±11 % at 4 rounds, ±8.8 % at 5
    assert rounds_for(0.10, NOISE_5, most=10) == 5
    assert rounds_for(0.06, NOISE_5, most=10) == 8
    assert rounds_for(0.05, NOISE_5, most=10) == 10  # ±5.06 % at 10: not enough, all it may
    assert rounds_for(0.01, NOISE_5, most=8) == 8  # not enough: all it may
    assert rounds_for(0.05, None, most=6) == 6  # unknown: all it may
