from fastapi import APIRouter

from c10klab.content.schemas import Glossary, Lesson, LessonBaselines, LessonSummary
from c10klab.content.service import get_baselines, get_glossary, get_lesson, list_lessons
from c10klab.deps import MaybePersonDep, SettingsDep

router = APIRouter(tags=["lessons"])


@router.get("/lessons")
def lessons(settings: SettingsDep) -> list[LessonSummary]:
    return list_lessons(settings.content_dir)


# Unset fields left out: an experiment's request holds what its block says, not the defaults.
@router.get("/lessons/{slug}", response_model_exclude_unset=True)
def lesson(slug: str, settings: SettingsDep, person: MaybePersonDep) -> Lesson:
    """The lesson; its speaker notes only for an instructor (and in solo mode). Each
    experiment block comes parsed: its `run` or `sweep` request, or its `error`."""
    notes = person is not None and person.kind in ("solo", "instructor")
    return get_lesson(settings.content_dir, slug, speaker_notes=notes)


@router.get("/lessons/{slug}/baselines")
def baselines(slug: str, settings: SettingsDep) -> LessonBaselines:
    return get_baselines(settings.content_dir, slug)


@router.get("/glossary")
def glossary(settings: SettingsDep) -> Glossary:
    return get_glossary(settings.content_dir)
