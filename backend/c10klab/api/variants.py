"""The variants domain: learners' edited servers. Making one queues the run that builds and
checks it, under the person's limits on runs; a variant opens for whoever may see its
check run (its owner, their classmates and instructor), so it can be shared by link; an
answer to an exercise opens only for its author and their instructor."""

from typing import Annotated

from fastapi import APIRouter, Query

from c10klab.api.deps import PeopleDep, PersonDep, SettingsDep, StoreDep, VariantsDep
from c10klab.http_guards import BODY_LIMIT_KEY
from c10klab.people.access import (
    admission_for,
    owner_seen,
    require_answer_reader,
    require_viewer,
)
from c10klab.runs.store import Mine
from c10klab.sandboxes.service import load_catalog
from c10klab.variants import service
from c10klab.variants.schemas import (
    MAX_SOURCE_BODY_BYTES,
    VariantCreated,
    VariantOut,
    VariantRequest,
)

router = APIRouter(prefix="/variants", tags=["variants"])


@router.post("", status_code=202, openapi_extra={BODY_LIMIT_KEY: MAX_SOURCE_BODY_BYTES})
def create_variant(
    request: VariantRequest, person: PersonDep, settings: SettingsDep, variants: VariantsDep
) -> VariantCreated:
    """Keep an edited model file and queue the run that compiles it in the build sandbox and
    checks that it answers correctly (follow `check.id`'s events: `build`, `check`, then
    `checked` or `failed` with the compiler's diagnostics or the failed check)."""
    catalog = load_catalog(settings.sandboxes_dir)
    return service.create_variant(
        request, catalog, settings, variants, admission_for(person, settings)
    )


@router.get("")
def list_variants(
    person: PersonDep,
    people: PeopleDep,
    settings: SettingsDep,
    variants: VariantsDep,
    runs: StoreDep,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> list[VariantOut]:
    """The asker's own variants, newest first (in solo mode, this browser's)."""
    catalog = load_catalog(settings.sandboxes_dir)
    mine = Mine(owner_id=person.id, browser=person.browser)
    return [
        service.variant_out(v, owner_seen(people, person, v.owner_id), catalog, runs, settings)
        for v in variants.history(mine, limit)
    ]


@router.get("/{variant_id}")
def get_variant(
    variant_id: str,
    person: PersonDep,
    people: PeopleDep,
    settings: SettingsDep,
    variants: VariantsDep,
    runs: StoreDep,
) -> VariantOut:
    """A saved edit, for whoever may see it; `owner` says whose it is to the asker (a
    classmate's by name, their instructor's), as a link shared in the class opens it."""
    variant = service.get_variant(variants, variant_id)
    if variant.exercise is None:
        require_viewer(people, person, variant.owner_id, variant.class_id, "variant")
    else:
        require_answer_reader(people, person, variant.owner_id, variant.class_id)
    owner = owner_seen(people, person, variant.owner_id)
    catalog = load_catalog(settings.sandboxes_dir)
    return service.variant_out(variant, owner, catalog, runs, settings)
