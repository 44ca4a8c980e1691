from pathlib import Path

import pytest

from c10klab.config import Settings
from c10klab.content.check import check_course, fenced_blocks
from c10klab.content.schemas import Baseline, LessonBaselines, RecordedResult
from c10klab.content.service import diagram_key
from c10klab.results.schemas import Provenance

GOOD = """---
title: T
summary: S
minutes: 5
order: 1
---

Hook.

```experiment
id: one
server: c-epoll
connections: 10
```

```source
path: servers/c/epoll.c
anchor: event-loop
```
"""


@pytest.fixture
def course(tmp_path: Path) -> Settings:
    """A course of its own, using the real sandboxes (catalog and sources)."""
    (tmp_path / "content" / "lessons").mkdir(parents=True)
    (tmp_path / "content" / "glossary.md").write_text(GLOSSARY)
    (tmp_path / "sandboxes").symlink_to(Settings().sandboxes_dir)
    return Settings(repo_root=tmp_path)


GLOSSARY = """---
title: Glossary
summary: The terms.
---

### epoll

Linux's readiness API. See [lesson 1](lessons/01-t.md).
"""


def write(settings: Settings, text: str, name: str = "01-t.md", recorded: bool = True) -> None:
    """Write a lesson and, unless told not to, a reference result for each of its experiments
    (the checker reads only which block text each belongs to)."""
    (settings.content_dir / "lessons" / name).write_text(text)
    if recorded:
        record(settings, name.removesuffix(".md"), text)


# What every recording's provenance names, at the least (results.schemas.Provenance).
PROVENANCE = Provenance.model_validate(
    {
        "server_image": {"tag": "c10klab/server:c-epoll", "id": None},
        "loadgen_image": {"tag": "c10klab/loadgen:latest", "id": None},
        "server_argv": [],
        "loadgen_argv": [],
        "server_cpus": "0",
        "loadgen_cpus": "1",
        "started_at": "-",
        "finished_at": "-",
    }
)


def record(settings: Settings, slug: str, text: str) -> None:
    experiments = [
        Baseline(
            block=b.body.strip(),
            kind="run",
            recorded_at="-",
            provenance=PROVENANCE,
            result=RecordedResult(),
        )
        for b in fenced_blocks(text.split("---", 2)[2])
        if b.language == "experiment"
    ]
    path = settings.content_dir / "baselines" / f"{slug}.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(LessonBaselines(lesson=slug, experiments=experiments).model_dump_json())


def test_the_real_course_passes() -> None:
    count, problems = check_course(Settings())
    assert count >= 1 and problems == []


def test_a_good_lesson_passes(course: Settings) -> None:
    write(course, GOOD)
    assert check_course(course) == (1, [])


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (("server: c-epoll", "server: c-nope"), "unknown server 'c-nope'"),
        (("connections: 10", "connections: 99999"), "at most 19000 connections"),
        (("connections: 10", "connections: 10\nknobs: {trigger: up}"), "must be one of lt, et"),
        (("connections: 10", "connections: 10\nrate: -5"), "rate: Input should be greater"),
        (("connections: 10", "connections: 10\nvalues: [1, 2]"), "`vary` and `values` need"),
        (("server: c-epoll", "servers: [c-epoll, c-nope]"), "servers: unknown c-nope"),
        (("server: c-epoll", "server: c-epoll\nservers: [c-poll]"), "both `server` and"),
        (("server: c-epoll", "servers: [c-poll]\nvary: idle_connections"), "`vary` needs"),
        (
            (
                "server: c-epoll\nconnections: 10",
                "servers: [c-select]\nvary: connections\nvalues: [2000]",
            ),
            "no point of this sweep can run",
        ),
        (("anchor: event-loop", "anchor: no-such-anchor"), "anchor 'no-such-anchor' is not marked"),
        (("path: servers/c/epoll.c", "path: ../backend/pyproject.toml"), "is not a file GET"),
        # Real files under sandboxes/ that GET /api/sources does not serve.
        (("path: servers/c/epoll.c", "path: servers/c/Makefile"), "is not a file GET"),
        (("path: servers/c/epoll.c", "path: servers/rust/Cargo.toml"), "is not a file GET"),
        (("path: servers/c/epoll.c", "path: tests/test_catalog.py"), "is not a file GET"),
        (("anchor: event-loop", "lines: 1-999999"), "the file has lines"),
        (("Hook.\n", "See [next](02-missing.md).\n"), "link to missing `02-missing.md`"),
        (("Hook.\n", "Hook.\n\n<details>\n"), "unbalanced <details>"),
        (("Hook.\n", "# T\n"), "`# heading` in the body"),
        (
            ("```experiment\nid: one\nserver: c-epoll\nconnections: 10\n```", ""),
            "has no `experiment`",
        ),
        (("minutes: 5\n", ""), "minutes"),
    ],
)
def test_each_problem_is_reported_with_its_place(
    course: Settings, change: tuple[str, str], problem: str
) -> None:
    old, new = change
    assert old in GOOD
    write(course, GOOD.replace(old, new, 1))
    _, problems = check_course(course)
    assert any(problem in p and p.startswith("01-t.md:") for p in problems), problems


