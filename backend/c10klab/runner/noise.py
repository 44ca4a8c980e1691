"""This runner host's own noise: how far identical runs scatter here
(c10klab.uncertainty.HostNoise). Measured once when the runner starts (A/A runs of its own,
`calibration_request`), then kept current from the runs it finishes.

Identical runs are separate single runs with the same request: a lesson's run started by many
learners, a series' rounds, the runner's own A/A runs. The repetitions of one run do not count:
the noise is how far a separate run lands from another, which separate runs measure directly,
and repetitions scatter differently (results/noise.md, "Back to back against separate"). Only
undisturbed figures count (valid, and not flagged unstable): a disturbance with a known cause is
not the host's noise.
"""

import json
from collections import defaultdict
from collections.abc import Sequence

from c10klab.results.schemas import RunResult
from c10klab.runs.schemas import RunRequest
from c10klab.runs.store import Finished
from c10klab.uncertainty import HostNoise, pooled_sigma

# Where a request came from, and how often it is repeated back to back: none of it changes
# what one run of it measures.
NOT_THE_RUN = {"lesson", "experiment", "repetitions"}
# The runs the estimate reads, newest first: enough to be steady, recent enough to follow
# the host as it changes.
RECENT_RUNS = 200


def _undisturbed(outcome: RunResult) -> float | None:
    """An outcome's QPS when it may count as the host's noise, else None."""
    if not outcome.valid or outcome.stable is False:
        return None
    if outcome.client is not None and outcome.client.bound:
        return None
    return outcome.summary.qps or None


def identical_sets(recent: Sequence[Finished]) -> list[list[float]]:
    """The QPS of sets of identical runs among these."""
    singles: dict[str, list[float]] = defaultdict(list)
    for request, result, _ in recent:
        if len(result.repetitions) > 1:
            continue  # back to back: not how far a separate run lands
        qps = _undisturbed(result)
        if qps is not None:
            the_run = request.model_dump(mode="json", exclude=NOT_THE_RUN)
            singles[json.dumps(the_run, sort_keys=True)].append(qps)
    return list(singles.values())


def host_noise(recent: Sequence[Finished]) -> HostNoise | None:
    """The pooled run-to-run spread of these runs (newest first), as of the newest; None
    without two identical ones."""
    pooled = pooled_sigma(identical_sets(recent))
    if pooled is None:
        return None
    sigma, runs, groups = pooled
    return HostNoise(
        sigma=round(sigma, 5),
        runs=runs,
        groups=groups,
        measured_at=recent[0].finished_at,
    )


def calibration_request(server: str) -> RunRequest:
    """The A/A run a runner measures itself with, several times over: a lesson's settings
    (100 connections, 5 s after 1 s of warm-up), lesson 1's run."""
    return RunRequest(server=server, protocol="echo", connections=100, duration_s=5, warmup_s=1)
