"""The history's compare: each picked run against the first, as a verdict with its interval
rather than a bare ratio of two noisy figures (docs/ARCHITECTURE.md, "Uncertainty")."""

from c10klab.people.access import require_viewer
from c10klab.people.store import PeopleStore, Person
from c10klab.runs.service import get_run
from c10klab.runs.store import RunStore
from c10klab.sweeps.figures import single_verdict
from c10klab.sweeps.service import run_figures
from c10klab.uncertainty import Comparison

# Runs one comparison may name: more than a history's compare view can show side by side.
MOST_COMPARED = 40


def compare_runs(
    store: RunStore, people: PeopleStore, person: Person, run_ids: list[str]
) -> list[Comparison]:
    """Every run after the first against the first, QPS, each measured once: the verdict the
    two hosts' run-to-run spread allows. A run without figures to compare (failed, invalid,
    disturbed) has none, nor has one profiled otherwise than the first: profiling costs a
    server speed (results/profile.md, results/counting.md), so a profiled run's QPS is
    compared only with runs profiled the same way. Every run must exist (404) and be the
    asker's to see (403)."""
    runs = [get_run(store, run_id) for run_id in run_ids]
    for run in runs:
        require_viewer(people, person, run.owner_id, run.class_id, "run")
    reference, *others = runs
    against = run_figures(reference)
    verdicts = (
        single_verdict(run_figures(run), against, run.id, reference.id)
        for run in others
        if run.request.profile == reference.request.profile
    )
    return [v for v in verdicts if v is not None]
