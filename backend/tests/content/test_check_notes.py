"""The texts the course shows outside its lessons hold no measured figure: the catalog's, and the
opening comment of every source file it serves."""

import json
import shutil
from pathlib import Path

import pytest

from c10klab.config import Settings
from c10klab.content.check import check_course
from c10klab.content.check_notes import (
    GIVEN,
    catalog_problems,
    given_problems,
    header_comment,
    header_problems,
    shown_text_problems,
    unset_figures,
)

REAL = Settings().sandboxes_dir


def test_the_real_catalog_and_sources_pass() -> None:
    assert shown_text_problems(REAL) == []


@pytest.mark.parametrize(
    ("text", "figure"),
    [
        ("idle ones included (about 0.14-0.23 us per idle connection per call)", "0.14-0.23 us"),
        ("a timerfd wake-up arrived 30–80 µs late at the median", "30–80 µs"),
        ("Each connection costs about 45 KiB of memory", "45 KiB"),
        ("so 5000 connections take about 750 MB", "750 MB"),
        ("it served 120,000 requests/s on one core", "120,000 requests/s"),
        ("about 20k req/s", "20k req/s"),
        ("a round trip of 12.5 ms", "12.5 ms"),
        ("counting costs it 68 %", "68 %"),
        ("counting costs it 68%", "68%"),
        ("io_uring is 2x faster here", "2x faster"),
        ("and 1.5× the throughput", "1.5×"),
        ("three threads are 3 times slower", "3 times slower"),
        ("2.02 calls per request", "2.02 calls per request"),
    ],
)
def test_a_figure_that_looks_measured_is_reported(text: str, figure: str) -> None:
    assert [why for _, why in unset_figures(text)] == [f"“{figure}” looks measured"]


@pytest.mark.parametrize(
    "text",
    [
        # The course's settings, each in GIVEN with the file and name that set it
        "At most 256 KiB of replies are queued per client",
        "buffers x buffer_bytes of memory (16 MiB by default, at most 1 GiB)",
        "(8 MiB each by default)",
        "it waits at most 100 us for them",  # `us` is µs
        "to wake the thread after 100 ms idle",
        # Numbers that are not a measurement's: limits, counts, versions, sizes in words
        "FD_SETSIZE = 1024, and the container's nofile limit (20000) does not lift it",
        "--threads workers (default 16) serve one connection each",
        "multishot accept and buffer rings need Linux 5.19, multishot recv 6.0",
        "every request gets the same 20-byte response",
        # A product of settings, written as one
        "with --recv plain each connection has its own buffer instead (up to 19000 x 16 KiB)",
        "a task is one allocation, a small header and its future",
    ],
)
def test_the_course_s_settings_and_plain_numbers_pass(text: str) -> None:
    assert unset_figures(text) == []


def test_a_sentence_that_says_it_was_measured_holds_no_number() -> None:
    found = unset_figures(
        "A process per connection. About 150 bytes each, measured here; the rest is set."
    )
    assert [why for _, why in found] == ["“measured” says a figure here was measured"]
    assert unset_figures("Lesson 11 measures what that comes to.") == []
    (_, why), *_ = unset_figures("about 90 bytes per socket on the course machine")
    assert why == "“on the course machine” says a figure here was measured"


def test_every_setting_is_set_where_its_entry_says() -> None:
    assert given_problems(REAL) == []
    assert all(
        setting.name in (REAL / setting.path).read_text(errors="replace") for setting in GIVEN
    )


@pytest.fixture
def sandboxes(tmp_path: Path) -> Path:
    """Sandboxes of their own: the real catalog, and the files a test writes."""
    root = tmp_path / "sandboxes"
    root.mkdir()
    shutil.copy(REAL / "catalog.json", root / "catalog.json")
    return root


