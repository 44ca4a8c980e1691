"""The lab's endpoints: the form's fields, and the asker's own history."""

from typing import Annotated

from fastapi import APIRouter, Query

from c10klab.api.deps import (
    PeopleDep,
    PersonDep,
    SettingsDep,
    StoreDep,
    SweepsDep,
    VariantsDep,
)
from c10klab.lab.compare import MOST_COMPARED, compare_runs
from c10klab.lab.fields import lab_fields
from c10klab.lab.history import EditNamer, history
from c10klab.lab.schemas import HistoryEntry, LabFields
from c10klab.runs.schemas import LessonSlug
from c10klab.runs.store import Mine
from c10klab.uncertainty import Comparison

router = APIRouter(tags=["lab"])


@router.get("/lab/fields")
def get_lab_fields(settings: SettingsDep) -> LabFields:
    """Every field a run may set, labelled, with this host's limits."""
    return lab_fields(settings)


@router.get("/history")
def get_history(
    person: PersonDep,
    people: PeopleDep,
    store: StoreDep,
    sweeps: SweepsDep,
    variants: VariantsDep,
    settings: SettingsDep,
    server: Annotated[
        str | None, Query(max_length=64, description="only entries that ran this server")
    ] = None,
    lesson: Annotated[LessonSlug | None, Query(description="only those run from it")] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> list[HistoryEntry]:
    """The asker's own runs and sweeps, newest first: a person's in a class; in solo mode,
    this browser's (a cookie tells browsers apart)."""
    mine = Mine(owner_id=person.id, browser=person.browser)
    namer = EditNamer(variants, store, settings, people, person)
    return history(store, sweeps, mine, namer, server, lesson, limit)


@router.get("/history/compare")
def compare_history(
    person: PersonDep,
    store: StoreDep,
    people: PeopleDep,
    run: Annotated[
        list[str],
        Query(
            min_length=2,
            max_length=MOST_COMPARED,
            description="run ids, the reference first (a sweep's point by its run_id)",
        ),
    ],
) -> list[Comparison]:
    """Each run after the first against the first: the change in QPS with the interval its
    runners' run-to-run spread allows, called higher, lower or no difference this host can
    detect; `too_few` while neither runner knows its noise. Runs without figures to compare
    (failed, invalid, disturbed) are left out."""
    return compare_runs(store, people, person, run)
