"""Sweeps through the real API on a real SQLite store; runs are finished by hand in the store
(the runner's part is tested with real containers in tests/runner and by make bench-findings)."""

import json
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from c10klab.hosts.store import DockerState, RunnerHost, RunnerStore
from c10klab.runs.service import parse_sse
from c10klab.runs.store import RunStore
from c10klab.sweeps.figures import memory_per_connection, point_from_result, with_host_noise
from c10klab.sweeps.schemas import Point
from c10klab.uncertainty import HostNoise
from tests.raw_json import refused
from tests.results.figures import a_result, done
from tests.runs.leases import hold


def finish(store: RunStore, run_id: str, qps: float, rss: int, valid: bool = True) -> None:
    result = a_result(qps, valid=valid, rss_bytes=rss)
    store.finish(hold(store, run_id), "done", done(result))


def sweep_body(**overrides: Any) -> dict[str, Any]:
    body = {
        "servers": ["c-select", "c-epoll"],
        "vary": "connections",
        "values": [10, 2000],
        "base": {"duration_s": 2, "warmup_s": 0},
    }
    return body | overrides


def test_a_sweep_queues_one_run_per_point_and_skips_what_a_server_cannot_take(
    client: TestClient, store: RunStore
) -> None:
    created = client.post("/api/sweeps", json=sweep_body())
    assert created.status_code == 202, created.text
    assert created.json()["points"] == 4 and created.json()["skipped"] == 1
    table = client.get(f"/api/sweeps/{created.json()['id']}").json()
    assert [(p["server"], p["value"], p["status"]) for p in table["points"]] == [
        ("c-select", 10, "queued"),
        ("c-epoll", 10, "queued"),
        ("c-select", 2000, "skipped"),
        ("c-epoll", 2000, "queued"),
    ]
    assert "at most 1018 connections" in table["points"][2]["reason"]
    assert not table["finished"]
    # The runs wait in the queue in the sweep's order, with the request the sweep built.
    queued = [p["run_id"] for p in table["points"] if p["run_id"]]
    assert [store.claim_next().id for _ in queued] == queued  # type: ignore[union-attr]
    run = client.get(f"/api/runs/{queued[2]}").json()
    assert run["request"]["connections"] == 2000 and run["request"]["duration_s"] == 2


def test_each_server_may_have_knobs_of_its_own(client: TestClient) -> None:
    body = {
        "servers": ["c-epoll", "c-threaded"],
        "vary": "connections",
        "values": [10],
        "base": {"duration_s": 1, "knobs": {"buffer_bytes": 4096}},
        "server_knobs": {"c-threaded": {"stack_kib": 256, "buffer_bytes": 8192}},
    }
    created = client.post("/api/sweeps", json=body)
    assert created.status_code == 202, created.text
    table = client.get(f"/api/sweeps/{created.json()['id']}").json()
    knobs = {
        p["server"]: client.get(f"/api/runs/{p['run_id']}").json()["request"]["knobs"]
        for p in table["points"]
    }
    assert knobs == {
        "c-epoll": {"buffer_bytes": 4096},
        "c-threaded": {"buffer_bytes": 8192, "stack_kib": 256},
    }
    assert table["request"]["server_knobs"] == body["server_knobs"]


def test_a_total_holds_active_plus_idle_connections_at_every_point(client: TestClient) -> None:
    body = sweep_body(servers=["c-epoll"], values=[10, 400, 2000], total_connections=2000)
    created = client.post("/api/sweeps", json=body)
    assert created.status_code == 202, created.text
    table = client.get(f"/api/sweeps/{created.json()['id']}").json()
    requests = [client.get(f"/api/runs/{p['run_id']}").json()["request"] for p in table["points"]]
    assert [(r["connections"], r["idle_connections"]) for r in requests] == [
        (10, 1990),
        (400, 1600),
        (2000, 0),
    ]


def test_knobs_for_a_server_not_in_the_sweep_are_refused(client: TestClient) -> None:
    body = {"servers": ["c-epoll"], "vary": "connections", "values": [10]}
    refused = client.post("/api/sweeps", json={**body, "server_knobs": {"c-poll": {"x": 1}}})
    assert refused.status_code == 422
    assert "c-poll not among `servers`" in refused.text
    # A knob its server lacks skips that server's points, saying why, like any refused run.
    wrong = client.post(
        "/api/sweeps",
        json={**body, "servers": ["c-epoll", "c-poll"], "server_knobs": {"c-poll": {"x": 1}}},
    )
    assert wrong.status_code == 202, wrong.text
    points = client.get(f"/api/sweeps/{wrong.json()['id']}").json()["points"]
    assert [p["status"] for p in points] == ["queued", "skipped"]
    assert "has no such knob" in points[1]["reason"]


