"""The class board: for every experiment of the course, each student's latest result beside the
recorded reference, and the spread across the class.

One read of the class's runs and sweeps feeds the whole board (a sweep's points are looked up
in it, not read one by one), so a class of thirty with forty-point sweeps costs two queries.
"""

import statistics
from collections.abc import Iterable
from pathlib import Path

from c10klab.classroom.schemas import (
    Board,
    BoardExperiment,
    BoardPoint,
    BoardResult,
    BoardSpread,
    PersonBrief,
    PointSpread,
    Spread,
)
from c10klab.content.schemas import Baseline, ExperimentRef
from c10klab.content.service import load_lessons, read_baselines, read_experiments
from c10klab.languages import Language
from c10klab.people.store import PeopleStore
from c10klab.results.schemas import DoneEvent
from c10klab.runs.store import Run
from c10klab.sweeps.figures import single_verdict, with_host_noise
from c10klab.sweeps.schemas import Point
from c10klab.sweeps.service import point_of, run_figures
from c10klab.sweeps.store import Sweep, SweepStore


def counts(valid: bool | None, stable: bool | None) -> bool:
    """Whether a result counts in the class's spread: valid and not disturbed while measured
    (stable unknown, as for a recording made before it was judged, counts)."""
    return bool(valid) and stable is not False


def spread(values: Iterable[float | None]) -> Spread | None:
    known = [v for v in values if v is not None]
    if not known:
        return None
    return Spread(median=statistics.median(known), min=min(known), max=max(known), count=len(known))


def _run_result(
    name: str, person_id: str | None, run: Run, reference: Point | None = None
) -> BoardResult:
    """One run's figures, and, for a student's, its verdict against the reference's."""
    figures = run_figures(run)
    verdict = single_verdict(figures, reference, run.id, "reference") if reference else None
    return BoardResult(
        person_id=person_id,
        name=name,
        run_id=run.id if person_id else None,
        sweep_id=None,
        server=run.server,
        qps=figures.qps,
        p50_us=figures.p50_us,
        p99_us=figures.p99_us,
        valid=figures.valid,
        stable=figures.stable,
        finished_at=run.finished_at,
        points=None,
        verdict=verdict,
    )


def _series_result(
    name: str, person_id: str | None, sweep_id: str | None, points: list[Point], at: str | None
) -> BoardResult:
    return BoardResult(
        person_id=person_id,
        name=name,
        run_id=None,
        sweep_id=sweep_id,
        server=None,
        qps=None,
        p50_us=None,
        p99_us=None,
        valid=any(p.valid for p in points),
        stable=all(p.stable is not False for p in points if p.status == "done"),
        finished_at=at,
        points=[
            BoardPoint.model_validate(p, from_attributes=True) for p in points if p.status == "done"
        ],
    )


def _reference(baseline: Baseline | None) -> BoardResult | None:
    """The recorded result, in the students' shape."""
    if baseline is None:
        return None
    if baseline.kind == "series":
        table = baseline.result.table
        points = table.points if table else []
        return _series_result("reference", None, None, points, baseline.recorded_at)
    run = _reference_run(baseline)
    return _run_result("reference", None, run) if run else None


def _reference_run(baseline: Baseline) -> Run | None:
    """A single-run recording as the run it was (none without its `done` event or its
    request)."""
    events = baseline.result.events or []
    done = next((e.root for e in events if isinstance(e.root, DoneEvent)), None)
    if done is None:
        return None
    request = baseline.provenance.request
    if request is None:
        return None
    return Run(
        id="reference",
        server=request.server,
        status="done",
        request=request,
        result=done.data.model_dump(),
        error=None,
        cancel_requested=False,
        created_at=baseline.recorded_at,
        started_at=baseline.recorded_at,
        finished_at=baseline.recorded_at,
    )


def _latest_runs(runs: list[Run], key: tuple[str, str]) -> dict[str, Run]:
    """Each owner's latest finished run of one experiment."""
    latest: dict[str, Run] = {}
    for run in runs:  # oldest first: a later run replaces an earlier one
        if run.status == "done" and (run.request.lesson, run.request.experiment) == key:
            latest[run.owner_id] = run
    return latest