def test_a_catalog_note_is_reported_at_its_line(sandboxes: Path) -> None:
    catalog = json.loads((sandboxes / "catalog.json").read_text())
    poll = next(s for s in catalog["servers"] if s["id"] == "c-poll")
    poll["limits"]["notes"][1] = "Each idle connection costs about 0.2 us per call."
    poll["knobs"][0]["help"] = "bytes asked for by each read(); 4 KiB is 3 times faster"
    (sandboxes / "catalog.json").write_text(json.dumps(catalog, indent=2, ensure_ascii=False))
    lines = (sandboxes / "catalog.json").read_text().splitlines()
    note = next(i for i, line in enumerate(lines, 1) if "0.2 us" in line)
    helped = next(i for i, line in enumerate(lines, 1) if "3 times faster" in line)
    problems = [p.split("; a measured figure")[0] for p in catalog_problems(sandboxes)]
    assert problems == [
        f"catalog.json:{helped}: c-poll knob buffer_bytes help: “4 KiB” looks measured",
        f"catalog.json:{helped}: c-poll knob buffer_bytes help: “3 times faster” looks measured",
        f"catalog.json:{note}: c-poll notes[1]: “0.2 us” looks measured",
    ]


POLL_C = """/*
 * poll.c - c-poll: one thread serves every client with a poll() event loop.
 *
 * Each call checks every socket, idle ones included (about 0.2 us each
 * measured on the course machine).
 */

#define TIMEOUT_MS 5   /* code: a figure past the opening comment is not this rule's */
"""


def test_the_opening_comment_of_a_served_source_is_read(sandboxes: Path) -> None:
    (sandboxes / "servers" / "c").mkdir(parents=True)
    (sandboxes / "servers" / "c" / "poll.c").write_text(POLL_C)
    (sandboxes / "servers" / "rust" / "src").mkdir(parents=True)
    (sandboxes / "servers" / "rust" / "src" / "lib.rs").write_text(
        "//! The shared crate.\n//!\n//! Tokio is 2x faster than threads.\n\nconst A: u32 = 5;\n"
    )
    problems = [p.split("; a measured figure")[0] for p in header_problems(sandboxes)]
    assert problems == [
        "servers/c/poll.c:4: its opening comment: “0.2 us” looks measured",
        "servers/c/poll.c:5: its opening comment: “measured” says a figure here was measured",
        "servers/rust/src/lib.rs:3: its opening comment: “2x faster” looks measured",
    ]


def test_an_opening_comment_ends_where_the_code_begins() -> None:
    assert header_comment(POLL_C, ".c").endswith(" */")
    assert "TIMEOUT_MS" not in header_comment(POLL_C, ".c")
    assert header_comment("#include <x.h>\n/* 5 ms */\n", ".c") == ""
    assert header_comment("//! doc\n// more\n\nfn main() {}\n", ".rs") == "//! doc\n// more\n\n"
    assert header_comment("#!/bin/sh\n# 5 ms\nset -eu\n", ".sh") == "#!/bin/sh\n# 5 ms\n"


def test_a_setting_gone_from_its_file_is_allowed_no_more(sandboxes: Path) -> None:
    problems = given_problems(sandboxes)  # none of the files is there
    assert len(problems) == len(GIVEN)
    assert problems[0] == (
        "content/check_notes.py: GIVEN allows “256 KiB” as OUTPUT_HIGH_WATER_BYTES in "
        "servers/c/readiness.h, which no longer sets it: correct or remove the entry"
    )


def test_the_course_check_reads_the_catalog(tmp_path: Path) -> None:
    (tmp_path / "content" / "lessons").mkdir(parents=True)
    shutil.copytree(REAL, tmp_path / "sandboxes", symlinks=True, ignore=_only_text)
    catalog = tmp_path / "sandboxes" / "catalog.json"
    catalog.write_text(catalog.read_text().replace("(backpressure)", "(backpressure, 3 ms)", 1))
    _, problems = check_course(Settings(repo_root=tmp_path))
    assert [p.split(": ", 2)[1] for p in problems if p.startswith("catalog.json:")] == [
        "c-epoll notes[2]"
    ]


def _only_text(directory: str, names: list[str]) -> list[str]:
    """What the course check needs of sandboxes/: the catalog and the sources, not the build
    output and the Rust target directories."""
    return [n for n in names if n in ("target", "build", "node_modules", "__pycache__")]