def test_points_stream_in_order_as_their_runs_finish_then_the_whole_table(
    client: TestClient, store: RunStore
) -> None:
    sweep_id = client.post("/api/sweeps", json=sweep_body(servers=["c-epoll"], values=[100, 1100]))
    points = client.get(f"/api/sweeps/{sweep_id.json()['id']}").json()["points"]
    finish(store, points[0]["run_id"], 120_000.0, 2_000_000)
    finish(store, points[1]["run_id"], 90_000.0, 4_000_000)
    frames = parse_sse(client.get(f"/api/sweeps/{sweep_id.json()['id']}/events").text)
    assert [(f["id"], f["event"]) for f in frames] == [(1, "point"), (2, "point"), (3, "done")]
    assert frames[0]["data"]["qps"] == 120_000.0 and frames[1]["data"]["rss_bytes"] == 4_000_000
    done = frames[2]["data"]
    assert done["finished"] and done["memory_per_connection"] == {"c-epoll": 2000.0}
    resumed = client.get(
        f"/api/sweeps/{sweep_id.json()['id']}/events", headers={"Last-Event-ID": "2"}
    )
    assert [f["event"] for f in parse_sse(resumed.text)] == ["done"]


def test_cancelling_a_sweep_cancels_its_queued_runs(client: TestClient) -> None:
    sweep_id = client.post("/api/sweeps", json=sweep_body()).json()["id"]
    table = client.delete(f"/api/sweeps/{sweep_id}").json()
    assert {p["status"] for p in table["points"]} == {"cancelled", "skipped"}
    assert table["finished"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (sweep_body(servers=["c-nope"]), "servers: unknown c-nope; choose from"),
        (sweep_body(vary="threads"), "vary: input should be 'connections'"),
        (sweep_body(values=[10.5]), "values: connections takes whole numbers (got 10.5)"),
        (sweep_body(base={"connections": 5}), "base: `connections` is set by the sweep itself"),
        (sweep_body(base={"turbo": True}), "turbo: extra inputs are not permitted"),
        (sweep_body(servers=["c-select"], values=[5000]), "no point of this sweep can run"),
        (sweep_body(values=list(range(10, 500, 10))), "at most 40 per sweep"),
        (sweep_body(values=[]), "values: list should have at least 1 item"),
        (
            sweep_body(vary="payload_bytes", total_connections=100),
            "total_connections needs vary: connections",
        ),
        (
            sweep_body(total_connections=1000, base={"idle_connections": 10}),
            "total_connections sets idle_connections itself",
        ),
        (sweep_body(total_connections=1000), "values: 2000 more connections than"),
    ],
)
def test_bad_sweeps_get_422_with_an_actionable_message(
    client: TestClient, body: dict[str, Any], message: str
) -> None:
    answer = client.post("/api/sweeps", json=body)
    assert answer.status_code == 422, answer.text
    assert message in answer.json()["detail"]


LARGEST_EVENT = 2**63 - 1


def raw_sweep(values: str = "[10]", base: str = "{}") -> str:
    """A sweep body as text, for numbers json.dumps would not write (NaN, Infinity, 1e400)."""
    return f'{{"servers": ["c-epoll"], "vary": "connections", "values": {values}, "base": {base}}}'


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (raw_sweep(values="[NaN]"), "values.0: got nan; send a finite number such as 10"),
        (raw_sweep(values="[10, Infinity]"), "values.1: got inf; send a finite number"),
        (raw_sweep(values="[1e400]"), "values.0: got inf"),
        (raw_sweep(values="[-Infinity]"), "values.0: got -inf"),
        (raw_sweep(base='{"duration_s": NaN}'), "base.duration_s: got nan; send a finite"),
        (raw_sweep(base='{"rate": 1e400}'), "base.rate: got inf"),
        (raw_sweep(base='{"ramp_s": -Infinity}'), "base.ramp_s: got -inf"),
        (raw_sweep(base='{"knobs": {"buffer_bytes": NaN}}'), "base.knobs.buffer_bytes: got nan"),
        (raw_sweep(base='{"title": [1, [2, NaN]]}'), "base.title.1.1: got nan"),
    ],
)
def test_a_non_finite_number_is_refused_by_the_request_model(
    client: TestClient, body: str, message: str
) -> None:
    problem = refused(client, "/api/sweeps", body)
    assert message in problem["detail"]
    json.dumps(problem["errors"], allow_nan=False)
    assert client.get("/api/runs").json() == []


def test_a_base_field_of_the_wrong_type_names_the_field_and_value(client: TestClient) -> None:
    answer = client.post("/api/sweeps", json=sweep_body(base={"duration_s": "long"}))
    assert answer.status_code == 422
    assert answer.json()["detail"] == (
        "base.duration_s: input should be a valid number, "
        "unable to parse string as a number (got 'long')"
    )