def test_every_experiment_needs_a_reference_result_for_what_it_asks(course: Settings) -> None:
    write(course, GOOD, recorded=False)
    _, problems = check_course(course)
    assert problems == [
        "01-t.md:1: no reference results (01-t.json is missing); record them: "
        ".venv/bin/python -m c10klab_bench.baselines --lesson 01-t"
    ]
    record(course, "01-t", GOOD)
    write(course, GOOD.replace("connections: 10", "connections: 20"), recorded=False)
    _, problems = check_course(course)
    assert len(problems) == 2, problems
    assert problems[0].startswith("01-t.md:10: experiment block has no reference result")
    assert "01-t.json holds 1 result(s) for blocks no longer here" in problems[1]
    # A title, a new id or a translated title asks the runner for nothing new: still recorded.
    retitled = GOOD.replace("id: one", "id: other\ntitle: Ten clients, one loop")
    write(course, retitled, recorded=False)
    assert check_course(course) == (1, [])


def test_block_problems_carry_the_line_of_the_fence(course: Settings) -> None:
    write(course, GOOD.replace("server: c-epoll", "server: c-nope"))
    _, problems = check_course(course)
    assert problems[0].startswith("01-t.md:10:"), problems


@pytest.mark.parametrize(
    "series",
    [
        "servers: [c-poll, c-epoll]\nconnections: 10",
        "servers: [c-poll, c-epoll]\nvary: idle_connections\nvalues: [0, 1000, 16000]\n"
        "connections: 10",
        # A point some server cannot take is part of the lesson (shown as refused), not an error.
        "servers: [c-select, c-epoll]\nvary: connections\nvalues: [100, 2000]",
    ],
)
def test_series_experiments_pass(course: Settings, series: str) -> None:
    write(course, GOOD.replace("server: c-epoll\nconnections: 10", series))
    assert check_course(course) == (1, [])


QUOTED = "path: servers/c/epoll.c\nanchor: event-loop"


@pytest.mark.parametrize(
    "quote",
    [
        "path: servers/c/protocol.c\nlines: 1-3",  # a shared module
        "path: servers/rust/src/protocol.rs\nanchor: echo",
        "path: loadgen/src/pacing.rs\nanchor: schedule",  # anchored, in no catalog entry
    ],
)
def test_a_source_block_may_quote_any_file_the_api_serves(course: Settings, quote: str) -> None:
    write(course, GOOD.replace(QUOTED, quote))
    assert check_course(course) == (1, [])


def test_a_source_block_outside_the_list_says_how_to_get_in(course: Settings) -> None:
    write(course, GOOD.replace(QUOTED, "path: servers/c/Makefile\nlines: 1-2"))
    _, problems = check_course(course)
    assert problems == [
        "01-t.md:16: source block: path: servers/c/Makefile is not a file GET /api/sources "
        "serves (a catalog server's source, a shared protocol module, or a code file with an "
        "`ANCHOR: name` comment): mark the lines to quote with ANCHOR: / ANCHOR_END: comments"
    ]


