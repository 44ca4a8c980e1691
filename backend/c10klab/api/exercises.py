"""Exercises: read by anyone (like lessons); answered by POST /api/variants with `exercise`."""

from fastapi import APIRouter

from c10klab.api.content import LangQuery
from c10klab.api.deps import SettingsDep
from c10klab.exercises import service
from c10klab.exercises.schemas import ExerciseOut, ExerciseSummary, SolutionOut
from c10klab.sandboxes.service import load_catalog

router = APIRouter(prefix="/exercises", tags=["exercises"])


@router.get("")
def list_exercises(settings: SettingsDep, lang: LangQuery = "en") -> list[ExerciseSummary]:
    return service.summaries(settings.content_dir, lang)


@router.get("/{slug}")
def get_exercise(slug: str, settings: SettingsDep, lang: LangQuery = "en") -> ExerciseOut:
    """The statement, the starter file, the hints, and how an answer is checked, in the
    reader's language where translated; the solution is a separate call, so that it is shown
    only when asked for."""
    exercise = service.find_exercise(settings.content_dir, slug)
    catalog = load_catalog(settings.sandboxes_dir)
    return service.exercise_out(
        slug, exercise, catalog, settings.sandboxes_dir, settings.content_dir, lang
    )


@router.get("/{slug}/solution")
def get_solution(slug: str, settings: SettingsDep) -> SolutionOut:
    exercise = service.find_exercise(settings.content_dir, slug)
    catalog = load_catalog(settings.sandboxes_dir)
    return SolutionOut(
        slug=slug, source=service.solution_of(exercise, catalog, settings.sandboxes_dir)
    )
