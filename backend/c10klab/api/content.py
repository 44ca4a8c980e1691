from typing import Annotated

from fastapi import APIRouter, Query

from c10klab.api.deps import ClassroomDep, MaybePersonDep, SettingsDep
from c10klab.classroom.live import revealed_in
from c10klab.content.questions import for_class
from c10klab.content.schemas import Glossary, Language, Lesson, LessonBaselines, LessonSummary
from c10klab.content.service import get_baselines, get_glossary, get_lesson, list_lessons

router = APIRouter(tags=["lessons"])

# The reader's language: lessons and the glossary come in it where they are translated, in
# English where not yet (each says which: `language`). Anything else is a 422 naming both.
LangQuery = Annotated[Language, Query(description="en (the default) or zh")]


@router.get("/lessons")
def lessons(settings: SettingsDep, lang: LangQuery = "en") -> list[LessonSummary]:
    return list_lessons(settings.content_dir, lang)


# Unset fields left out: an experiment's request holds what its block says, not the defaults.
@router.get("/lessons/{slug}", response_model_exclude_unset=True)
def lesson(
    slug: str,
    settings: SettingsDep,
    person: MaybePersonDep,
    classroom: ClassroomDep,
    lang: LangQuery = "en",
) -> Lesson:
    """The lesson; its speaker notes only for an instructor (and in solo mode). Each
    experiment block comes parsed: its `run` or `sweep` request, or its `error`; each figure
    reference of the prose resolved against the lesson's recordings (`figures`). In classroom
    mode the answers of Check yourself are the instructor's to reveal: each is marked for the
    page to ask for the students' own (`<div class="class-question" data-question="N">`), and
    left out for anyone but an instructor until revealed to their class."""
    notes = person is not None and person.kind in ("solo", "instructor")
    found = get_lesson(settings.content_dir, slug, speaker_notes=notes, language=lang)
    if settings.mode != "classroom":
        return found
    shown: frozenset[int] | None = frozenset()
    if person is not None and person.kind == "instructor":
        shown = None
    elif person is not None and person.class_id is not None:
        shown = revealed_in(classroom, person.class_id, slug)
    return found.model_copy(update={"markdown": for_class(found.markdown, found.language, shown)})


@router.get("/lessons/{slug}/baselines")
def baselines(slug: str, settings: SettingsDep) -> LessonBaselines:
    return get_baselines(settings.content_dir, slug)


@router.get("/glossary")
def glossary(settings: SettingsDep, lang: LangQuery = "en") -> Glossary:
    return get_glossary(settings.content_dir, lang)
