"""Check every lesson the way the course will use it: `python -m c10klab.content.check`.

A lesson passes when its front matter parses (as GET /api/lessons parses it), every `experiment`
block is a run request the API would accept, every `source` block names a file GET /api/sources
serves (sandboxes.service.quotable_sources: the catalog's sources, the shared protocol modules,
code files with ANCHOR: markers) and resolves to lines of it, every relative link and image
exists, it has at least one experiment and one source block, every experiment has a
reference result recorded for what it asks (content/baselines/, by `make record-baselines`),
every figure of its prose comes from those recordings (check_figures), and every `mermaid`
block a drawing of its exact text (content/diagrams/, by `make diagrams`). The texts the course
shows outside its lessons (the catalog's, and the opening comment of every source file it
serves) hold no measured figure at all (check_notes).
Exit status 1 and one line per problem otherwise.
"""

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from c10klab.config import Settings
from c10klab.content.check_figures import block_id_problems, reference_problems, unmarked_figures
from c10klab.content.check_notes import shown_text_problems
from c10klab.content.check_translation import (
    Term,
    check_translated_lesson,
    glossary_parity_problems,
    prose_problems,
    read_terms,
    vocabulary_problems,
)
from c10klab.content.experiments import WIDGET_ONLY_KEYS as WIDGET_ONLY_KEYS
from c10klab.content.experiments import block_fields, parse_block
from c10klab.content.experiments import series_request as series_request
from c10klab.content.schemas import Language
from c10klab.content.service import FENCE as FENCE
from c10klab.content.service import (
    LessonFormatError,
    baselines_path,
    diagram_key,
    diagrams_dir,
    get_glossary,
    language_dir,
    lesson_recordings,
    parse_lesson,
    read_baselines,
    read_experiment,
)
from c10klab.errors import DomainError
from c10klab.exercises.service import (
    check_exercise,
    exercise_paths,
    read_exercise,
    translation_path,
    translation_problem,
)
from c10klab.runner.measure import NAMED_SYSCALLS
from c10klab.runs.schemas import RunRequest
from c10klab.runs.service import validate_request
from c10klab.sandboxes.service import load_catalog, quotable_sources, read_excerpt
from c10klab.sweeps.schemas import SweepRequest
from c10klab.sweeps.service import plan_points

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
# The languages lessons are translated into, each in content/<language>/.
TRANSLATIONS: tuple[Language, ...] = ("zh",)


@dataclass(frozen=True)
class Block:
    language: str
    line: int  # of the opening fence, counted in the lesson body
    body: str


def fenced_blocks(markdown: str) -> list[Block]:
    return [
        Block(m.group(1), markdown.count("\n", 0, m.start()) + 1, m.group(2))
        for m in FENCE.finditer(markdown)
    ]


def _mapping(block: Block) -> dict[str, Any]:
    return block_fields(block.body)


def check_experiment(block: Block, settings: Settings) -> None:
    """The block's request (parsed as GET /api/lessons/{slug} sends it), then the catalog's
    and the host's limits, as POST /api/runs or /api/sweeps would apply them."""
    request = parse_block(block.body)
    catalog = load_catalog(settings.sandboxes_dir)
    if isinstance(request, SweepRequest):
        plan_points(request, catalog, settings)
    else:
        validate_request(request, catalog, settings)


def check_source(block: Block, settings: Settings) -> None:
    spec = _mapping(block)
    unknown = set(spec) - {"path", "anchor", "lines"}
    if unknown or not isinstance(spec.get("path"), str):
        raise ValueError("needs `path` and one of `anchor` or `lines`, nothing else")
    if ("anchor" in spec) == ("lines" in spec):
        raise ValueError("needs exactly one of `anchor` or `lines`")
    if spec["path"] not in quotable_sources(settings.sandboxes_dir):
        raise ValueError(
            f"path: {spec['path']} is not a file GET /api/sources serves (a catalog server's "
            "source, a shared protocol module, or a code file with an `ANCHOR: name` comment): "
            "mark the lines to quote with ANCHOR: / ANCHOR_END: comments"
        )
    read_excerpt(
        settings.sandboxes_dir,
        spec["path"],
        str(spec["anchor"]) if "anchor" in spec else None,
        str(spec["lines"]) if "lines" in spec else None,
    )


