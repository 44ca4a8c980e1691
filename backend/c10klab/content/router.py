from fastapi import APIRouter

from c10klab.content.schemas import Lesson, LessonSummary
from c10klab.content.service import get_lesson, list_lessons
from c10klab.deps import SettingsDep

router = APIRouter(tags=["lessons"])


@router.get("/lessons")
def lessons(settings: SettingsDep) -> list[LessonSummary]:
    return list_lessons(settings.content_dir)


@router.get("/lessons/{slug}")
def lesson(slug: str, settings: SettingsDep) -> Lesson:
    return get_lesson(settings.content_dir, slug)