@pytest.mark.parametrize(
    ("content_type", "status"),
    [("text/plain", 415), ("application/x-www-form-urlencoded", 415), ("application/json", 202)],
)
def test_a_sweep_body_must_be_sent_as_json(
    client: TestClient, content_type: str, status: int
) -> None:
    body = json.dumps(sweep_body())
    answer = client.post("/api/sweeps", content=body, headers={"content-type": content_type})
    assert answer.status_code == status, answer.text
    if status == 415:
        assert "send the body as JSON (Content-Type: application/json)" in answer.json()["detail"]


@pytest.mark.parametrize(
    ("headers", "params"),
    [
        ({"Last-Event-ID": "x"}, {}),
        ({"Last-Event-ID": "\u0661".encode()}, {}),  # Arabic-Indic 1
        ({"Last-Event-ID": "9" * 5000}, {}),
        ({"Last-Event-ID": str(2**64)}, {}),
        ({}, {"last_event_id": str(LARGEST_EVENT + 1)}),
        ({}, {"last_event_id": "9" * 5000}),
    ],
    ids=["letter", "arabic-digit", "5000-digits", "2^64", "query-2^63", "query-huge"],
)
def test_a_bad_last_event_id_is_422_before_the_stream_starts(
    client: TestClient, headers: dict[str, Any], params: dict[str, str]
) -> None:
    sweep_id = client.post("/api/sweeps", json=sweep_body()).json()["id"]
    answer = client.get(f"/api/sweeps/{sweep_id}/events", headers=headers, params=params)
    assert answer.status_code == 422, answer.text
    # The header and a query too large for the router's int are resume_after()'s words; a query
    # of thousands of digits is refused by FastAPI's own int parsing.
    assert answer.json()["detail"].lower().replace("-", "_").startswith("last_event_id: ")
    assert len(answer.json()["detail"]) < 200


def test_the_largest_last_event_id_resumes_after_everything(client: TestClient) -> None:
    sweep_id = client.post("/api/sweeps", json=sweep_body()).json()["id"]
    client.delete(f"/api/sweeps/{sweep_id}")
    answer = client.get(
        f"/api/sweeps/{sweep_id}/events", headers={"Last-Event-ID": str(LARGEST_EVENT)}
    )
    assert [f["event"] for f in parse_sse(answer.text)] == ["done"]


def point(server: str, value: float, rss: int | None, valid: bool = True) -> Point:
    return Point(server=server, value=value, run_id="r", status="done", reason=None,
                 valid=valid, rss_bytes=rss)  # fmt: skip


def test_a_point_carries_its_figures_interval_from_repetitions_or_its_hosts_noise() -> None:
    base = {"server": "c-epoll", "value": 100, "run_id": "r"}
    noise = HostNoise(sigma=0.05, runs=12, groups=2, measured_at="2026-11-29T00:00:00Z")
    once = point_from_result(base, a_result(200_000.0, host_noise=noise.model_dump()))
    assert once.qps_interval is not None and once.qps_interval.method == "host_noise"
    assert once.qps_interval.low < 200_000 < once.qps_interval.high
    assert once.p99_interval is None  # the hosts' noise is measured on QPS only

    figures = [(190_000.0, 500.0), (200_000.0, 450.0), (210_000.0, 420.0)]
    repetitions = [a_result(qps, p99) | {"repetition": i} for i, (qps, p99) in enumerate(figures)]
    repeated = point_from_result(
        base, a_result(200_000.0, 450.0, repetitions=repetitions, host_noise=noise.model_dump())
    )
    assert repeated.qps_interval is not None and repeated.p99_interval is not None
    assert repeated.qps_interval.method == "median_order_statistics"
    assert (repeated.qps_interval.low, repeated.qps_interval.high) == (190_000, 210_000)
    assert (repeated.p99_interval.low, repeated.p99_interval.high) == (420, 500)

    unknown = point_from_result(base, a_result(200_000.0))
    assert unknown.qps_interval is None
    lent = with_host_noise(unknown.model_copy(update={"spread": 0.0}), noise)
    assert lent.host_noise == noise and lent.qps_interval == once.qps_interval
    assert with_host_noise(repeated, None) == repeated


def test_memory_per_connection_is_the_slope_between_the_extreme_valid_points() -> None:
    points = [
        point("c-threaded", 10, 1_000_000),
        point("c-threaded", 100, 5_000_000),
        point("c-threaded", 1000, 46_000_000),
        point("c-threaded", 5000, 1, valid=False),  # invalid: not a measurement to trust
        point("c-epoll", 10, 1_100_000),
        point("c-epoll", 10, 1_200_000),  # one connection count only: no slope
        point("c-prethreaded", 2, 1_650_000),
        point("c-prethreaded", 8, 1_640_000),  # a fixed pool: pages wander, no cost to fit
    ]
    slopes = memory_per_connection(points, "connections")
    assert slopes == {
        "c-threaded": round(45_000_000 / 990, 1),
        "c-epoll": None,
        "c-prethreaded": None,
    }
    assert memory_per_connection(points, "rate") == {}


