"""The content checker's part for translations: a translated lesson is the same lesson.

A lesson in content/zh/lessons/ (languages.language_dir) must have its English original,
the same front matter numbers (order, minutes, prerequisites), and, in the same order, the same
experiment blocks (their ids and what they ask: a translated title is welcome), the same source
blocks and as many diagrams, and the same figure references (content/figures.py), every one
resolving (a `given("...")` says its figure in the translation's words). Its prose keeps the
course's vocabulary: no word content/zh/terms.toml says to avoid.
A translated glossary names the same terms in the same order, each heading the English term or
`its translation / the English term` (so the reader's words and the English both link to it).
"""

import re
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml

from c10klab.content.check_figures import reference_problems, unmarked_figures
from c10klab.content.figures import find_references
from c10klab.content.markdown import FENCE
from c10klab.content.schemas import Language
from c10klab.content.service import (
    ParsedLesson,
    language_dir,
    lesson_recordings,
    read_experiments,
)


@dataclass(frozen=True)
class Term:
    en: str
    zh: str
    avoid: tuple[str, ...]


def read_terms(content_dir: Path, language: Language) -> list[Term]:
    """The course's vocabulary in `language` (content/<language>/terms.toml)."""
    path = language_dir(content_dir, language) / "terms.toml"
    if not path.is_file():
        return []
    entries = tomllib.loads(path.read_text()).get("term", [])
    return [Term(e["en"], e["zh"], tuple(e.get("avoid", []))) for e in entries]


def _blocks(markdown: str, language: str) -> list[str]:
    return [m.group(2).strip() for m in FENCE.finditer(markdown) if m.group(1) == language]


def _source_spec(body: str) -> object:
    try:
        return yaml.safe_load(body)
    except yaml.YAMLError:
        return body


def _line(markdown: str, position: int) -> int:
    return markdown.count("\n", 0, position) + 1


GIVEN = re.compile(r'given\("([^"]*)"\)')
GIVEN_FIGURE = re.compile(r"\d[\d,.]*|[KMG]iB|[kMG]B|µs|ns|ms")


def same_figure(expression: str) -> str:
    """A reference as a translation must keep it: the same expression, but the words of a
    `given("...")` are the translation's to choose, so it keeps only the figure and unit in it
    (`given("20,000 requests per second")` and `given("每秒 20,000 个请求")` are the same)."""
    return GIVEN.sub(lambda m: f"given({' '.join(GIVEN_FIGURE.findall(m.group(1)))})", expression)


def parity_problems(original: ParsedLesson, translated: ParsedLesson) -> list[tuple[int, str]]:
    """What the translation changed that only the English may change. Line 0: the whole file."""
    problems: list[tuple[int, str]] = []
    for field in ("order", "minutes", "prerequisites"):
        ours, theirs = getattr(translated.meta, field), getattr(original.meta, field)
        if ours != theirs:
            problems.append((0, f"front matter `{field}` is {ours}; the English has {theirs}"))
    ours_exp = [(e.id, e.key) for e in read_experiments(translated.markdown)]
    theirs_exp = [(e.id, e.key) for e in read_experiments(original.markdown)]
    if ours_exp != theirs_exp:
        problems.append(
            (
                0,
                "its experiment blocks differ from the English's: the same blocks, in the same "
                f"order, with the same ids and requests (only `title` is translated); ids here "
                f"{[i for i, _ in ours_exp]}, in English {[i for i, _ in theirs_exp]}",
            )
        )
    ours_src = [_source_spec(b) for b in _blocks(translated.markdown, "source")]
    theirs_src = [_source_spec(b) for b in _blocks(original.markdown, "source")]
    if ours_src != theirs_src:
        problems.append(
            (0, "its source blocks differ from the English's (same files, anchors, order)")
        )
    mermaid = (
        len(_blocks(translated.markdown, "mermaid")),
        len(_blocks(original.markdown, "mermaid")),
    )
    if mermaid[0] != mermaid[1]:
        problems.append((0, f"{mermaid[0]} diagram(s); the English has {mermaid[1]}"))
    ours_refs = Counter(
        same_figure(r.expression) for r in find_references(translated.markdown, {}, "zh")
    )
    theirs_refs = Counter(
        same_figure(r.expression) for r in find_references(original.markdown, {}, "en")
    )
    missing, extra = theirs_refs - ours_refs, ours_refs - theirs_refs
    if missing or extra:
        problems.append(
            (
                0,
                "its figure references differ from the English's: missing "
                f"{sorted(missing) or 'none'}, not in the English {sorted(extra) or 'none'}",
            )
        )
    return problems


def english_term(heading: str, english: set[str]) -> str | None:
    """The English term a translated glossary heading stands for: the heading itself, or what
    follows its first ` / ` ("就绪队列 / Ready list", "完成队列 / CQ / CQE")."""
    if heading in english:
        return heading
    _, slash, rest = heading.partition(" / ")
    return rest if slash and rest in english else None


def glossary_parity_problems(original: list[str], translated: list[str]) -> list[str]:
    """Each heading of a translated glossary stands for the English term in its place."""
    english = set(original)
    named = [english_term(heading, english) for heading in translated]
    problems = [
        f"`### {heading}` names no English term: write `### 译名 / English term`, the English "
        "exactly as content/glossary.md has it"
        for heading, term in zip(translated, named, strict=True)
        if term is None
    ]
    found = [term for term in named if term is not None]
    missing = [term for term in original if term not in found]
    if missing:
        problems.append(f"has no entry for {missing}: every English term needs one")
    if not missing and found != original and len(found) == len(original):
        at = next(i for i, (a, b) in enumerate(zip(found, original, strict=True)) if a != b)
        problems.append(
            f"terms out of the English order: `{found[at]}` where it has `{original[at]}`"
        )
    extra = [term for term in set(found) if found.count(term) > 1]
    problems += [f"`{term}` has two entries" for term in sorted(extra)]
    return problems


def vocabulary_problems(markdown: str, terms: list[Term]) -> list[tuple[int, str]]:
    """Each word the term list says to avoid, where it stands, with the word to use."""
    prose = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), markdown)
    problems = []
    for term in terms:
        for word in term.avoid:
            at = prose.find(word)
            while at >= 0:
                problems.append(
                    (_line(prose, at), f"“{word}”: the course says “{term.zh}” ({term.en})")
                )
                at = prose.find(word, at + len(word))
    return problems


def prose_problems(content_dir: Path, markdown: str, language: Language) -> list[tuple[int, str]]:
    """What a translation's prose may not hold, a lesson's or the glossary's: a typed-in figure,
    or a word the course's term list refuses."""
    return unmarked_figures(markdown, language) + vocabulary_problems(
        markdown, read_terms(content_dir, language)
    )


def check_translated_lesson(
    content_dir: Path, original: ParsedLesson, translated: ParsedLesson
) -> list[tuple[int, str]]:
    """Every problem of one translated lesson, lines counted in its body."""
    language = translated.language
    recordings = lesson_recordings(
        content_dir, original.slug, read_experiments(translated.markdown)
    )
    return (
        parity_problems(original, translated)
        + reference_problems(translated.markdown, recordings, language)
        + prose_problems(content_dir, translated.markdown, language)
    )