def check_links(markdown: str, path: Path) -> list[str]:
    prose = FENCE.sub("", markdown)
    problems = []
    for target in LINK.findall(prose):
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            continue
        if target.startswith("/lessons/"):
            exists = (path.parent / f"{target.removeprefix('/lessons/')}.md").is_file()
        else:
            exists = (path.parent / target.split("#")[0]).exists()
        if not exists:
            problems.append(f"link to missing `{target}`")
    if prose.count("<details") != prose.count("</details>"):
        problems.append("unbalanced <details> tags")
    if re.search(r"^# ", prose, re.MULTILINE):
        problems.append("a `# heading` in the body: the page shows `title` as the top heading")
    return problems


def check_lesson(
    path: Path, settings: Settings, translated: list[Block] | None = None
) -> list[str]:
    """Every problem of one lesson, each as `file:line: message`. `translated`: the mermaid
    blocks of its translations, whose drawings live beside the English's."""
    try:
        lesson = parse_lesson(path)
    except LessonFormatError as exc:
        return [f"{path.name}:1: {exc}"]
    # Body lines are counted after the front matter; add it back for editor-friendly numbers.
    offset = path.read_text().count("\n") - lesson.markdown.count("\n")
    problems = [f"{path.name}:1: {p}" for p in check_links(lesson.markdown, path)]
    blocks = fenced_blocks(lesson.markdown)
    checks = {"experiment": check_experiment, "source": check_source}
    for block in blocks:
        check = checks.get(block.language)
        if check is None:
            continue
        try:
            check(block, settings)
        except (ValueError, DomainError) as exc:
            problems.append(f"{path.name}:{block.line + offset}: {block.language} block: {exc}")
    for language in checks:
        if not any(b.language == language for b in blocks):
            problems.append(f"{path.name}:1: has no `{language}` block; every lesson needs one")
    experiments = [b for b in blocks if b.language == "experiment"]
    problems += [
        f"{path.name}:{line + offset if line else 1}: {problem}"
        for line, problem in check_baselines(path.stem, experiments, settings)
        + check_diagrams(path.stem, blocks, settings, translated or [])
        + check_figures(path.stem, lesson.markdown, experiments, settings, offset)
    ]
    return problems


def check_figures(
    slug: str, markdown: str, experiments: list[Block], settings: Settings, offset: int = 0
) -> list[tuple[int, str]]:
    """Blocks have ids, references resolve, and no measured-looking figure is typed in."""
    refs = [read_experiment(b.body.strip()) for b in experiments]
    recordings = lesson_recordings(settings.content_dir, slug, refs)
    return (
        block_id_problems([(b.line, b.body) for b in experiments], refs, offset)
        + reference_problems(markdown, recordings, "en")
        + unmarked_figures(markdown, "en")
    )


def check_baselines(
    slug: str, experiments: list[Block], settings: Settings
) -> list[tuple[int, str]]:
    """Each experiment block has a recorded reference result for what it asks (its key), and
    no recording outlives its block. Line 0 for problems that belong to no block."""
    name = baselines_path(settings.content_dir, slug).name
    record = f"record them: .venv/bin/python -m c10klab_bench.baselines --lesson {slug}"
    try:
        recorded = read_baselines(settings.content_dir, slug)
    except ValidationError as exc:
        return [(0, f"{name} does not parse ({exc.error_count()} errors); {record}")]
    if recorded is None:
        return [(0, f"no reference results ({name} is missing); {record}")] if experiments else []
    keys = {b.key for b in recorded.experiments}
    current = {read_experiment(b.body.strip()).key for b in experiments}
    problems = [
        (b.line, f"experiment block has no reference result for what it asks (edited?); {record}")
        for b in experiments
        if read_experiment(b.body.strip()).key not in keys
    ]
    stale = sum(1 for key in keys if key not in current)
    if stale:
        problems.append((0, f"{name} holds {stale} result(s) for blocks no longer here; {record}"))
    return problems


