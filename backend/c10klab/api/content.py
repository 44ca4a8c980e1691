from typing import Annotated

from fastapi import APIRouter, Query

from c10klab.api.deps import MaybePersonDep, SettingsDep
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
    slug: str, settings: SettingsDep, person: MaybePersonDep, lang: LangQuery = "en"
) -> Lesson:
    """The lesson; its speaker notes only for an instructor (and in solo mode). Each
    experiment block comes parsed: its `run` or `sweep` request, or its `error`; each figure
    reference of the prose resolved against the lesson's recordings (`figures`)."""
    notes = person is not None and person.kind in ("solo", "instructor")
    return get_lesson(settings.content_dir, slug, speaker_notes=notes, language=lang)


@router.get("/lessons/{slug}/baselines")
def baselines(slug: str, settings: SettingsDep) -> LessonBaselines:
    return get_baselines(settings.content_dir, slug)


@router.get("/glossary")
def glossary(settings: SettingsDep, lang: LangQuery = "en") -> Glossary:
    return get_glossary(settings.content_dir, lang)
