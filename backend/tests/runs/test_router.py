from typing import Any

import pytest
from fastapi.testclient import TestClient

from c10klab.runs.service import parse_sse
from c10klab.store import Store


def test_a_valid_request_is_queued_with_its_position(client: TestClient) -> None:
    first = client.post("/api/runs", json={"server": "c-epoll", "connections": 10})
    second = client.post("/api/runs", json={"server": "c-epoll"})
    assert first.status_code == 202 and second.status_code == 202
    assert (first.json()["position"], second.json()["position"]) == (1, 2)

    run = client.get(f"/api/runs/{second.json()['id']}").json()
    assert run["status"] == "queued" and run["position"] == 2
    # Defaults are filled in, so the stored request says exactly what will run.
    assert run["request"] == {
        "server": "c-epoll",
        "connections": 100,
        "payload_bytes": 64,
        "duration_s": 10,
        "warmup_s": 2,
        "protocol": "echo",
        "knobs": {},
        "rate": 0,
        "idle_connections": 0,
        "new_connection_per_request": False,
        "ramp_s": 0,
        "repetitions": 1,
        "profile": "throughput",
    }
    assert [r["id"] for r in client.get("/api/runs").json()][:2] == [
        second.json()["id"],
        first.json()["id"],
    ]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"server": "c-nope"}, "unknown server 'c-nope'; choose one of c-epoll"),
        ({"server": "c-epoll", "connections": 50000}, "at most 19000 connections"),
        ({"server": "c-epoll", "connections": 0}, "connections: input should be greater than"),
        ({"server": "c-epoll", "duration_s": 3600}, "duration_s: at most 60 s"),
        ({"server": "c-epoll", "protocol": "gopher"}, "protocol: input should be 'echo' or 'http'"),
        ({"server": "c-epoll", "knobs": {"trigger": "sideways"}}, "must be one of lt, et"),
        ({"server": "c-epoll", "knobs": {"buffer_bytes": 1}}, "accepts 512..1048576 (got 1)"),
        ({"server": "c-epoll", "knobs": {"turbo": 1}}, "has no such knob"),
        ({"server": "c-epoll", "image": "evil"}, "image: extra inputs are not permitted"),
        ({}, "server: field required"),
        (
            {"server": "c-epoll", "connections": 10000, "idle_connections": 9001},
            "connections + idle_connections may be at most 19000 here (got 10000 + 9001)",
        ),
        ({"server": "c-epoll", "rate": -5}, "rate: input should be greater than or equal to 0"),
        ({"server": "c-epoll", "repetitions": 9}, "repetitions: at most 5 (got 9)"),
        ({"server": "c-epoll", "ramp_s": 99}, "ramp_s: at most 30 s (got 99)"),
        (
            {"server": "c-epoll", "profile": "syscalls", "repetitions": 3},
            "a syscall profile counts calls",
        ),
        ({"server": "c-epoll", "profile": "perf"}, "profile: input should be 'throughput'"),
    ],
)
def test_bad_input_gets_422_with_an_actionable_message(
    client: TestClient, body: dict[str, Any], message: str
) -> None:
    answer = client.post("/api/runs", json=body)
    assert answer.status_code == 422
    assert message in answer.json()["detail"]
    assert client.get("/api/runs").json() == []  # nothing was queued


def test_unknown_runs_are_404(client: TestClient) -> None:
    assert client.get("/api/runs/nope").status_code == 404
    assert client.delete("/api/runs/nope").status_code == 404
    assert "no run" in client.get("/api/runs/nope/events").json()["detail"]


def test_cancelling_a_queued_run(client: TestClient) -> None:
    run_id = client.post("/api/runs", json={"server": "c-epoll"}).json()["id"]
    assert client.delete(f"/api/runs/{run_id}").json() == {"id": run_id, "status": "cancelled"}
    frames = parse_sse(client.get(f"/api/runs/{run_id}/events").text)
    assert [f["event"] for f in frames] == ["queued", "failed"]
    assert frames[-1]["data"]["cancelled"] is True


def test_the_event_stream_resumes_after_last_event_id(client: TestClient, store: Store) -> None:
    run_id = client.post("/api/runs", json={"server": "c-epoll"}).json()["id"]
    store.claim_next()
    store.append_event(run_id, "started", {"server": "c-epoll"})
    for t in (1, 2, 3):
        store.append_event(run_id, "progress", {"t_s": t})
    store.finish(run_id, "done", "done", {"summary": {"qps": 5}}, result={"summary": {"qps": 5}})

    everything = parse_sse(client.get(f"/api/runs/{run_id}/events").text)
    assert [f["event"] for f in everything] == [
        "queued",
        "started",
        "progress",
        "progress",
        "progress",
        "done",
    ]
    assert [f["id"] for f in everything] == [1, 2, 3, 4, 5, 6]

    resumed = client.get(f"/api/runs/{run_id}/events", headers={"Last-Event-ID": "4"})
    assert resumed.headers["content-type"].startswith("text/event-stream")
    assert [f["id"] for f in parse_sse(resumed.text)] == [5, 6]
    by_query = parse_sse(client.get(f"/api/runs/{run_id}/events?last_event_id=5").text)
    assert [f["event"] for f in by_query] == ["done"]
    assert (
        client.get(f"/api/runs/{run_id}/events", headers={"Last-Event-ID": "x"}).status_code == 422
    )


def test_the_queue_has_a_limit(client: TestClient, settings: Any) -> None:
    settings.max_queued_runs = 2
    for _ in range(2):
        assert client.post("/api/runs", json={"server": "c-epoll"}).status_code == 202
    full = client.post("/api/runs", json={"server": "c-epoll"})
    assert full.status_code == 429 and "try again" in full.json()["detail"]
