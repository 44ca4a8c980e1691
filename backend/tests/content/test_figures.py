"""Figures bound to recordings: how references are read, refused and formatted."""

import json

import pytest

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
    lt, et = epoll["lt_100"], epoll["et_100"]
    assert isinstance(lt, RunRecording) and isinstance(et, RunRecording)
    assert lt.point.qps and et.point.qps
    below = (lt.point.qps - et.point.qps) / lt.point.qps * 100
    ref = resolve("percent_below(et_100.qps, lt_100.qps)", epoll, "en")
    assert ref.value == pytest.approx(below) and ref.text == f"{below:.0f} %"
    assert (
        resolve("ratio(lt_100.qps, et_100.qps)", epoll, "en").text
        == f"{lt.point.qps / et.point.qps:.2f}×"
    )
    assert resolve("time_per_request(lt_100.qps)", epoll, "en").unit == "us"
    refused = resolve("ratio(lt_100.qps, lt_100.p99)", epoll, "en")
    assert refused.error == "ratio() compares requests_per_s with us"


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