def check_diagrams(
    page: str, blocks: list[Block], settings: Settings, translated: list[Block] | None = None
) -> list[tuple[int, str]]:
    """Each mermaid block has its drawing for its exact text (content/diagrams/<page>/), and no
    drawing outlives its block, in the page or a translation of it (`translated`, whose own
    missing drawings its translation's check reports). Line 0: problems of no block."""
    folder = diagrams_dir(settings.content_dir, page)
    drawn = {path.stem for path in folder.glob("*.svg")}
    mermaid = [b for b in blocks if b.language == "mermaid"]
    others = [b for b in translated or [] if b.language == "mermaid"]
    problems = [
        (
            b.line,
            f"mermaid block has no pre-rendered SVG for its text (content/diagrams/{page}/"
            f"{diagram_key(b.body)}.svg; edited since?); draw it: make diagrams",
        )
        for b in mermaid
        if diagram_key(b.body) not in drawn
    ]
    stale = drawn - {diagram_key(b.body) for b in mermaid + others}
    if stale:
        problems.append(
            (
                0,
                f"content/diagrams/{page}/ holds {len(stale)} SVG(s) for mermaid blocks no longer "
                "here; remove them: make diagrams",
            )
        )
    return problems


def check_glossary(settings: Settings) -> list[str]:
    """The glossary parses, names each term once, and its links resolve."""
    path = settings.content_dir / "glossary.md"
    try:
        glossary = get_glossary(settings.content_dir)
    except (LessonFormatError, DomainError) as exc:
        return [f"glossary.md:1: {exc}"]
    problems = [f"glossary.md:1: {p}" for p in check_links(glossary.markdown, path)]
    offset = path.read_text().count("\n") - glossary.markdown.count("\n")
    problems += [
        f"glossary.md:{line + offset if line else 1}: {problem}"
        for line, problem in check_diagrams(
            "glossary",
            fenced_blocks(glossary.markdown),
            settings,
            translated_blocks(settings, "glossary"),
        )
        + unmarked_figures(glossary.markdown, "en")
    ]
    seen: set[str] = set()
    for term in glossary.terms:
        if term.lower() in seen:
            problems.append(f"glossary.md: `{term}` is defined twice")
        seen.add(term.lower())
    if not glossary.terms:
        problems.append("glossary.md: no `### term` sections")
    return problems


def check_translated_glossary(settings: Settings, language: Language) -> list[str]:
    """A translated glossary, where there is one: it parses, names the English terms in their
    order (check_translation), its links resolve as the English's do, and its prose has no
    typed-in figure and keeps the course's vocabulary."""
    path = language_dir(settings.content_dir, language) / "glossary.md"
    if not path.is_file():
        return []
    name = f"{language}/glossary.md"
    try:
        glossary = get_glossary(settings.content_dir, language)
        english = get_glossary(settings.content_dir)
    except (LessonFormatError, DomainError) as exc:
        return [f"{name}:1: {exc}"]
    offset = path.read_text().count("\n") - glossary.markdown.count("\n")
    found = (
        [(0, p) for p in check_links(glossary.markdown, settings.content_dir / "glossary.md")]
        + [(0, p) for p in glossary_parity_problems(english.terms, glossary.terms)]
        + [
            (line, problem)
            for line, problem in check_diagrams(
                "glossary", fenced_blocks(glossary.markdown), settings
            )
            if line
        ]
        + prose_problems(settings.content_dir, glossary.markdown, language)
    )
    return [f"{name}:{line + offset if line else 1}: {p}" for line, p in found]


def check_exercises(settings: Settings, lessons: set[str]) -> list[str]:
    """Every exercise applies to its server's file, its run is one the API would queue, and it
    is translated."""
    catalog = load_catalog(settings.sandboxes_dir)
    vocabularies = {lang: read_terms(settings.content_dir, lang) for lang in TRANSLATIONS}
    problems = []
    for path in exercise_paths(settings.content_dir):
        problem = check_exercise(path, catalog, settings.sandboxes_dir, lessons, NAMED_SYSCALLS)
        if not problem:
            exercise = read_exercise(path)
            run = RunRequest(**exercise.run.model_dump(), server=exercise.server)
            try:
                validate_request(run, catalog, settings)
            except DomainError as refused:
                problem = f"exercises/{path.name}: its run: {refused.message}"
        if problem:
            problems.append(problem)
        for language, terms in vocabularies.items():
            problems += translated_exercise_problems(settings, path, language, terms)
    return problems