def _latest_sweeps(
    sweeps: list[Sweep], runs: dict[str, Run], key: tuple[str, str]
) -> dict[str, tuple[Sweep, list[Point]]]:
    latest: dict[str, tuple[Sweep, list[Point]]] = {}
    for sweep in sweeps:
        if (sweep.request.get("lesson"), sweep.request.get("experiment")) != key:
            continue
        points = [point_of(p, runs.get(p["run_id"]) if p["run_id"] else None) for p in sweep.points]
        if any(p.status == "done" for p in points):
            latest[sweep.owner_id] = (sweep, points)
    return latest


def _experiment(
    lesson: str,
    lesson_title: str,
    block: ExperimentRef,
    baseline: Baseline | None,
    names: dict[str, str],
    runs: list[Run],
    runs_by_id: dict[str, Run],
    sweeps: list[Sweep],
    students: list[PersonBrief],
) -> BoardExperiment:
    key = (lesson, block.key)
    results: list[BoardResult] = []
    spread_of = BoardSpread(qps=None, p99_us=None)
    vary = None
    if block.kind == "run":
        recorded = _reference_run(baseline) if baseline and baseline.kind == "run" else None
        # the recording scatters by its host's noise too (backfilled for old recordings)
        noise = baseline.host_noise if baseline else None
        against = with_host_noise(run_figures(recorded), noise) if recorded else None
        for owner, run in _latest_runs(runs, key).items():
            results.append(_run_result(names.get(owner, owner), owner, run, against))
        counted = [r for r in results if counts(r.valid, r.stable)]
        spread_of = BoardSpread(
            qps=spread(r.qps for r in counted),
            p99_us=spread(r.p99_us for r in counted),
            left_out=len(results) - len(counted),
        )
    else:
        by_point: dict[tuple[str, float], list[float | None]] = {}
        left_out = 0
        for owner, (sweep, points) in _latest_sweeps(sweeps, runs_by_id, key).items():
            vary = sweep.request.get("vary")
            at = max(
                (runs_by_id[p.run_id].finished_at or "" for p in points if p.run_id in runs_by_id),
                default=None,
            )
            results.append(_series_result(names.get(owner, owner), owner, sweep.id, points, at))
            for p in points:
                if p.status != "done":
                    continue
                if counts(p.valid, p.stable):
                    by_point.setdefault((p.server, p.value), []).append(p.qps)
                else:
                    left_out += 1
        spread_of = BoardSpread(
            qps=None,
            p99_us=None,
            points=[
                PointSpread(server=server, value=value, qps=qps)
                for (server, value), values in sorted(by_point.items())
                if (qps := spread(values)) is not None
            ],
            left_out=left_out,
        )
    reference = _reference(baseline)
    if vary is None and reference is not None and block.kind == "series" and baseline is not None:
        table = baseline.result.table
        vary = table.request.vary if table else None
    return BoardExperiment(
        lesson=lesson,
        lesson_title=lesson_title,
        experiment=block.key,
        title=block.title or f"{lesson_title}: experiment",
        kind=block.kind,
        vary=vary,
        reference=reference,
        results=sorted(results, key=lambda r: r.name.casefold()),
        spread=spread_of,
        not_run=[s for s in students if s.id not in {r.person_id for r in results}],
    )


def build_board(
    content_dir: Path,
    people: PeopleStore,
    series: SweepStore,
    class_id: str,
    language: Language = "en",
) -> Board:
    """The class's board, its lessons' and experiments' titles in `language`."""
    runs = series.runs.class_runs(class_id)
    sweeps = series.class_sweeps(class_id)
    owners: set[str] = {r.owner_id for r in runs} | {s.owner_id for s in sweeps}
    names = people.names_of(sorted(owners))
    runs_by_id = {r.id: r for r in runs}
    students = [PersonBrief(id=s.id, name=s.name) for s in people.students_of(class_id)]
    experiments = []
    for lesson in load_lessons(content_dir, language):
        recorded = read_baselines(content_dir, lesson.slug)
        baselines: dict[str, Baseline] = {
            b.key: b for b in (recorded.experiments if recorded else []) if b.key
        }
        for block in read_experiments(lesson.markdown):
            experiments.append(
                _experiment(
                    lesson.slug,
                    lesson.meta.title,
                    block,
                    baselines.get(block.key),
                    names,
                    runs,
                    runs_by_id,
                    sweeps,
                    students,
                )
            )
    return Board(experiments=experiments)