def test_the_glossary_is_checked_too(course: Settings) -> None:
    write(course, GOOD)
    glossary = course.content_dir / "glossary.md"
    glossary.write_text(GLOSSARY + "\n### EPOLL\n\nTwice. [Gone](lessons/09-gone.md)\n")
    _, problems = check_course(course)
    assert "glossary.md: `EPOLL` is defined twice" in problems
    assert "glossary.md:1: link to missing `lessons/09-gone.md`" in problems
    glossary.unlink()
    _, problems = check_course(course)
    assert problems == ["glossary.md:1: the course has no glossary (content/glossary.md)"]


FLOW = "flowchart LR\n  A[accept] --> B[read]"
DIAGRAM = f"```mermaid\n{FLOW}\n```\n"


def draw(settings: Settings, page: str, *sources: str) -> None:
    """What `make diagrams` leaves: one SVG per block text, named by its hash."""
    folder = settings.content_dir / "diagrams" / page
    folder.mkdir(parents=True, exist_ok=True)
    for source in sources:
        (folder / f"{diagram_key(source)}.svg").write_text("<svg/>")


def test_every_mermaid_block_needs_its_drawing_for_its_exact_text(course: Settings) -> None:
    write(course, GOOD.replace("Hook.\n", "Hook.\n\n" + DIAGRAM))
    _, problems = check_course(course)
    assert problems == [
        "01-t.md:10: mermaid block has no pre-rendered SVG for its text (content/diagrams/01-t/"
        f"{diagram_key(FLOW)}.svg; edited since?); "
        "draw it: make diagrams"
    ]
    draw(course, "01-t", FLOW + "\n")  # the same text: surrounding whitespace does not count
    assert check_course(course) == (1, [])
    # Edited: the old drawing is stale and the new text has none.
    write(course, GOOD.replace("Hook.\n", "Hook.\n\n" + DIAGRAM.replace("read", "recv")))
    _, problems = check_course(course)
    assert len(problems) == 2, problems
    assert problems[0].startswith("01-t.md:10: mermaid block has no pre-rendered SVG")
    assert problems[1] == (
        "01-t.md:1: content/diagrams/01-t/ holds 1 SVG(s) for mermaid blocks no longer here; "
        "remove them: make diagrams"
    )


def test_drawings_of_a_page_that_is_gone_are_reported(course: Settings) -> None:
    write(course, GOOD)
    draw(course, "02-gone", "flowchart LR\n  A --> B")
    _, problems = check_course(course)
    assert problems == [
        "content/diagrams/02-gone/: drawings for a page that does not exist; "
        "remove them: make diagrams"
    ]


def test_the_glossary_mermaid_blocks_need_drawings_too(course: Settings) -> None:
    write(course, GOOD)
    (course.content_dir / "glossary.md").write_text(GLOSSARY + "\n" + DIAGRAM)
    _, problems = check_course(course)
    assert len(problems) == 1 and problems[0].startswith(
        "glossary.md:10: mermaid block has no pre-rendered SVG for its text (content/diagrams/"
        "glossary/"
    ), problems
    draw(course, "glossary", FLOW)
    assert check_course(course) == (1, [])


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (("id: one\n", ""), "01-t.md:10: needs an `id:`"),
        (("id: one", "id: One-1"), "01-t.md:10: `id: One-1` is not lower case"),
    ],
)
def test_every_experiment_block_has_a_well_formed_id(
    course: Settings, change: tuple[str, str], problem: str
) -> None:
    write(course, GOOD.replace(*change))
    _, problems = check_course(course)
    assert len(problems) == 1 and problems[0].startswith(problem), problems


def test_two_blocks_may_share_neither_an_id_nor_a_request(course: Settings) -> None:
    second = "```experiment\nid: one\nserver: c-epoll\nconnections: 10\n```\n"
    write(course, GOOD.replace("Hook.\n", "Hook.\n\n" + second))
    _, problems = check_course(course)
    assert problems == [
        "01-t.md:16: `id: one` is also the block at line 10",
        "01-t.md:16: asks for the same run as the block at line 10",
    ]


