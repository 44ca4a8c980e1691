"""A runner host's noise, from the runs it finished (real SQLite or PostgreSQL store)."""

import math
from typing import Any

import pytest

from c10klab.results.schemas import RunResult
from c10klab.runner.noise import calibration_request, host_noise, identical_sets
from c10klab.runs.schemas import RunRequest
from c10klab.runs.store import RUNNER_OWNER, Finished, RunStore, Scope
from tests.results.figures import a_result, checked, done

LESSON_RUN = {"server": "c-epoll", "connections": 100, "duration_s": 5, "warmup_s": 1}
WHEN = "2026-11-28T10:00:00+00:00"


def ended(request: dict[str, Any], result: dict[str, Any], when: str = WHEN) -> Finished:
    return Finished(RunRequest.model_validate(request), RunResult.model_validate(result), when)


def repeated(*qps: float, **more: Any) -> dict[str, Any]:
    """A result of several repetitions, one per figure."""
    repetitions = [a_result(q) | {"repetition": n} for n, q in enumerate(qps, 1)]
    return a_result(sorted(qps)[len(qps) // 2], repetitions=repetitions) | more


def test_identical_single_runs_are_a_set_and_a_runs_back_to_back_repetitions_are_not() -> None:
    recent = [
        ended(LESSON_RUN | {"repetitions": 3}, repeated(100.0, 104.0, 98.0)),
        ended(LESSON_RUN | {"lesson": "01-c10k-problem"}, a_result(200.0)),
        ended(LESSON_RUN, a_result(210.0)),  # the lab's run of the same: the same run
        ended(LESSON_RUN | {"connections": 200}, a_result(300.0)),  # alone: no set
    ]
    assert sorted(map(sorted, identical_sets(recent))) == [[200.0, 210.0], [300.0]]


def test_disturbed_invalid_and_client_bound_figures_are_not_the_hosts_noise() -> None:
    bound = {"client": {"cpu": 1.0, "bound": True, "reason": "the client"}}
    recent = [
        ended(LESSON_RUN, a_result(100.0)),
        ended(LESSON_RUN, a_result(50.0, stable=False)),
        ended(LESSON_RUN, a_result(60.0, valid=False)),
        ended(LESSON_RUN, a_result(70.0) | bound),
        ended(LESSON_RUN, a_result(102.0)),
    ]
    assert identical_sets(recent) == [[100.0, 102.0]]


def test_host_noise_is_the_pooled_spread_and_none_without_two_identical_runs() -> None:
    newest, older = "2026-11-28T10:05:00+00:00", "2026-11-28T09:00:00+00:00"
    noise = host_noise(
        [
            ended(LESSON_RUN, a_result(110.0), newest),
            ended(LESSON_RUN | {"connections": 7}, repeated(10.0, 20.0), older),
            ended(LESSON_RUN, a_result(100.0), older),
        ]
    )
    assert noise is not None and (noise.runs, noise.groups) == (2, 1)
    assert noise.measured_at == newest
    assert noise.sigma == pytest.approx(abs(math.log(110 / 100)) / math.sqrt(2), abs=1e-5)
    assert host_noise([ended(LESSON_RUN, a_result(500.0))]) is None
    assert host_noise([ended(LESSON_RUN, repeated(100.0, 110.0))]) is None


def test_a_runners_own_run_is_held_by_it_and_in_no_ones_list(store: RunStore) -> None:
    request = calibration_request("c-epoll")
    own = store.begin_own_run("lab-1", request, lease_s=15)
    assert (own.status, own.owner_id, own.request.server) == ("running", RUNNER_OWNER, "c-epoll")
    assert store.claim_next("lab-2") is None  # never queued: no other runner takes it
    assert own.id not in [r.id for r in store.list_runs(Scope(owner_id="solo"))]
    # the solo learner sees everyone's runs, but not the machine's own
    assert own.id not in [r.id for r in store.list_runs(Scope(everyone=True, people_only=True))]
    assert own.id in [r.id for r in store.list_runs(Scope(everyone=True))]

    assert own.lease is not None and own.lease.runner_id == "lab-1"
    store.finish(own.lease, "done", done(repeated(100.0, 104.0, 98.0)))
    [finished] = store.recent_results("lab-1", 10, since_unix=0)
    assert finished.request == request
    assert finished.result == RunResult.model_validate(repeated(100.0, 104.0, 98.0))
    assert finished.finished_at == store.get_run(own.id).finished_at  # type: ignore[union-attr]
    assert store.recent_results("lab-2", 10, since_unix=0) == []
    assert store.recent_results("lab-1", 10, since_unix=4e9) == []  # none that recent


def test_a_variants_check_run_has_no_figures_and_is_not_the_hosts_noise(store: RunStore) -> None:
    check = RunRequest(server="c-epoll", variant="0" * 32, check_only=True)
    own = store.begin_own_run("lab-1", check, lease_s=15)
    assert own.lease is not None
    passed = {"build": {"status": "cached"}, "checks": []}
    store.finish(own.lease, "done", checked(passed))
    assert store.recent_results("lab-1", 10, since_unix=0) == []
