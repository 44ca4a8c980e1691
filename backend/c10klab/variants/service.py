"""Variants: a learner's edited model file of a C server (or the shared module an exercise
names), built and checked by a run of its own before it may be benchmarked (runs with
`variant` set)."""

from c10klab.config import Settings
from c10klab.errors import Forbidden, InvalidRequest, NotFound, Phrase
from c10klab.exercises import service as exercises
from c10klab.exercises.schemas import ExerciseFile, Verdict
from c10klab.people.schemas import Ownership
from c10klab.people.store import Person
from c10klab.results.schemas import FailedData, RunResult
from c10klab.runs.schemas import RunCreated, RunRequest
from c10klab.runs.service import validate_request
from c10klab.runs.store import NOT_QUEUED, Admission, Run, RunStore
from c10klab.sandboxes.schemas import Catalog
from c10klab.variants.schemas import (
    MAX_SOURCE_BYTES,
    VariantCheck,
    VariantCreated,
    VariantOut,
    VariantRequest,
)
from c10klab.variants.store import Variant, VariantStore

UNKNOWN_EDITABLE = Phrase(
    "unknown-editable-server", "server: unknown server {server!r}; edit one of {editable}"
)
NOT_EDITABLE = Phrase(
    "server-not-editable", "server: only the C servers can be edited, not {server}"
)
SOURCE_TOO_BIG = Phrase(
    "edited-source-too-large", "source: {size:,} bytes; an edited file may be at most {limit:,}"
)
SOURCE_EMPTY = Phrase("edited-source-empty", "source: the file is empty")
SOURCE_NUL = Phrase("edited-source-nul", "source: a C file holds no NUL characters")
ANSWERS_NO_EXERCISE = Phrase("answers-no-exercise", "exercise: no exercise {exercise!r}")
EXERCISE_OTHER_SERVER = Phrase(
    "exercise-other-server", "exercise: {exercise} edits {edits}, not {server}"
)
NO_VARIANT = Phrase("no-variant", "no variant {variant_id!r}")
RUN_NO_VARIANT = Phrase("run-no-variant", "variant: no variant {variant_id!r}")
NOT_YOUR_VARIANT = Phrase(
    "not-your-variant", "variant: this variant is someone else's; open it and save your own copy"
)
VARIANT_OTHER_SERVER = Phrase(
    "variant-other-server", "variant: {variant_id} is a variant of {of}, not of {server}"
)


def validate_source(request: VariantRequest, catalog: Catalog) -> None:
    server = catalog.get(request.server)
    if server is None:
        editable = ", ".join(s.id for s in catalog.servers if s.language == "c")
        raise InvalidRequest(UNKNOWN_EDITABLE(server=request.server, editable=editable))
    if server.language != "c":
        raise InvalidRequest(NOT_EDITABLE(server=server.id))
    size = len(request.source.encode())
    if size > MAX_SOURCE_BYTES:
        raise InvalidRequest(SOURCE_TOO_BIG(size=size, limit=MAX_SOURCE_BYTES))
    if not request.source.strip():
        raise InvalidRequest(SOURCE_EMPTY())
    if "\0" in request.source:
        raise InvalidRequest(SOURCE_NUL())


def create_variant(
    request: VariantRequest,
    catalog: Catalog,
    settings: Settings,
    variants: VariantStore,
    admission: Admission,
) -> VariantCreated:
    """Store the variant and queue the run that builds and checks it (429 over the person's
    limits, and then nothing is stored). An exercise's answer is checked by the exercise's
    own run, measured, instead of the correctness check alone."""
    validate_source(request, catalog)
    exercise = answered_exercise(request, settings)
    check = checking_run(request, exercise)
    validate_request(check, catalog, settings)
    variant, queued = variants.create(
        request.server,
        request.source,
        request.exercise,
        check,
        admission,
        settings.max_builds_per_person,
        file=exercise.file if exercise else None,
    )
    place = queued or NOT_QUEUED
    return VariantCreated(
        id=variant.id,
        check=RunCreated(
            id=variant.check_run_id,
            status="queued",
            position=place.position,
            wait_s=place.wait_s,
            held=place.held,
        ),
    )


