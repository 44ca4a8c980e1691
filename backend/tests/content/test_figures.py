"""Figures bound to recordings: how references are read, refused and formatted."""

import dataclasses
import json
import math

import pytest
from scipy import stats

from c10klab.config import Settings
from c10klab.content.figures import (
    Quantity,
    Recording,
    RunRecording,
    SeriesRecording,
    find_references,
    format_quantity,
    read_recording,
    render,
    resolve,
)
from c10klab.content.service import load_lessons, read_baselines, read_experiments
from c10klab.uncertainty import HostNoise

CONTENT = Settings().content_dir


def recordings_of(slug: str) -> dict[str, Recording]:
    """A real lesson's recordings, by the ids its blocks give them."""
    lesson = next(x for x in load_lessons(CONTENT) if x.slug == slug)
    baselines = read_baselines(CONTENT, slug)
    assert baselines is not None
    by_key = {b.key: b for b in baselines.experiments}
    return {
        e.id: read_recording(e.id, by_key[e.key])
        for e in read_experiments(lesson.markdown)
        if e.id is not None
    }


@pytest.fixture(scope="module")
def epoll() -> dict[str, Recording]:
    """Lesson 5: `idle` a sweep, `lt_100`/`et_100` level/edge-triggered runs,
    `syscalls_lt`/`syscalls_et` profiled runs."""
    return recordings_of("05-epoll")


def raw_done(slug: str, block_id: str) -> dict[str, object]:
    """The recorded `done` event of a lesson's run block, read without the figures code."""
    data = json.loads((CONTENT / "baselines" / f"{slug}.json").read_text())
    lesson = next(x for x in load_lessons(CONTENT) if x.slug == slug)
    key = next(e.key for e in read_experiments(lesson.markdown) if e.id == block_id)
    baselines = read_baselines(CONTENT, slug)
    assert baselines is not None
    at = next(i for i, b in enumerate(baselines.experiments) if b.key == key)
    done: dict[str, object] = data["experiments"][at]["result"]["events"][-1]["data"]
    return done


def test_a_run_figure_is_the_median_repetitions(epoll: dict[str, Recording]) -> None:
    done = raw_done("05-epoll", "lt_100")
    qps = done["aggregate"]["qps"]["median"]  # type: ignore[index]
    ref = resolve("lt_100.qps", epoll, "en")
    assert ref.error is None and ref.value == qps
    assert ref.text == f"{qps:,.0f} requests/s"
    assert ref.experiments == ("lt_100",)
    assert resolve("lt_100.qps", epoll, "zh").text == f"每秒 {qps:,.0f} 个请求"
    p99 = done["summary"]["latency_us"]["p99"]  # type: ignore[index]
    assert resolve("lt_100.p99", epoll, "en").value == p99


def test_repetitions_system_calls_and_series_points(epoll: dict[str, Recording]) -> None:
    done = raw_done("05-epoll", "et_100")
    third = done["repetitions"][2]["summary"]["qps"]  # type: ignore[index]
    assert resolve("et_100.rep(3).qps", epoll, "en").value == third
    profile = raw_done("05-epoll", "syscalls_et")["syscalls"]
    read = next(r for r in profile["rows"] if r["syscall"] == "read")  # type: ignore[index]
    ref = resolve("syscalls_et.syscalls.read.per_request", epoll, "en")
    assert ref.value == read["per_request"] and ref.text == f"{read['per_request']:.2f}"
    sweep = epoll["idle"]
    assert isinstance(sweep, SeriesRecording)
    point = sweep.table.points[1]
    ref = resolve(f'idle["c-epoll", {point.value:g}].qps', epoll, "en")
    assert ref.value == point.qps
    # One server: the point by its value alone.
    assert resolve(f"idle[{point.value:g}].qps", epoll, "en").value == point.qps


