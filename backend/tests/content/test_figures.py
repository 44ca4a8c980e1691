"""Figures bound to recordings: how references are read, refused and formatted."""

import json

import pytest

from c10klab.config import Settings
from c10klab.content.figures import (
    Quantity,
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


def recordings_of(slug: str) -> dict[str, object]:
    """A real lesson's recordings, named by their order (b0, b1 ...) so that these tests do not
    depend on the ids the lesson gives them."""
    lesson = next(x for x in load_lessons(CONTENT) if x.slug == slug)
    baselines = read_baselines(CONTENT, slug)
    assert baselines is not None
    by_key = {b.key: b for b in baselines.experiments}
    return {
        f"b{i}": read_recording(f"b{i}", by_key[e.key])
        for i, e in enumerate(read_experiments(lesson.markdown))
    }


@pytest.fixture(scope="module")
def epoll() -> dict[str, object]:
    """Lesson 5: b0 an idle sweep, b1/b2 level/edge-triggered runs, b3/b4 profiled runs."""
    return recordings_of("05-epoll")


def raw_done(slug: str, index: int) -> dict[str, object]:
    """The recorded `done` event of a lesson's run block, read without the figures code."""
    data = json.loads((CONTENT / "baselines" / f"{slug}.json").read_text())
    lesson = next(x for x in load_lessons(CONTENT) if x.slug == slug)
    key = read_experiments(lesson.markdown)[index].key
    baselines = read_baselines(CONTENT, slug)
    assert baselines is not None
    at = next(i for i, b in enumerate(baselines.experiments) if b.key == key)
    done: dict[str, object] = data["experiments"][at]["result"]["events"][-1]["data"]
    return done


def test_a_run_figure_is_the_median_repetitions(epoll: dict[str, object]) -> None:
    done = raw_done("05-epoll", 1)
    qps = done["aggregate"]["qps"]["median"]  # type: ignore[index]
    ref = resolve("b1.qps", epoll, "en")  # type: ignore[arg-type]
    assert ref.error is None and ref.value == qps
    assert ref.text == f"{qps:,.0f} requests/s"
    assert ref.experiments == ("b1",)
    assert resolve("b1.qps", epoll, "zh").text == f"每秒 {qps:,.0f} 个请求"  # type: ignore[arg-type]
    p99 = done["summary"]["latency_us"]["p99"]  # type: ignore[index]
    assert resolve("b1.p99", epoll, "en").value == p99  # type: ignore[arg-type]


def test_repetitions_system_calls_and_series_points(epoll: dict[str, object]) -> None:
    done = raw_done("05-epoll", 2)
    third = done["repetitions"][2]["summary"]["qps"]  # type: ignore[index]
    assert resolve("b2.rep(3).qps", epoll, "en").value == third  # type: ignore[arg-type]
    profile = raw_done("05-epoll", 4)["syscalls"]
    read = next(r for r in profile["rows"] if r["syscall"] == "read")  # type: ignore[index]
    ref = resolve("b4.syscalls.read.per_request", epoll, "en")  # type: ignore[arg-type]
    assert ref.value == read["per_request"] and ref.text == f"{read['per_request']:.2f}"
    sweep = epoll["b0"]
    assert isinstance(sweep, SeriesRecording)
    point = sweep.table.points[1]
    ref = resolve(f'b0["c-epoll", {point.value:g}].qps', epoll, "en")  # type: ignore[arg-type]
    assert ref.value == point.qps
    # One server: the point by its value alone.
    assert resolve(f"b0[{point.value:g}].qps", epoll, "en").value == point.qps  # type: ignore[arg-type]


def test_derived_figures_are_named_functions(epoll: dict[str, object]) -> None:
    lt, et = epoll["b1"], epoll["b2"]
    assert isinstance(lt, RunRecording) and isinstance(et, RunRecording)
    assert lt.point.qps and et.point.qps
    below = (lt.point.qps - et.point.qps) / lt.point.qps * 100
    ref = resolve("percent_below(b2.qps, b1.qps)", epoll, "en")  # type: ignore[arg-type]
    assert ref.value == pytest.approx(below) and ref.text == f"{below:.0f} %"
    assert (
        resolve("ratio(b1.qps, b2.qps)", epoll, "en").text == f"{lt.point.qps / et.point.qps:.2f}×"
    )  # type: ignore[arg-type]
    assert resolve("time_per_request(b1.qps)", epoll, "en").unit == "us"  # type: ignore[arg-type]
    refused = resolve("ratio(b1.qps, b1.p99)", epoll, "en")  # type: ignore[arg-type]
    assert refused.error == "ratio() compares requests_per_s with us"


@pytest.mark.parametrize(
    ("expression", "error"),
    [
        ("nope.qps", "no recorded experiment `nope` in this lesson"),
        ("b1.speed", "`b1` has no figure `speed`"),
        ("b0.qps", "`b0` is a series: pick its point"),
        ("b0[12345].qps", "`b0` has no point (c-epoll, 12345)"),
        ("b1.syscalls.read", "`b1` was not recorded with profile: syscalls"),
        ("b4.syscalls.mmap.calls", "`b4` made no mmap call"),
        ("b1.rep(9).qps", "`b1` has 3 repetition(s)"),
        ("b1", "`b1` names no figure"),
        ("b1.qps +", "does not parse"),
        ('__import__("os")', "no function __import__()"),
        ('__import__("os").system("true")', "is not a figure"),
        ('"text".upper()', "is not a figure"),
        ("b1.qps | furlongs", "unknown format 'furlongs'"),
        ("b1.qps | ms", "ms does not apply to a figure in requests_per_s"),
    ],
)
def test_a_reference_that_cannot_resolve_says_why(
    epoll: dict[str, object], expression: str, error: str
) -> None:
    ref = resolve(expression, epoll, "en")  # type: ignore[arg-type]
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


def test_references_resolve_in_prose_but_not_in_fenced_blocks(epoll: dict[str, object]) -> None:
    markdown = 'It did {{ b1.qps }}, {{ given("10 ms") }} apart.\n\n```c\nx = {{ b1.qps }};\n```\n'
    refs = find_references(markdown, epoll, "en")  # type: ignore[arg-type]
    assert [r.expression for r in refs] == ["b1.qps", 'given("10 ms")']
    text = render(markdown, refs)
    assert text.startswith(f"It did {refs[0].text}, 10 ms apart.")
    assert "x = {{ b1.qps }};" in text
