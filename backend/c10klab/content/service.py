"""Reading lessons: front matter validated, body passed on as Markdown for the browser to render,
with the SVG of each ```mermaid block that `make diagrams` drew."""

import contextlib
import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml
from pydantic import ValidationError

from c10klab.config import Settings
from c10klab.content.experiments import block_fields, parse_block, request_key
from c10klab.content.figures import Recording, find_references, read_recording, render
from c10klab.content.markdown import FENCE as FENCE
from c10klab.content.schemas import (
    Baseline,
    Diagram,
    ExperimentRef,
    Figure,
    FrontMatter,
    Glossary,
    GlossaryFrontMatter,
    Language,
    Lesson,
    LessonBaselines,
    LessonLink,
    LessonSummary,
)
from c10klab.errors import InvalidRequest, NotFound, Phrase
from c10klab.languages import language_dir as language_dir
from c10klab.sweeps.figures import with_host_noise
from c10klab.sweeps.schemas import SweepRequest

NO_LESSON = Phrase("no-lesson", "no lesson {slug!r}; GET /api/lessons lists them")
NO_EXPERIMENT = Phrase(
    "no-experiment",
    "lesson {slug!r} has no experiment {key!r}; GET /api/lessons/{slug} lists its experiments "
    "with their keys",
)
EXPERIMENT_WITHOUT_LESSON = Phrase(
    "experiment-without-lesson", "experiment: give the lesson it belongs to as well"
)
NO_GLOSSARY = Phrase("no-glossary", "the course has no glossary (content/glossary.md)")

SLUG = re.compile(r"^\d{2}-[a-z0-9-]+$")
FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n(.*)\Z", re.DOTALL)
# What only the instructor sees. The notes hold no nested <details>: the checker keeps it so.
SPEAKER_NOTES = re.compile(r'<details class="speaker-notes">.*?</details>[ \t]*\n?', re.DOTALL)


class LessonFormatError(ValueError):
    """A lesson file that cannot be served; the message names the file and the fix."""


@dataclass(frozen=True)
class ParsedLesson:
    slug: str
    meta: FrontMatter
    markdown: str
    language: Language = "en"


def parse_lesson(path: Path, language: Language = "en") -> ParsedLesson:
    """The lesson in `path`, parsed once for each version of the file (its change time and
    size): a class's pages ask for the course's lessons and titles every few seconds."""
    found = path.stat()
    return _parse_lesson(path, language, found.st_mtime_ns, found.st_size)


@lru_cache(maxsize=256)
def _parse_lesson(path: Path, language: Language, _mtime_ns: int, _size: int) -> ParsedLesson:
    slug = path.stem
    if not SLUG.match(slug):
        raise LessonFormatError(f"{path.name}: lesson files are named NN-slug.md (e.g. 01-c10k.md)")
    match = FRONT_MATTER.match(path.read_text())
    if not match:
        raise LessonFormatError(f"{path.name}: starts without a '---' front matter block")
    try:
        raw = yaml.safe_load(match.group(1))
        meta = FrontMatter.model_validate(raw)
    except (yaml.YAMLError, ValidationError) as exc:
        raise LessonFormatError(f"{path.name}: bad front matter: {exc}") from exc
    return ParsedLesson(
        slug=slug, meta=meta, markdown=match.group(2).lstrip("\n"), language=language
    )


def load_lessons(content_dir: Path, language: Language = "en") -> list[ParsedLesson]:
    """Every lesson, in course order (front matter `order`, then file name): in `language`
    where it has been translated, in English where not yet. The English files are the course:
    a translation of a lesson that is not there is not served (the checker says so)."""
    lessons = [parse_lesson(p) for p in sorted((content_dir / "lessons").glob("*.md"))]
    if language != "en":
        folder = language_dir(content_dir, language) / "lessons"
        translated = {p.stem: p for p in folder.glob("*.md")}
        lessons = [
            parse_lesson(translated[x.slug], language) if x.slug in translated else x
            for x in lessons
        ]
    return sorted(lessons, key=lambda lesson: (lesson.meta.order, lesson.slug))


def _summary(lesson: ParsedLesson) -> LessonSummary:
    return LessonSummary(
        slug=lesson.slug,
        language=lesson.language,
        **lesson.meta.model_dump(exclude={"prerequisites"}),
    )


def list_lessons(content_dir: Path, language: Language = "en") -> list[LessonSummary]:
    return [_summary(lesson) for lesson in load_lessons(content_dir, language)]