def test_a_measured_looking_figure_must_be_a_reference_or_quoted(course: Settings) -> None:
    typed = GOOD.replace("Hook.", "Hook: it did 218,767 round trips\nper second, in 4.2 µs each.")
    write(course, typed)
    _, problems = check_course(course)
    assert [p.split(" looks measured")[0] for p in problems] == [
        "01-t.md:8: “218,767 round trips per second”",
        "01-t.md:9: “4.2 µs”",
    ]
    allowed = GOOD.replace(
        "Hook.",
        "Hook: [Kegel's 10,000 clients at 1 ms each](http://www.kegel.com/c10k.html), "
        '`sleep 10 ms`, a {{ given("10 ms") }} timeout, {{ one.qps }}.',
    )
    write(course, allowed)
    _, problems = check_course(course)
    # The reference is the only problem left: this test's recordings hold no finished run.
    assert problems == [
        "01-t.md:8: figure {{ one.qps }}: the recording of `one` has no finished run"
    ]


def test_a_percentage_is_a_figure_too_even_in_the_speaker_notes(course: Settings) -> None:
    notes = (
        '\n\n<details class="speaker-notes"><summary>Speaker notes</summary>\n\n'
        "- Figures drift 10 to 25 % between runs.\n\n</details>\n"
    )
    write(course, GOOD.replace("Hook.", "Hook: it lost 41 % of its rate.") + notes)
    _, problems = check_course(course)
    assert [p.split(" looks measured")[0] for p in problems] == [
        "01-t.md:8: “41 %”",
        "01-t.md:24: “25 %”",
    ]
    allowed = GOOD.replace(
        "Hook.", 'Hook: a run under {{ given("90 %") }} of its target is invalid.'
    ) + notes.replace("10 to 25 %", "(lesson 10 measures how far)")
    write(course, allowed)
    assert check_course(course) == (1, [])


ZH_GOOD = (
    GOOD.replace("title: T", "title: 第一课")
    .replace("Hook.", "引子。")
    .replace("id: one", "id: one\ntitle: 十个客户端")
)


def translate(settings: Settings, text: str) -> None:
    folder = settings.content_dir / "zh" / "lessons"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "01-t.md").write_text(text)


def test_a_translation_is_the_same_lesson_in_other_words(course: Settings) -> None:
    write(course, GOOD)
    translate(course, ZH_GOOD)
    assert check_course(course) == (1, [])


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (("order: 1", "order: 2"), "zh/lessons/01-t.md:1: front matter `order` is 2"),
        (("id: one", "id: uno"), "its experiment blocks differ from the English's"),
        (("connections: 10", "connections: 20"), "its experiment blocks differ"),
        (("anchor: event-loop", "anchor: accept"), "its source blocks differ"),
        (("引子。", "引子：{{ one.qps }}"), "its figure references differ from the English's"),
        (("引子。", '引子：{{ given("2 KiB") }}'), "its figure references differ"),
        (("引子。", "每个连接 8 MiB。"), "“8 MiB” looks measured"),
        (("引子。", "快了3倍。"), "“3倍” looks measured"),
        (("引子。", "每个请求约120微秒。"), "“120微秒” looks measured"),
        (("引子。", "每秒5,000个请求。"), "“每秒5,000个” looks measured"),
        (("引子。", "慢了 41%。"), "“41%” looks measured"),
        (("引子。", "就绪列表。"), "zh/lessons/01-t.md:8: “就绪列表”: the course says “就绪队列”"),
    ],
)
def test_what_a_translation_may_not_change(
    course: Settings, change: tuple[str, str], problem: str
) -> None:
    write(course, GOOD)
    (course.content_dir / "zh").mkdir(exist_ok=True)
    (course.content_dir / "zh" / "terms.toml").write_text(
        '[[term]]\nen = "ready list"\nzh = "就绪队列"\navoid = ["就绪列表"]\n'
    )
    translate(course, ZH_GOOD.replace(*change))
    _, problems = check_course(course)
    assert any(problem in p for p in problems), problems