def test_derived_figures_are_named_functions(epoll: dict[str, Recording]) -> None:
    # Two repetitions of one run: one server start, so no host noise stands between them
    lt = epoll["lt_100"]
    assert isinstance(lt, RunRecording)
    first, second = (rep.qps for rep in lt.repetitions[:2])
    assert first and second
    below = (second - first) / second * 100
    ref = resolve("percent_below(lt_100.rep(1).qps, lt_100.rep(2).qps)", epoll, "en")
    assert ref.error is None and ref.value == pytest.approx(below)
    assert ref.text == f"{below:.{1 if abs(below) < 1 else 0}f} %"
    assert (
        resolve("ratio(lt_100.rep(2).qps, lt_100.rep(1).qps)", epoll, "en").text
        == f"{second / first:.2f}×"
    )
    assert resolve("time_per_request(lt_100.qps)", epoll, "en").unit == "us"
    refused = resolve("ratio(lt_100.qps, lt_100.p99)", epoll, "en")
    assert refused.error == "ratio() compares requests_per_s with us"


def test_the_cost_per_idle_connection_is_the_slope_of_a_named_stretch() -> None:
    """Lesson 4's sweep: poll's cost per idle connection grows with their number, so a slope
    holds only for the stretch it was taken over."""
    poll = recordings_of("04-select-and-poll")
    sweep = poll["idle_sweep"]
    assert isinstance(sweep, SeriesRecording)
    qps = {p.value: p.qps for p in sweep.table.points if p.server == "c-poll"}

    def slope(low: float, high: float) -> float:
        return (1e6 / qps[high] - 1e6 / qps[low]) / (high - low)  # type: ignore[operator]

    whole = resolve('cost_per_idle(idle_sweep, "c-poll")', poll, "en")
    first = resolve('cost_per_idle(idle_sweep, "c-poll", 0, 1000)', poll, "en")
    last = resolve('cost_per_idle(idle_sweep, "c-poll", 4000, 16000)', poll, "en")
    assert whole.value == pytest.approx(slope(0, 16000))
    assert first.value == pytest.approx(slope(0, 1000))
    assert last.value == pytest.approx(slope(4000, 16000))
    assert first.value is not None and last.value is not None and last.value > first.value
    missing = resolve('cost_per_idle(idle_sweep, "c-poll", 0, 500)', poll, "en")
    assert missing.error == (
        "`idle_sweep` has no valid point for c-poll at 500; its valid points: "
        "['0', '1000', '4000', '16000']"
    )
    backwards = resolve('cost_per_idle(idle_sweep, "c-poll", 4000, 1000)', poll, "en")
    assert backwards.error == "cost_per_idle() needs its end (1000) above its start (4000)"


def _host_interval(subject: float, reference: float, noise: HostNoise) -> tuple[float, float]:
    """The 95 % interval, in per cent, that two single runs on a host of this noise put on
    subject / reference - 1: written out here rather than read from the code under test
    (Student's t at the estimate's degrees of freedom)."""
    half = stats.t.ppf(0.975, noise.runs - noise.groups) * math.sqrt(2) * noise.sigma
    log_ratio = math.log(subject / reference)
    return math.expm1(log_ratio - half) * 100, math.expm1(log_ratio + half) * 100


def _percent(value: float) -> str:
    """A percentage as the prose gives it: whole from 1 % on, one decimal below."""
    return f"{value:.{0 if value >= 1 else 1}f}"


@pytest.mark.parametrize(
    "expression",
    [
        "percent_below(et_100.qps, lt_100.qps)",
        "ratio(lt_100.qps, et_100.qps)",
        "difference(time_per_request(et_100.qps), time_per_request(lt_100.qps))",
        "percent_below(et_100.qps_max, lt_100.qps_min)",
        "percent_below(lowest(et_100.qps, lt_100.qps), highest(et_100.qps, lt_100.qps))",
    ],
)
def test_a_difference_inside_the_hosts_noise_is_refused(
    epoll: dict[str, Recording], expression: str
) -> None:
    """Level- against edge-triggered, two single runs some 8 % apart on a host whose runs
    scatter by 6.8 %: no difference the prose may state."""
    ref = resolve(expression, epoll, "en")
    assert ref.text is None and ref.error is not None
    assert "holds none: this host cannot tell them apart" in ref.error
    assert "{{ verdict(a, b) }}" in ref.error