def lesson_recordings(
    content_dir: Path, slug: str, experiments: list[ExperimentRef]
) -> dict[str, Recording]:
    """The lesson's recordings by block id: each block with an `id` and a recording of what it
    asks for (the same in every language); one that cannot be read says why to the figures
    naming it."""
    with contextlib.suppress(ValidationError):
        baselines = read_baselines(content_dir, slug)
        by_key = {b.key: b for b in baselines.experiments} if baselines else {}
        recordings: dict[str, Recording] = {}
        for experiment in experiments:
            baseline = by_key.get(experiment.key)
            if experiment.id and baseline is not None:
                recordings[experiment.id] = read_recording(experiment.id, baseline)
        return recordings
    return {}


def resolve_figures(
    markdown: str, recordings: dict[str, Recording], language: Language
) -> tuple[str, list[Figure]]:
    """The prose with its figure references resolved, and what each resolved to."""
    references = find_references(markdown, recordings, language)
    figures = [
        Figure(
            expression=r.expression,
            text=r.text,
            value=r.value,
            unit=r.unit,
            experiments=list(r.experiments),
            error=r.error,
        )
        for r in references
    ]
    return render(markdown, references), figures


def get_lesson(
    content_dir: Path, slug: str, speaker_notes: bool = True, language: Language = "en"
) -> Lesson:
    """A lesson in `language` (English while it has no translation), its figures resolved;
    without its speaker notes unless `speaker_notes` (an instructor asking)."""
    lessons = load_lessons(content_dir, language)
    index = next((i for i, lesson in enumerate(lessons) if lesson.slug == slug), None)
    if index is None:
        raise NotFound(NO_LESSON(slug=slug))

    def link(i: int) -> LessonLink | None:
        if not 0 <= i < len(lessons):
            return None
        return LessonLink(slug=lessons[i].slug, title=lessons[i].meta.title)

    lesson = lessons[index]
    experiments = read_experiments(lesson.markdown)
    recordings = lesson_recordings(content_dir, slug, experiments)
    shown = lesson.markdown if speaker_notes else SPEAKER_NOTES.sub("", lesson.markdown)
    markdown, figures = resolve_figures(shown, recordings, lesson.language)
    return Lesson(
        **_summary(lesson).model_dump(),
        prerequisites=lesson.meta.prerequisites,
        markdown=markdown,
        figures=figures,
        experiments=experiments,
        diagrams=read_diagrams(content_dir, lesson.slug, lesson.markdown),
        prev=link(index - 1),
        next=link(index + 1),
    )


def diagram_key(text: str) -> str:
    """A ```mermaid block's name in content/diagrams: the first 12 hex digits of the SHA-256
    of its text, trimmed (frontend/scripts/render-diagrams.mjs names the files it draws so)."""
    return hashlib.sha256(text.strip().encode()).hexdigest()[:12]


def block_id(fields: dict[str, object]) -> str | None:
    value = fields.get("id")
    return str(value) if value is not None else None


@lru_cache(maxsize=1024)
def read_experiment(source: str) -> ExperimentRef:
    """One ```experiment block (trimmed) with its key and what it asks for: the run or sweep
    request the widget sends, or why it cannot (a block being edited). Parsed once for each
    text (the YAML and the request's validation are most of a board's or roster's time); the
    one object is shared, so callers only read it."""
    try:
        request = parse_block(source)
    except ValueError as problem:
        fields = {}
        with contextlib.suppress(ValueError):
            fields = block_fields(source)
        title = fields.get("title")
        return ExperimentRef(
            key=diagram_key(source),
            id=block_id(fields),
            source=source,
            title=str(title) if title is not None else None,
            kind="series" if "servers" in fields else "run",
            error=f"The experiment block is invalid: {problem}",
        )
    fields = yaml.safe_load(source)
    title = fields.get("title")
    series = isinstance(request, SweepRequest)
    return ExperimentRef(
        key=request_key(request),
        id=block_id(fields),
        source=source,
        title=str(title) if title is not None else None,
        kind="series" if series else "run",
        sweep=request if series else None,
        run=request if not series else None,
    )


def read_experiments(markdown: str) -> list[ExperimentRef]:
    """The lesson's ```experiment blocks in order, each with its key (a block that does not
    parse still gets one, and its `error`: the content checker reports it)."""
    return [
        read_experiment(match.group(2).strip())
        for match in FENCE.finditer(markdown)
        if match.group(1) == "experiment"
    ]