def translated_exercise_problems(
    settings: Settings, path: Path, language: Language, terms: list[Term]
) -> list[str]:
    """An exercise's translation: complete, and in the course's words (`terms`)."""
    problem = translation_problem(path, settings.content_dir, language)
    if problem:
        return [problem]
    where = translation_path(settings.content_dir, language, path.stem)
    return [
        f"{language}/exercises/{where.name}:{line}: {p}"
        for line, p in vocabulary_problems(where.read_text(), terms)
    ]


def check_translations(settings: Settings, language: Language) -> list[str]:
    """Each translated lesson: it has its English original and is the same lesson
    (check_translation), its links resolve as the English's do, its diagrams are drawn."""
    folder = language_dir(settings.content_dir, language) / "lessons"
    problems = []
    for path in sorted(folder.glob("*.md")):
        name = f"{language}/lessons/{path.name}"
        english = settings.content_dir / "lessons" / path.name
        if not english.is_file():
            problems.append(f"{name}:1: no English lesson {path.name}: a translation needs one")
            continue
        try:
            translated, original = parse_lesson(path, language), parse_lesson(english)
        except LessonFormatError as exc:
            problems.append(f"{name}:1: {exc}")
            continue
        offset = path.read_text().count("\n") - translated.markdown.count("\n")
        blocks = fenced_blocks(translated.markdown)
        found = (
            check_translated_lesson(settings.content_dir, original, translated)
            + [(1, p) for p in check_links(translated.markdown, english)]
            + [
                (line, problem)
                for line, problem in check_diagrams(path.stem, blocks, settings)
                if line  # its stale drawings are the English page's to report
            ]
        )
        problems += [f"{name}:{line + offset if line else 1}: {p}" for line, p in found]
    return problems


def translated_blocks(settings: Settings, page: str) -> list[Block]:
    """The fenced blocks of every translation of a page (a lesson's slug, or `glossary`); a
    translation that does not parse has none here, and its own check says why."""
    blocks = []
    for language in TRANSLATIONS:
        folder = language_dir(settings.content_dir, language)
        try:
            if page == "glossary":
                if (folder / "glossary.md").is_file():
                    blocks += fenced_blocks(get_glossary(settings.content_dir, language).markdown)
            elif (path := folder / "lessons" / f"{page}.md").is_file():
                blocks += fenced_blocks(parse_lesson(path, language).markdown)
        except LessonFormatError:
            continue
    return blocks


def check_course(settings: Settings) -> tuple[int, list[str]]:
    lessons = sorted((settings.content_dir / "lessons").glob("*.md"))
    problems = [
        p
        for path in lessons
        for p in check_lesson(path, settings, translated_blocks(settings, path.stem))
    ]
    for language in TRANSLATIONS:
        problems += check_translations(settings, language)
        problems += check_translated_glossary(settings, language)
    problems += check_glossary(settings)
    pages = {path.stem for path in lessons} | {"glossary"}
    problems += [
        f"content/diagrams/{folder.name}/: drawings for a page that does not exist; "
        "remove them: make diagrams"
        for folder in sorted((settings.content_dir / "diagrams").glob("*"))
        if folder.is_dir() and folder.name not in pages
    ]
    problems += check_exercises(settings, {path.stem for path in lessons})
    problems += shown_text_problems(settings.sandboxes_dir)
    numbers = [path.name[:2] for path in lessons]
    problems += [
        f"two lessons are numbered {n}" for n in sorted(set(numbers)) if numbers.count(n) > 1
    ]
    return len(lessons), problems


def main() -> int:
    count, problems = check_course(Settings())
    for problem in problems:
        print(problem)
    print(f"content: {count} lesson(s) checked, {len(problems)} problem(s)")
    return 1 if problems or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