def answered_exercise(request: VariantRequest, settings: Settings) -> ExerciseFile | None:
    """The exercise the new variant answers, if it names one (422 if there is no such
    exercise, or it edits another server)."""
    if request.exercise is None:
        return None
    try:
        exercise = exercises.find_exercise(settings.content_dir, request.exercise)
    except NotFound as missing:  # find_exercise's one 404, said of the field
        raise InvalidRequest(ANSWERS_NO_EXERCISE(exercise=request.exercise)) from missing
    if exercise.server != request.server:
        raise InvalidRequest(
            EXERCISE_OTHER_SERVER(
                exercise=request.exercise, edits=exercise.server, server=request.server
            )
        )
    return exercise


def checking_run(request: VariantRequest, exercise: ExerciseFile | None) -> RunRequest:
    """The run that checks a new variant: the correctness check alone, or an exercise's run."""
    placeholder = "0" * 32  # the store puts the new variant's id in its place
    if exercise is None:
        return RunRequest(server=request.server, variant=placeholder, check_only=True)
    settings_of_run = exercise.run.model_dump(exclude_unset=True)
    return RunRequest(**settings_of_run, server=request.server, variant=placeholder)


def get_variant(variants: VariantStore, variant_id: str) -> Variant:
    variant = variants.get(variant_id)
    if variant is None:
        raise NotFound(NO_VARIANT(variant_id=variant_id))
    return variant


def verdict_of(variant: Variant, runs: RunStore, settings: Settings) -> Verdict | None:
    if variant.exercise is None:
        return None
    try:
        exercise = exercises.find_exercise(settings.content_dir, variant.exercise)
    except NotFound:
        return Verdict(
            status="failed", reasons=[f"the exercise {variant.exercise} is gone"], failed=["run"]
        )
    return judge_answer(exercise, variant, runs)


def judge_answer(exercise: ExerciseFile, variant: Variant, runs: RunStore) -> Verdict:
    """The verdict on `variant` as an answer to `exercise`, from its check run."""
    run = runs.get_run(variant.check_run_id)
    if run is None:
        return Verdict(status="failed", reasons=["its check run is gone"], failed=["run"])
    return exercises.judge(exercise, answer_run(run, runs))


def answer_run(run: Run, runs: RunStore) -> exercises.AnswerRun:
    """A check run as the judge reads it: its figures, or the data of its `failed` event."""
    if run.status == "done" and run.result is not None:
        return exercises.AnswerRun(run.status, result=RunResult.model_validate(run.result))
    failed = [e for e in runs.events_after(run.id) if e.type == "failed"]
    failure = FailedData.model_validate(failed[-1].data) if failed else None
    return exercises.AnswerRun(run.status, failure=failure, error=run.error)


def check_of(variant: Variant, runs: RunStore) -> VariantCheck:
    """How the variant's check run went: its status, and a failed one's reason by name (the
    judge's: build, check:<name> or run), so a failed compile reads apart from a failed check."""
    run = runs.get_run(variant.check_run_id)
    if run is None:
        return VariantCheck(status="cancelled", failed="run", reason="its check run is gone")
    if run.status != "failed":
        return VariantCheck(status=run.status)
    failure = answer_run(run, runs).failure
    reason = (failure.reason if failure else None) or run.error
    return VariantCheck(status="failed", failed=exercises.failure_name(failure), reason=reason)


def variant_out(
    variant: Variant, owner: Ownership, catalog: Catalog, runs: RunStore, settings: Settings
) -> VariantOut:
    """The variant as the asker reads it, `owner` saying whose it is to them."""
    server = catalog.get(variant.server)
    return VariantOut(
        id=variant.id,
        server=variant.server,
        file=variant.file or (server.source if server else ""),
        source=variant.source,
        source_sha256=variant.source_sha256,
        created_at=variant.created_at,
        owner_id=variant.owner_id,
        owner=owner,
        check_run_id=variant.check_run_id,
        exercise=variant.exercise,
        verdict=verdict_of(variant, runs, settings),
        check=check_of(variant, runs),
    )


def require_own_variant(
    variants: VariantStore, person: Person, variant_id: str, server: str | None
) -> Variant:
    """A run may use a variant only of its own server (`server`; None: any), and only its
    owner's: 422 for a variant that does not exist or edits another server, 403 for someone
    else's."""
    variant = variants.get(variant_id)
    if variant is None:
        raise InvalidRequest(RUN_NO_VARIANT(variant_id=variant_id))
    if variant.owner_id != person.id:
        raise Forbidden(NOT_YOUR_VARIANT())
    if server is not None and variant.server != server:
        raise InvalidRequest(
            VARIANT_OTHER_SERVER(variant_id=variant_id, of=variant.server, server=server)
        )
    return variant