def test_rounds_run_in_a_fresh_random_order_and_end_in_a_verdict_with_its_interval(
    client: TestClient, store: RunStore
) -> None:
    rounds = 8
    body = sweep_body(servers=["c-epoll", "c-io-uring"], vary="round", values=[*range(1, 9)])
    created = client.post("/api/sweeps", json=body)
    assert created.status_code == 202, created.text
    sweep_id = created.json()["id"]
    table = client.get(f"/api/sweeps/{sweep_id}").json()
    firsts = [table["points"][2 * r]["server"] for r in range(rounds)]
    assert [p["value"] for p in table["points"]] == [v for v in range(1, 9) for _ in "ab"]
    # drawn each round: over several sweeps both servers go first at times
    for _ in range(3):
        again = client.post("/api/sweeps", json=body).json()["id"]
        points = client.get(f"/api/sweeps/{again}").json()["points"]
        firsts += [points[2 * r]["server"] for r in range(rounds)]
    assert set(firsts) == {"c-epoll", "c-io-uring"}

    drift = [1.00, 1.04, 0.97, 1.02, 0.95, 1.03, 0.99, 1.01]  # the host, round to round
    for p in table["points"]:
        level = drift[int(p["value"]) - 1] * 100_000
        qps = level * 1.08 if p["server"] == "c-io-uring" else level
        disturbed = {"stable": False} if (p["server"], p["value"]) == ("c-io-uring", 3) else {}
        result = a_result(qps, p99_us=400.0 + p["value"], **disturbed)
        store.finish(hold(store, p["run_id"]), "done", done(result))
    ended = client.get(f"/api/sweeps/{sweep_id}").json()

    epoll, uring = ended["entries"]
    assert (epoll["server"], uring["server"]) == ("c-epoll", "c-io-uring")
    assert epoll["qps"]["count"] == 8 and uring["qps"]["count"] == 7  # round 3 disturbed
    assert epoll["qps"]["low"] <= epoll["qps"]["estimate"] <= epoll["qps"]["high"]
    qps, p99 = ended["verdicts"]
    assert (qps["subject"], qps["reference"], qps["metric"]) == ("c-io-uring", "c-epoll", "qps")
    assert qps["call"] == "higher" and qps["change"]["count"] == 7
    assert qps["change"]["estimate"] == pytest.approx(0.08)
    # the same p99 in both, round by round: nothing to tell apart
    assert p99["metric"] == "p99_us" and p99["change"]["estimate"] == pytest.approx(0.0)


def test_a_series_that_is_not_in_rounds_has_no_verdicts(client: TestClient) -> None:
    created = client.post("/api/sweeps", json=sweep_body(values=[10]))
    table = client.get(f"/api/sweeps/{created.json()['id']}").json()
    assert table["entries"] == [] and table["verdicts"] == []


def test_a_comparison_within_a_width_runs_the_rounds_the_hosts_noise_says_it_needs(
    client: TestClient, runners: RunnerStore
) -> None:
    body = sweep_body(servers=["c-epoll", "c-poll"], vary="round", values=[*range(1, 11)])

    def rounds(**more: Any) -> list[float]:
        created = client.post("/api/sweeps", json=body | more)
        assert created.status_code == 202, created.text
        sweep = client.get(f"/api/sweeps/{created.json()['id']}").json()
        values: list[float] = sweep["request"]["values"]
        assert values == sorted({p["value"] for p in sweep["points"]})
        return values

    assert rounds(within=0.10) == [*range(1, 11)]  # no runner knows its noise yet: all
    engine = DockerState(reachable=True, version="27.0", error=None)
    host = RunnerHost("lab-1", "lab-1", "0", "1", engine, {}, "idle", None, "2026-11-28")
    noise = HostNoise(sigma=0.05, runs=10, groups=2, measured_at="2026-11-28T10:00:00+00:00")
    runners.beat(replace(host, noise=noise))
    runners.beat(replace(host, id="lab-2", noise=noise.model_copy(update={"sigma": 0.01})))
    assert rounds(within=0.10) == [1, 2, 3, 4, 5]  # planned for the noisier of the two
    assert rounds() == [*range(1, 11)]  # no width asked: every round

    refused = client.post("/api/sweeps", json=sweep_body(within=0.05))
    assert refused.status_code == 422 and "within needs vary: round" in refused.text
