"""A class's runs as CSV, one row per run: what the instructor takes away when the class ends,
and what each student takes of their own."""

import csv
import io
import json
from pathlib import Path

from c10klab.classroom.service import course_titles, sweep_of_runs, with_teachers
from c10klab.people.store import PeopleStore
from c10klab.sweeps.service import run_figures
from c10klab.sweeps.store import SweepStore

COLUMNS = [
    "run_id", "student", "lesson", "experiment", "title", "sweep_id", "server", "protocol",
    "connections", "idle_connections", "payload_bytes", "rate", "duration_s", "warmup_s",
    "repetitions", "profile", "knobs", "status", "created_at", "started_at", "finished_at",
    "qps", "p50_us", "p90_us", "p99_us", "max_us", "error_total", "valid", "stable",
    "cpu_percent_mean", "memory_peak_bytes", "error",
]  # fmt: skip
REQUEST_COLUMNS = [
    "server", "protocol", "connections", "idle_connections", "payload_bytes", "rate",
    "duration_s", "warmup_s", "repetitions", "profile",
]  # fmt: skip


def spreadsheet_safe(value: object) -> object:
    """Text a spreadsheet will not run: a leading = + - @ would make a formula of a name."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def class_csv(
    content_dir: Path,
    people: PeopleStore,
    sweeps: SweepStore,
    class_id: str,
    owner_id: str | None = None,
) -> str:
    """The class's runs, its teachers' own made while it ran too; or only those of `owner_id`
    (a student's own export)."""
    of = with_teachers(people, class_id) if owner_id is None else class_id
    runs = [
        r
        for r in sweeps.runs.class_runs(of)
        if not r.request.check_only and owner_id in (None, r.owner_id)
    ]
    names = people.names_of(sorted({r.owner_id for r in runs}))
    sweep_ids = sweep_of_runs(sweeps, class_id)
    course = course_titles(content_dir)
    titles, lessons = course.experiments, course.lessons
    out = io.StringIO()
    writer = csv.DictWriter(out, COLUMNS, lineterminator="\n")
    writer.writeheader()
    for run in runs:
        request = run.request
        lesson, experiment = request.lesson, request.experiment
        result = run.result or {}
        latency = (result.get("summary") or {}).get("latency_us") or {}
        figures = run_figures(run)
        row: dict[str, object] = {key: getattr(request, key) for key in REQUEST_COLUMNS}
        row |= {
            "run_id": run.id,
            "student": names.get(run.owner_id, run.owner_id),
            "lesson": lesson or "",
            "experiment": experiment or "",
            "title": titles.get((lesson or "", experiment or ""), "")
            or lessons.get(lesson or "", ""),
            "sweep_id": sweep_ids.get(run.id, ""),
            "knobs": json.dumps(request.knobs, sort_keys=True),
            "status": run.status,
            "created_at": run.created_at,
            "started_at": run.started_at or "",
            "finished_at": run.finished_at or "",
            "qps": figures.qps,
            "p50_us": figures.p50_us,
            "p90_us": latency.get("p90"),
            "p99_us": figures.p99_us,
            "max_us": latency.get("max"),
            "error_total": figures.errors,
            "valid": figures.valid,
            "stable": figures.stable,
            "cpu_percent_mean": figures.cpu_percent,
            "memory_peak_bytes": (result.get("server") or {}).get("memory_peak_bytes"),
            "error": run.error or "",
        }
        writer.writerow({key: spreadsheet_safe(value) for key, value in row.items()})
    return out.getvalue()
