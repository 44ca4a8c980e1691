from pathlib import Path

import pytest

from c10klab.content.service import LessonFormatError, get_lesson, list_lessons, parse_lesson
from c10klab.errors import NotFound

LESSON = """---
title: {title}
summary: A summary.
minutes: 10
order: {order}
---

# Body of {title}
"""


def write(dir_: Path, name: str, title: str, order: int) -> None:
    (dir_ / "lessons").mkdir(exist_ok=True)
    (dir_ / "lessons" / name).write_text(LESSON.format(title=title, order=order))


def test_lessons_are_listed_in_course_order_with_neighbours(tmp_path: Path) -> None:
    write(tmp_path, "02-second.md", "Second", 2)
    write(tmp_path, "01-first.md", "First", 1)
    write(tmp_path, "03-third.md", "Third", 3)
    assert [lesson.slug for lesson in list_lessons(tmp_path)] == [
        "01-first",
        "02-second",
        "03-third",
    ]
    middle = get_lesson(tmp_path, "02-second")
    assert middle.prev is not None and middle.prev.slug == "01-first"
    assert middle.next is not None and middle.next.title == "Third"
    assert middle.markdown.startswith("# Body of Second")


def test_a_missing_lesson_is_a_404_with_a_pointer(tmp_path: Path) -> None:
    write(tmp_path, "01-first.md", "First", 1)
    with pytest.raises(NotFound, match="GET /api/lessons"):
        get_lesson(tmp_path, "99-nope")


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("1-bad.md", LESSON.format(title="x", order=1), "named NN-slug.md"),
        ("01-nofm.md", "# no front matter\n", "front matter"),
        ("01-missing.md", "---\ntitle: x\n---\nbody\n", "summary"),
        ("01-yaml.md", "---\ntitle: [unclosed\n---\nbody\n", "bad front matter"),
    ],
)
def test_a_broken_lesson_names_the_file_and_the_problem(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(LessonFormatError, match=message) as err:
        parse_lesson(path)
    assert name in str(err.value)


def test_the_real_course_parses() -> None:
    from c10klab.config import Settings

    lessons = list_lessons(Settings().content_dir)
    assert lessons, "content/lessons holds no lesson"
    # Lesson 0 is the beginner's way in; the course proper starts at 1.
    assert [x.order for x in lessons[:2]] == [0, 1]
    assert [x.slug for x in lessons[:2]] == ["00-before-you-start", "01-c10k-problem"]


def test_baselines_are_empty_until_recorded_then_served(tmp_path: Path) -> None:
    from c10klab.content.service import get_baselines

    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "01-a.md").write_text("---\ntitle: A\nsummary: S\nminutes: 5\norder: 1\n---\nBody\n")
    assert get_baselines(tmp_path, "01-a").experiments == []
    (tmp_path / "baselines").mkdir()
    (tmp_path / "baselines" / "01-a.json").write_text(
        '{"lesson": "01-a", "experiments": [{"block": "server: c-epoll", "kind": "run", '
        '"recorded_at": "2026-11-22T08:00:00+00:00", "provenance": {"kernel": "6.18", '
        '"request": {"server": "c-epoll"}, "server_image": {"tag": "s", "id": null}, '
        '"loadgen_image": {"tag": "l", "id": null}, "server_argv": [], "loadgen_argv": [], '
        '"server_cpus": "0", "loadgen_cpus": "1", "started_at": "t0", "finished_at": "t1"}, '
        '"result": {"events": []}}]}'
    )
    assert get_baselines(tmp_path, "01-a").experiments[0].provenance.kernel == "6.18"
    with pytest.raises(NotFound):
        get_baselines(tmp_path, "02-missing")


