"""A learner's history: their runs and sweeps, newest first, one entry per sweep (its runs
are not listed again on their own)."""

from typing import Any

from c10klab.config import Settings
from c10klab.lab.schemas import HistoryEdit, HistoryEntry, HistoryStatus
from c10klab.people.access import owner_seen
from c10klab.people.schemas import Ownership
from c10klab.people.store import PeopleStore, Person
from c10klab.runs.store import Mine, Run, RunStore
from c10klab.sweeps.schemas import VARIANT_ENTRY
from c10klab.sweeps.store import Sweep, SweepStore
from c10klab.variants.service import check_of, verdict_of
from c10klab.variants.store import Variant, VariantStore

# How far back a history reads: a learner's runs, a sweep's among them. A class of thirty on
# one host runs a few hundred in a term; a history longer than this shows its newest.
READ_RUNS = 5000
READ_SWEEPS = 1000
ENDED = {"done", "failed", "cancelled"}


def _parameters(request: dict[str, Any]) -> dict[str, Any]:
    return {
        k: v
        for k, v in request.items()
        if k not in {"knobs", "lesson", "experiment", "server", "servers"}
        and (v is None or isinstance(v, int | float | bool | str))
    }


def run_entry(run: Run) -> HistoryEntry:
    result = run.result or {}
    summary = result.get("summary") or {}
    figures = run.status == "done" and result.get("valid") is True
    return HistoryEntry(
        kind="run",
        id=run.id,
        created_at=run.created_at,
        servers=[run.server],
        status=run.status,
        lesson=run.request.lesson,
        experiment=run.request.experiment,
        # its settings, and the variant it ran if it ran one (a check run is not listed)
        request=_parameters(run.request.model_dump(exclude_none=True, exclude={"check_only"})),
        knobs=run.request.knobs,
        qps=summary.get("qps") if figures else None,
        p99_us=(summary.get("latency_us") or {}).get("p99") if figures else None,
        valid=result.get("valid") if run.status == "done" else None,
    )


def sweep_status(statuses: list[str]) -> HistoryStatus:
    """One status for a sweep's points (see HistoryEntry.status)."""
    if not statuses or all(s == "queued" for s in statuses):
        return "queued" if statuses else "cancelled"
    if any(s not in ENDED for s in statuses):
        return "running"
    for status in ("done", "failed"):
        if status in statuses:
            return status
    return "cancelled"


def sweep_entry(sweep: Sweep, statuses: dict[str, str], runs: RunStore) -> HistoryEntry:
    request = sweep.request
    base = request.get("base") or {}
    run_ids = [p["run_id"] for p in sweep.points if p["run_id"]]
    point_statuses = [statuses.get(i) or _status_of(runs, i) for i in run_ids]
    return HistoryEntry(
        kind="sweep",
        id=sweep.id,
        created_at=sweep.created_at,
        servers=list(request.get("servers") or []),
        status=sweep_status(point_statuses),
        lesson=request.get("lesson"),
        experiment=request.get("experiment"),
        request=_parameters(base),
        knobs=base.get("knobs") or {},
        server_knobs=request.get("server_knobs") or {},
        vary=request.get("vary"),
        values=list(request.get("values") or []),
        points=len(run_ids),
        points_ended=sum(1 for s in point_statuses if s in ENDED),
    )


def _status_of(runs: RunStore, run_id: str) -> str:
    """A point's status when its run is older than the runs read (or gone: cancelled)."""
    run = runs.get_run(run_id)
    return run.status if run else "cancelled"


def edited_entries(entry: HistoryEntry) -> list[tuple[str, str]]:
    """The (entry, variant id) of each edited server the entry ran: a sweep's `variant:<id>`
    servers, a run's `variant`."""
    if entry.kind == "sweep":
        return [
            (s, s.removeprefix(VARIANT_ENTRY)) for s in entry.servers if s.startswith(VARIANT_ENTRY)
        ]
    variant = entry.request.get("variant")
    return [(entry.servers[0], variant)] if isinstance(variant, str) and entry.servers else []


class EditNamer:
    """Names the edited servers of entries for the asker (`person`), reading each variant and
    whose it is once (a learner benchmarks one edit many times)."""

    def __init__(
        self,
        variants: VariantStore,
        runs: RunStore,
        settings: Settings,
        people: PeopleStore,
        person: Person,
    ) -> None:
        self.variants, self.runs, self.settings = variants, runs, settings
        self.people, self.person = people, person
        self.read: dict[str, Variant | None] = {}
        self.owners: dict[str, Ownership] = {}

    def variant(self, variant_id: str) -> Variant | None:
        if variant_id not in self.read:
            self.read[variant_id] = self.variants.get(variant_id)
        return self.read[variant_id]

    def owner(self, owner_id: str) -> Ownership:
        if owner_id not in self.owners:
            self.owners[owner_id] = owner_seen(self.people, self.person, owner_id)
        return self.owners[owner_id]

    def named(self, entry: HistoryEntry) -> HistoryEntry:
        """The entry with its edits, and if it is the run that checked an answer, the verdict."""
        edits: list[HistoryEdit] = []
        verdict = None
        for name, variant_id in edited_entries(entry):
            variant = self.variant(variant_id)
            if variant is None:
                continue  # an edit no longer kept: the entry still reads, by its id
            edits.append(
                HistoryEdit(
                    entry=name,
                    variant=variant.id,
                    server=variant.server,
                    saved_at=variant.created_at,
                    exercise=variant.exercise,
                    check=check_of(variant, self.runs),
                    owner=self.owner(variant.owner_id),
                )
            )
            if entry.kind == "run" and variant.check_run_id == entry.id:
                verdict = verdict_of(variant, self.runs, self.settings)
        if not edits:
            return entry
        return entry.model_copy(update={"edits": edits, "verdict": verdict})


def history(
    runs: RunStore,
    sweeps: SweepStore,
    mine: Mine,
    namer: EditNamer,
    server: str | None = None,
    lesson: str | None = None,
    limit: int = 100,
) -> list[HistoryEntry]:
    """The learner's newest `limit` runs and sweeps, filtered by server and lesson, each edited
    server in them named (`namer`)."""
    their_runs = runs.history(mine, READ_RUNS)
    their_sweeps = sweeps.history(mine, READ_SWEEPS)
    statuses = {run.id: run.status for run in their_runs}
    in_sweeps = {p["run_id"] for s in their_sweeps for p in s.points if p["run_id"]}
    # A variant's check run measures nothing: the variant is listed in its own history.
    measured = [r for r in their_runs if not r.request.check_only]
    entries = [run_entry(r) for r in measured if r.id not in in_sweeps]
    entries += [sweep_entry(s, statuses, runs) for s in their_sweeps]
    wanted = [
        e
        for e in entries
        if (server is None or server in e.servers) and (lesson is None or e.lesson == lesson)
    ]
    wanted.sort(key=lambda e: (e.created_at, e.kind == "sweep"), reverse=True)
    return [namer.named(e) for e in wanted[:limit]]