def test_a_verdict_says_what_two_single_runs_allow(epoll: dict[str, Recording]) -> None:
    lt, et = epoll["lt_100"], epoll["et_100"]
    assert isinstance(lt, RunRecording) and isinstance(et, RunRecording)
    assert lt.point.qps and et.point.qps and lt.point.host_noise
    low, high = _host_interval(et.point.qps, lt.point.qps, lt.point.host_noise)
    assert low < 0 < high
    half = _percent(max(-low, high))
    assert resolve("verdict(et_100.qps, lt_100.qps)", epoll, "en").text == (
        f"no difference this host can detect (±{half} %)"
    )
    assert resolve("verdict(et_100.qps, lt_100.qps)", epoll, "zh").text == (
        f"本机测不出差别（±{half}%）"
    )


def test_a_difference_outside_the_noise_is_stated_and_its_verdict_has_a_range(
    epoll: dict[str, Recording],
) -> None:
    """Lesson 5's level-triggered run counted by perf against the same uncounted, the counted
    one's throughput set 30 % lower: a difference far outside the host's noise, whichever way
    the recordings themselves fall (they were made on different days)."""
    recorded, uncounted = epoll["syscalls_lt"], epoll["lt_100"]
    assert isinstance(recorded, RunRecording) and isinstance(uncounted, RunRecording)
    assert uncounted.point.qps and uncounted.point.host_noise
    # Measured the same day on the same host: the same noise.
    slower = recorded.point.model_copy(
        update={"qps": uncounted.point.qps * 0.7, "host_noise": uncounted.point.host_noise}
    )
    counted = dataclasses.replace(recorded, point=slower)
    epoll = epoll | {"syscalls_lt": counted}
    assert counted.point.qps and counted.point.host_noise
    stated = resolve("percent_above(lt_100.qps, syscalls_lt.qps)", epoll, "en")
    assert stated.error is None and stated.value is not None and stated.value > 0
    low, high = _host_interval(uncounted.point.qps, counted.point.qps, counted.point.host_noise)
    assert 0 < low < high
    assert resolve("verdict(lt_100.qps, syscalls_lt.qps)", epoll, "en").text == (
        f"{_percent(low)}–{_percent(high)} % higher (95 % interval)"
    )
    # the other way round: the same interval, as a fall from the uncounted run
    least, most = (100 - 100 / (1 + x / 100) for x in (low, high))
    assert resolve("verdict(syscalls_lt.qps, lt_100.qps)", epoll, "zh").text == (
        f"低 {_percent(least)}%–{_percent(most)}%（95% 区间）"
    )


def test_a_comparison_in_rounds_says_its_paired_verdict() -> None:
    uring = recordings_of("07-io-uring")
    rounds = uring["rounds_100"]
    assert isinstance(rounds, SeriesRecording)
    found = next(v for v in rounds.table.verdicts if v.metric == "qps")
    assert found.subject == "c-io-uring" and found.change is not None
    text = resolve("verdict(rounds_100)", uring, "en").text
    assert text == resolve('verdict(rounds_100, "c-io-uring")', uring, "en").text
    assert text is not None and ("95 % interval" in text or "no difference" in text)
    refused = resolve("verdict(throughput)", uring, "en")
    assert refused.error == "`throughput` is not a comparison in rounds (vary: round)"


def test_figures_whose_recordings_carry_no_noise_cannot_be_compared(
    epoll: dict[str, Recording],
) -> None:
    lt, et = epoll["lt_100"], epoll["et_100"]
    assert isinstance(lt, RunRecording) and isinstance(et, RunRecording)
    quiet = {
        name: dataclasses.replace(run, point=run.point.model_copy(update={"host_noise": None}))
        for name, run in (("lt_100", lt), ("et_100", et))
    }
    for expression in ("percent_below(et_100.qps, lt_100.qps)", "verdict(et_100.qps, lt_100.qps)"):
        ref = resolve(expression, dict(quiet), "en")
        assert ref.error is not None and "carry no host noise" in ref.error