def test_the_glossary_lists_its_terms(tmp_path: Path) -> None:
    from c10klab.content.service import get_glossary

    with pytest.raises(NotFound):
        get_glossary(tmp_path)
    (tmp_path / "glossary.md").write_text(
        "---\ntitle: Glossary\nsummary: S\n---\n\n## A\n\n### Accept\n\nx\n\n### Aio\n\ny\n"
    )
    glossary = get_glossary(tmp_path)
    assert glossary.terms == ["Accept", "Aio"] and glossary.markdown.startswith("## A")


DRAWN = "flowchart LR\n  A --> B"
UNDRAWN = "flowchart LR\n  C --> D"


def test_a_lesson_carries_the_drawing_of_each_mermaid_block_that_has_one(tmp_path: Path) -> None:
    from c10klab.content.service import diagram_key

    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "01-a.md").write_text(
        "---\ntitle: A\nsummary: S\nminutes: 5\norder: 1\n---\n"
        f"```mermaid\n{DRAWN}\n```\n\n```mermaid\n{UNDRAWN}\n```\n\n```mermaid\n{DRAWN}\n```\n"
    )
    assert get_lesson(tmp_path, "01-a").diagrams == []
    folder = tmp_path / "diagrams" / "01-a"
    folder.mkdir(parents=True)
    (folder / f"{diagram_key(DRAWN)}.svg").write_text('<svg id="a"/>\n')
    # Once per text, keyed by the trimmed text; the undrawn block is left to the browser.
    [diagram] = get_lesson(tmp_path, "01-a").diagrams
    assert (diagram.source, diagram.svg) == (DRAWN, '<svg id="a"/>\n')


def test_only_files_inside_content_diagrams_are_read(tmp_path: Path) -> None:
    from c10klab.content.service import diagram_key, read_diagrams

    secret = tmp_path / "secret.svg"
    secret.write_text("<svg>not for the browser</svg>")
    folder = tmp_path / "content" / "diagrams" / "01-a"
    folder.mkdir(parents=True)
    (folder / f"{diagram_key(DRAWN)}.svg").symlink_to(secret)
    markdown = f"```mermaid\n{DRAWN}\n```\n"
    assert read_diagrams(tmp_path / "content", "01-a", markdown) == []
    # The same link inside content/diagrams is followed.
    secret.rename(folder / "elsewhere.svg")
    (folder / f"{diagram_key(DRAWN)}.svg").unlink()
    (folder / f"{diagram_key(DRAWN)}.svg").symlink_to(folder / "elsewhere.svg")
    assert [d.svg for d in read_diagrams(tmp_path / "content", "01-a", markdown)] == [
        "<svg>not for the browser</svg>"
    ]


def test_the_real_course_serves_every_diagram_drawn() -> None:
    from c10klab.config import Settings
    from c10klab.content.service import FENCE

    content = Settings().content_dir
    for summary in list_lessons(content):
        lesson = get_lesson(content, summary.slug)
        blocks = {m[2].strip() for m in FENCE.finditer(lesson.markdown) if m[1] == "mermaid"}
        assert {d.source for d in lesson.diagrams} == blocks, summary.slug
        assert all(d.svg.startswith('<svg id="c10k-diagram-') for d in lesson.diagrams)


def test_a_translation_is_served_in_its_language_and_english_stands_in_until_then(
    tmp_path: Path,
) -> None:
    write(tmp_path, "01-first.md", "First", 1)
    write(tmp_path, "02-second.md", "Second", 2)
    (tmp_path / "zh" / "lessons").mkdir(parents=True)
    (tmp_path / "zh" / "lessons" / "01-first.md").write_text(LESSON.format(title="第一课", order=1))
    listed = list_lessons(tmp_path, "zh")
    assert [(x.title, x.language) for x in listed] == [("第一课", "zh"), ("Second", "en")]
    first = get_lesson(tmp_path, "01-first", language="zh")
    assert first.language == "zh" and first.markdown.startswith("# Body of 第一课")
    assert first.next is not None and first.next.title == "Second"
    assert get_lesson(tmp_path, "01-first").title == "First"