def find_experiment(
    content_dir: Path, slug: str, key: str | None
) -> tuple[ParsedLesson, ExperimentRef | None]:
    """The lesson (404) and, when a key is given, its experiment block with that key (404)."""
    lesson = next((x for x in load_lessons(content_dir) if x.slug == slug), None)
    if lesson is None:
        raise NotFound(NO_LESSON(slug=slug))
    if key is None:
        return lesson, None
    experiment = next((e for e in read_experiments(lesson.markdown) if e.key == key), None)
    if experiment is None:
        raise NotFound(NO_EXPERIMENT(slug=slug, key=key))
    return lesson, experiment


def validate_origin(lesson: str | None, experiment: str | None, settings: Settings) -> None:
    """A run's or sweep's `lesson` and `experiment` must name a lesson and one of its blocks
    (422)."""
    if experiment is not None and lesson is None:
        raise InvalidRequest(EXPERIMENT_WITHOUT_LESSON())
    if lesson is not None:
        try:
            find_experiment(settings.content_dir, lesson, experiment)
        except NotFound as missing:
            raise InvalidRequest(missing.said) from missing


def diagrams_dir(content_dir: Path, page: str) -> Path:
    """Where the drawn diagrams of one page live: a lesson's slug, or `glossary`."""
    return content_dir / "diagrams" / page


def read_diagrams(content_dir: Path, page: str, markdown: str) -> list[Diagram]:
    """The committed SVG of each ```mermaid block of the page that has one for its exact text.
    Only files inside content/diagrams are read: the name is built from a hash, and a link
    that leads elsewhere is ignored."""
    root = (content_dir / "diagrams").resolve()
    sources = [m.group(2).strip() for m in FENCE.finditer(markdown) if m.group(1) == "mermaid"]
    diagrams = []
    for source in dict.fromkeys(sources):
        path = (diagrams_dir(content_dir, page) / f"{diagram_key(source)}.svg").resolve()
        if path.is_relative_to(root) and path.is_file():
            diagrams.append(Diagram(source=source, svg=path.read_text()))
    return diagrams


def baselines_path(content_dir: Path, slug: str) -> Path:
    return content_dir / "baselines" / f"{slug}.json"


def read_baselines(content_dir: Path, slug: str) -> LessonBaselines | None:
    """The lesson's recorded reference results as committed, or None when it has no file."""
    path = baselines_path(content_dir, slug)
    if not path.is_file():
        return None
    return LessonBaselines.model_validate_json(path.read_text())


def _with_intervals(baseline: Baseline) -> Baseline:
    """A series recording whose points carry their hosts' noise and the interval it gives
    them, as a sweep measured now would (recordings made before points had them)."""
    table = baseline.result.table
    if table is None:
        return baseline
    points = [with_host_noise(p, baseline.host_noise) for p in table.points]
    result = baseline.result.model_copy(
        update={"table": table.model_copy(update={"points": points})}
    )
    return baseline.model_copy(update={"result": result})


def get_baselines(content_dir: Path, slug: str) -> LessonBaselines:
    """The lesson's recorded reference results; none yet is an empty list, not an error."""
    if not any(lesson.slug == slug for lesson in load_lessons(content_dir)):
        raise NotFound(NO_LESSON(slug=slug))
    recorded = read_baselines(content_dir, slug) or LessonBaselines(lesson=slug)
    return recorded.model_copy(
        update={"experiments": [_with_intervals(b) for b in recorded.experiments]}
    )


GLOSSARY_TERM = re.compile(r"^### (.+?)\s*$", re.MULTILINE)


def get_glossary(content_dir: Path, language: Language = "en") -> Glossary:
    """The glossary in `language`, or in English while it has no translation."""
    path = language_dir(content_dir, language) / "glossary.md"
    if not path.is_file():
        path, language = content_dir / "glossary.md", "en"
    if not path.is_file():
        raise NotFound(NO_GLOSSARY())
    match = FRONT_MATTER.match(path.read_text())
    if not match:
        raise LessonFormatError("glossary.md: starts without a '---' front matter block")
    try:
        meta = GlossaryFrontMatter.model_validate(yaml.safe_load(match.group(1)))
    except (yaml.YAMLError, ValidationError) as exc:
        raise LessonFormatError(f"glossary.md: bad front matter: {exc}") from exc
    markdown = match.group(2).lstrip("\n")
    terms = GLOSSARY_TERM.findall(markdown)
    diagrams = read_diagrams(content_dir, "glossary", markdown)
    return Glossary(
        **meta.model_dump(), language=language, markdown=markdown, terms=terms, diagrams=diagrams
    )