@pytest.mark.parametrize(
    ("expression", "error"),
    [
        ("nope.qps", "no recorded experiment `nope` in this lesson"),
        ("lt_100.speed", "`lt_100` has no figure `speed`"),
        ("idle.qps", "`idle` is a series: pick its point"),
        ("idle[12345].qps", "`idle` has no point (c-epoll, 12345)"),
        ("lt_100.syscalls.read", "`lt_100` was not recorded with profile: syscalls"),
        ("syscalls_et.syscalls.mmap.calls", "`syscalls_et` made no mmap call"),
        ("lt_100.rep(9).qps", "`lt_100` has 3 repetition(s)"),
        ("lt_100", "`lt_100` names no figure"),
        ("lt_100.qps +", "does not parse"),
        ('__import__("os")', "no function __import__()"),
        ('__import__("os").system("true")', "is not a figure"),
        ('"text".upper()', "is not a figure"),
        ("lt_100.qps | furlongs", "unknown format 'furlongs'"),
        ("lt_100.qps | ms", "ms does not apply to a figure in requests_per_s"),
    ],
)
def test_a_reference_that_cannot_resolve_says_why(
    epoll: dict[str, Recording], expression: str, error: str
) -> None:
    ref = resolve(expression, epoll, "en")
    assert ref.text is None and ref.error is not None and error in ref.error, ref.error


@pytest.mark.parametrize(
    ("quantity", "fmt", "en", "zh"),
    [
        (Quantity(218767.2, "requests_per_s"), "", "218,767 requests/s", "每秒 218,767 个请求"),
        (Quantity(218767.2, "requests_per_s"), "bare", "218,767", "218,767"),
        (Quantity(0.23, "us"), "", "230 ns", "230 ns"),
        (Quantity(4.21, "us"), "", "4.21 µs", "4.21 µs"),
        (Quantity(1182, "us"), "", "1.18 ms", "1.18 ms"),
        (Quantity(1182, "us"), "us", "1,182 µs", "1,182 µs"),
        (Quantity(1182, "us"), "ms .1", "1.2 ms", "1.2 ms"),
        (Quantity(119.8, "bytes"), "", "120 bytes", "120 字节"),
        (Quantity(4233.4, "bytes"), "", "4.13 KiB", "4.13 KiB"),
        (Quantity(1945600, "bytes"), "", "1.86 MiB", "1.86 MiB"),
        (Quantity(8.04, "percent"), "", "8 %", "8%"),
        (Quantity(0.72, "percent"), "", "0.7 %", "0.7%"),
        (Quantity(1.0812, "ratio"), "", "1.08×", "1.08×"),
        (Quantity(2.0189, "per_request"), "", "2.02", "2.02"),
        (Quantity(0.0672, "per_request"), "", "0.067", "0.067"),
        (Quantity(31.2, "per_s"), "", "31/s", "每秒 31 次"),
    ],
)
def test_figures_are_formatted_with_their_unit(
    quantity: Quantity, fmt: str, en: str, zh: str
) -> None:
    assert format_quantity(quantity, fmt, "en") == en
    assert format_quantity(quantity, fmt, "zh") == zh


def test_references_resolve_in_prose_but_not_in_fenced_blocks(epoll: dict[str, Recording]) -> None:
    markdown = (
        'It did {{ lt_100.qps }}, {{ given("10 ms") }} apart.\n\n```c\nx = {{ lt_100.qps }};\n```\n'
    )
    refs = find_references(markdown, epoll, "en")
    assert [r.expression for r in refs] == ["lt_100.qps", 'given("10 ms")']
    text = render(markdown, refs)
    assert text.startswith(f"It did {refs[0].text}, 10 ms apart.")
    assert "x = {{ lt_100.qps }};" in text
