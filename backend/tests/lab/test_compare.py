"""GET /api/history/compare: each picked run against the first, as a verdict with the interval
the runners' run-to-run spread allows, never a bare ratio; only runs the asker may see."""

from typing import Any

from fastapi.testclient import TestClient

from c10klab.lab.compare import MOST_COMPARED
from c10klab.runs.store import RunStore
from tests.lab.test_history import queue_run
from tests.people.conftest import Browser, join, log_in, make_class
from tests.results.figures import a_result, done
from tests.runs.leases import claim

NOISE = {"sigma": 0.04, "runs": 10, "groups": 2, "measured_at": "2026-11-28T10:00:00+00:00"}


def result(qps: float, noise: dict[str, Any] | None = NOISE, **more: Any) -> dict[str, Any]:
    return a_result(qps, p99_us=250.0, **({"stable": True, "host_noise": noise} | more))


def finished(client: TestClient, store: RunStore, outcome: dict[str, Any], **fields: Any) -> str:
    run_id = queue_run(client, **fields)
    lease = claim(store)
    assert lease.run_id == run_id
    store.finish(lease, "done", done(outcome))
    return run_id


def compare(client: TestClient, *run_ids: str) -> list[dict[str, Any]]:
    answer = client.get("/api/history/compare", params={"run": list(run_ids)})
    assert answer.status_code == 200, answer.text
    verdicts: list[dict[str, Any]] = answer.json()
    return verdicts


def test_each_run_is_called_against_the_first_within_the_hosts_noise(
    solo_browsers: Browser, store: RunStore
) -> None:
    ada = solo_browsers()
    reference = finished(ada, store, result(100_000.0))
    close = finished(ada, store, result(104_000.0))  # inside ±1.96·0.04·√2 ≈ ±11 %
    far = finished(ada, store, result(70_000.0))
    unknown = finished(ada, store, result(150_000.0, noise=None))
    invalid = finished(ada, store, result(90_000.0, valid=False))
    disturbed = finished(ada, store, result(90_000.0, stable=False))

    verdicts = {v["subject"]: v for v in compare(ada, reference, close, far, unknown, invalid)}
    assert set(verdicts) == {close, far, unknown}  # no figures to compare: no verdict
    assert all(v["reference"] == reference and v["metric"] == "qps" for v in verdicts.values())
    assert verdicts[close]["call"] == "no_difference"
    assert verdicts[close]["change"]["low"] < 0 < verdicts[close]["change"]["high"]
    assert verdicts[far]["call"] == "lower"
    assert verdicts[far]["change"]["method"] == "host_noise"
    # the reference's runner knew its noise: it stands for the other's
    assert verdicts[unknown]["call"] == "higher"
    assert compare(ada, disturbed, reference) == []

    blind = finished(ada, store, result(100_000.0, noise=None))
    [none_known] = compare(ada, blind, unknown)
    assert none_known["call"] == "too_few" and none_known["change"] is None


def test_a_run_profiled_otherwise_than_the_reference_gets_no_verdict(
    solo_browsers: Browser, store: RunStore
) -> None:
    """Profiling costs a server speed (results/profile.md): its QPS is no one else's."""
    ada = solo_browsers()
    reference = finished(ada, store, result(100_000.0))
    profiled = finished(ada, store, result(60_000.0), profile="cpu")
    also_profiled = finished(ada, store, result(61_000.0), profile="cpu")
    assert compare(ada, reference, profiled) == []
    [alike] = compare(ada, profiled, also_profiled)
    assert alike["subject"] == also_profiled and alike["call"] == "no_difference"


def test_a_comparison_needs_two_to_forty_runs_that_exist(
    solo_browsers: Browser, store: RunStore
) -> None:
    ada = solo_browsers()
    run = finished(ada, store, result(100_000.0))
    for runs in ([run], [run] * (MOST_COMPARED + 1)):
        answer = ada.get("/api/history/compare", params={"run": runs})
        assert answer.status_code == 422 and answer.json()["detail"]
    missing = ada.get("/api/history/compare", params={"run": [run, "no-such-run"]})
    assert missing.status_code == 404 and "no-such-run" in missing.json()["detail"]


def test_no_one_compares_runs_they_may_not_see(browser: Browser, store: RunStore) -> None:
    grace, linus = log_in(browser(), "Grace"), log_in(browser(), "Linus")
    ada = join(browser(), make_class(grace), "Ada")
    bob = join(browser(), make_class(linus), "Bob")
    hers = finished(ada, store, result(100_000.0))
    his = finished(bob, store, result(90_000.0))
    answer = ada.get("/api/history/compare", params={"run": [hers, his]})
    assert answer.status_code == 403 and answer.json()["detail"]
    assert grace.get("/api/history/compare", params={"run": [hers, his]}).status_code == 403
    assert len(compare(grace, hers, hers)) == 1  # her own student's run: hers to see
    assert browser().get("/api/history/compare", params={"run": [hers, his]}).status_code == 401