def test_a_translation_says_a_given_figure_in_its_own_words(course: Settings) -> None:
    write(course, GOOD.replace("Hook.", 'Hook at {{ given("20,000 requests per second") }}.'))
    translate(course, ZH_GOOD.replace("引子。", '引子：{{ given("每秒 20,000 个请求") }}。'))
    assert check_course(course) == (1, [])
    translate(course, ZH_GOOD.replace("引子。", '引子：{{ given("每秒 30,000 个请求") }}。'))
    _, problems = check_course(course)
    assert any("its figure references differ" in p for p in problems), problems


def test_a_translation_needs_its_english_lesson(course: Settings) -> None:
    write(course, GOOD)
    translate(course, ZH_GOOD)
    (course.content_dir / "zh" / "lessons" / "01-t.md").rename(
        course.content_dir / "zh" / "lessons" / "02-gone.md"
    )
    _, problems = check_course(course)
    assert problems == [
        "zh/lessons/02-gone.md:1: no English lesson 02-gone.md: a translation needs one"
    ]


ZH_GLOSSARY = GLOSSARY.replace("title: Glossary", "title: 术语表").replace(
    "Linux's readiness API. See [lesson 1](lessons/01-t.md).",
    "Linux 的就绪通知接口。见[第 1 课](lessons/01-t.md)。",
)


def translate_glossary(settings: Settings, text: str) -> None:
    (settings.content_dir / "zh").mkdir(exist_ok=True)
    (settings.content_dir / "zh" / "glossary.md").write_text(text)


def test_a_translated_glossary_names_the_english_terms_in_their_order(course: Settings) -> None:
    write(course, GOOD)
    english = GLOSSARY + "\n### Ready list\n\nEpitems with news.\n"
    (course.content_dir / "glossary.md").write_text(english)
    translate_glossary(course, ZH_GLOSSARY + "\n### 就绪队列 / Ready list\n\n有事件的 epitem。\n")
    assert check_course(course) == (1, [])


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (("### epoll", "### 轮询"), "zh/glossary.md:1: `### 轮询` names no English term"),
        (("### epoll", "### 轮询 / EPOLL"), "`### 轮询 / EPOLL` names no English term"),
        (("### epoll", "### epoll\n\n### epoll"), "`epoll` has two entries"),
        (("lessons/01-t.md", "lessons/09-gone.md"), "link to missing `lessons/09-gone.md`"),
        (("就绪通知接口。", "每次唤醒 3µs。"), "“3µs” looks measured"),
    ],
)
def test_what_a_translated_glossary_may_not_change(
    course: Settings, change: tuple[str, str], problem: str
) -> None:
    write(course, GOOD)
    translate_glossary(course, ZH_GLOSSARY.replace(*change))
    _, problems = check_course(course)
    assert any(problem in p for p in problems), problems


def test_a_translated_glossary_keeps_the_english_order(course: Settings) -> None:
    write(course, GOOD)
    (course.content_dir / "glossary.md").write_text(GLOSSARY + "\n### Ready list\n\nNews.\n")
    ready = "### 就绪队列 / Ready list\n\n有事件的 epitem。\n\n"
    translate_glossary(course, ZH_GLOSSARY.replace("### epoll", ready + "### epoll"))
    _, problems = check_course(course)
    assert problems == [
        "zh/glossary.md:1: terms out of the English order: `Ready list` where it has `epoll`"
    ]


def test_a_translated_glossary_missing_a_term_says_which(course: Settings) -> None:
    write(course, GOOD)
    (course.content_dir / "glossary.md").write_text(GLOSSARY + "\n### poll\n\nOlder.\n")
    translate_glossary(course, ZH_GLOSSARY)
    _, problems = check_course(course)
    assert problems == ["zh/glossary.md:1: has no entry for ['poll']: every English term needs one"]
