import json
from typing import Any

import pytest
from fastapi.exceptions import RequestValidationError
from fastapi.testclient import TestClient

from c10klab.errors import InvalidRequest, describe_validation_error, jsonable
from c10klab.runs.service import parse_sse
from c10klab.runs.store import RunStore
from c10klab.sse import resume_after
from tests.raw_json import refused
from tests.results.figures import a_result, done, progress, started
from tests.runs.leases import claim

# What Python's JSON parser reads although JSON has none of them (1e400 reads as inf).
NON_FINITE = ["NaN", "Infinity", "-Infinity", "1e400", "-1e400"]
LARGEST_EVENT = 2**63 - 1  # SQLite's INTEGER


def finished_run(client: TestClient, store: RunStore) -> str:
    run_id: str = client.post("/api/runs", json={"server": "c-epoll"}).json()["id"]
    store.finish(claim(store), "done", done(a_result()))
    return run_id


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
        "lesson": None,
        "experiment": None,
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
        "variant": None,
        "check_only": False,
    }
    assert [r["id"] for r in client.get("/api/runs").json()][:2] == [
        second.json()["id"],
        first.json()["id"],
    ]


@pytest.mark.refused_before_store
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
        ({"server": "c-epoll", "warmup_s": 45.5}, "warmup_s: at most 30 s (got 45.5)"),
        (
            {"server": "c-epoll", "payload_bytes": 2_000_000},
            "payload_bytes: at most 1048576 (got 2000000)",
        ),
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


def test_the_event_stream_resumes_after_last_event_id(client: TestClient, store: RunStore) -> None:
    run_id = client.post("/api/runs", json={"server": "c-epoll"}).json()["id"]
    lease = claim(store)
    store.append_event(lease, started())
    for t in (1, 2, 3):
        store.append_event(lease, progress(t))
    store.finish(lease, "done", done(a_result(5)))

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
    assert full.status_code == 429 and "queue is full" in full.json()["detail"]
    assert full.headers["Retry-After"] == "1"  # no run is running: the first starts at once


@pytest.mark.refused_before_store
@pytest.mark.parametrize(
    "field",
    [
        "duration_s",
        "warmup_s",
        "rate",
        "ramp_s",
        "connections",
        "payload_bytes",
        "idle_connections",
        "repetitions",
    ],
)
@pytest.mark.parametrize("number", NON_FINITE)
def test_a_non_finite_number_is_422_naming_the_field(
    client: TestClient, field: str, number: str
) -> None:
    body = f'{{"server": "c-epoll", "{field}": {number}}}'
    detail = refused(client, "/api/runs", body)["detail"]
    assert detail.startswith(f"{field}: got ") and "send a finite number such as 10" in detail
    assert client.get("/api/runs").json() == []


def test_a_non_finite_knob_is_422(client: TestClient) -> None:
    body = '{"server": "c-epoll", "knobs": {"buffer_bytes": NaN}}'
    assert "knobs.buffer_bytes" in refused(client, "/api/runs", body)["detail"]


@pytest.mark.refused_before_store
@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("text/plain", b'{"server": "c-epoll"}'),
        ("text/plain; charset=utf-8", b"\xff\xfe not UTF-8"),
        ("application/x-www-form-urlencoded", b"server=c-epoll"),
        ("multipart/form-data; boundary=x", b"--x\r\n\r\nc-epoll\r\n--x--"),
        ("application/xml", b"<run/>"),
        ("", b'{"server": "c-epoll"}'),
        (None, b'{"server": "c-epoll"}'),
    ],
)
def test_a_body_that_is_not_json_is_415(
    client: TestClient, content_type: str | None, body: bytes
) -> None:
    headers = {} if content_type is None else {"content-type": content_type}
    answer = client.post("/api/runs", content=body, headers=headers)
    assert answer.status_code == 415, answer.text
    assert answer.json()["detail"].startswith(
        "send the body as JSON (Content-Type: application/json)"
    )
    assert client.get("/api/runs").json() == []


@pytest.mark.parametrize("content_type", ["application/json; charset=utf-8", "APPLICATION/JSON"])
def test_json_with_parameters_or_in_capitals_is_json(client: TestClient, content_type: str) -> None:
    answer = client.post(
        "/api/runs", content=b'{"server": "c-epoll"}', headers={"content-type": content_type}
    )
    assert answer.status_code == 202, answer.text


def test_the_guard_leaves_bodiless_calls_and_streams_alone(
    client: TestClient, store: RunStore
) -> None:
    run_id = finished_run(client, store)
    headers = {"content-type": "text/plain"}
    assert client.delete(f"/api/runs/{run_id}", headers=headers).status_code == 200
    assert client.get(f"/api/runs/{run_id}/events", headers=headers).status_code == 200
    # No body and no Content-Type: FastAPI's own answer, naming the missing body.
    empty = client.post("/api/runs")
    assert empty.status_code == 422 and "body: field required" in empty.json()["detail"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b'{"server":', "body: not valid JSON at character 10 (expecting value)"),
        (b'{"server": "c-epoll",}', "body: not valid JSON at character 21"),
        (b"\xff\xfe", "body: not valid JSON at character 0"),
        (b"[1, 2]", "body: input should be a valid dictionary"),
        (b"null", "body: "),
        (b'"c-epoll"', "body: input should be a valid dictionary"),
    ],
)
def test_malformed_json_is_422_with_a_message(
    client: TestClient, body: bytes, message: str
) -> None:
    assert message in refused(client, "/api/runs", body)["detail"]


@pytest.mark.parametrize(
    "rejected",
    [float("nan"), float("inf"), b"\xff\x00", 10**5000, "x" * 100_000, object(), {1: [3.0]}],
    ids=["nan", "inf", "bytes", "5000-digit int", "long string", "object", "nested"],
)
def test_the_422_handler_cannot_fail_on_what_it_reports(rejected: object) -> None:
    errors = [
        {"type": "value_error", "loc": ("body", "rate"), "msg": "Bad", "input": rejected,
         "ctx": {"error": ValueError("no"), "limit": rejected}},
        {"type": "finite_number", "loc": ("body", "duration_s"), "msg": "x", "input": rejected},
        {"type": "json_invalid", "loc": ("body", 3), "msg": "JSON decode error", "input": {},
         "ctx": {"error": "Expecting value"}},
    ]  # fmt: skip
    detail = describe_validation_error(RequestValidationError(errors))
    assert len(detail) < 600
    assert detail.startswith("rate: bad") and "duration_s: got " in detail
    assert "body: not valid JSON at character 3 (expecting value)" in detail
    json.dumps(jsonable(errors), allow_nan=False)  # what JSONResponse does: must not raise


@pytest.mark.parametrize(
    "header",
    [
        "x",
        "-1",
        "1.5",
        "1e3",
        "0x10",
        "\u0661\u0662",  # Arabic-Indic digits: str.isdigit() says yes
        "9" * 5000,  # past int()'s digit limit: was a 500
        str(LARGEST_EVENT + 1),
        str(2**64),  # was a 200 and a stream cut off by SQLite's integer overflow
    ],
)
def test_a_bad_last_event_id_header_is_422(
    client: TestClient, store: RunStore, header: str
) -> None:
    run_id = finished_run(client, store)
    answer = client.get(f"/api/runs/{run_id}/events", headers={"Last-Event-ID": header.encode()})
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"].startswith(
        f"Last-Event-ID: must be an event number, 0 to {LARGEST_EVENT} (got "
    )
    assert len(answer.json()["detail"]) < 200


@pytest.mark.parametrize("query", ["-1", str(LARGEST_EVENT + 1), str(2**64), "9" * 5000, "x"])
def test_a_bad_last_event_id_query_is_422(client: TestClient, store: RunStore, query: str) -> None:
    run_id = finished_run(client, store)
    answer = client.get(f"/api/runs/{run_id}/events", params={"last_event_id": query})
    assert answer.status_code == 422, answer.text
    assert "last_event_id" in answer.json()["detail"]


@pytest.mark.parametrize(
    "header", ["²", "\u0661\u0662", "\u0663", " 1", "1 ", "+1", "9" * 5000, str(2**63)]
)
def test_resume_after_refuses_what_is_not_an_event_number(header: str) -> None:
    # "²" is how Starlette decodes the latin-1 byte 0xb2 of a real header: str.isdigit() said
    # yes and int() said no, a 500.
    with pytest.raises(InvalidRequest, match=r"^Last-Event-ID: must be an event number"):
        resume_after(header, None)


def test_resume_after_takes_the_later_of_header_and_query() -> None:
    assert resume_after(None, None) == 0
    assert resume_after("", 3) == 3
    assert resume_after("7", 3) == 7
    assert resume_after(str(LARGEST_EVENT), None) == LARGEST_EVENT
    assert resume_after(None, LARGEST_EVENT) == LARGEST_EVENT
    with pytest.raises(InvalidRequest, match=r"\(got a larger number\)$"):
        resume_after(None, 10**5000)


def test_a_run_whose_runner_vanished_fails_and_its_stream_ends(
    client: TestClient, store: RunStore
) -> None:
    run_id = client.post("/api/runs", json={"server": "c-epoll"}).json()["id"]
    # a runner that takes the run, starts it, dies
    store.began_measuring(claim(store, "ghost", lease_s=0.5))
    frames = parse_sse(client.get(f"/api/runs/{run_id}/events").text)  # ends by itself
    assert [f["event"] for f in frames] == ["queued", "failed"]
    assert frames[-1]["data"]["reason"].startswith("runner ghost lost at ")
    assert client.get(f"/api/runs/{run_id}").json()["status"] == "failed"


def test_resuming_after_the_end_of_a_finished_run_ends_at_once(
    client: TestClient, store: RunStore
) -> None:
    run_id = client.post("/api/runs", json={"server": "c-epoll"}).json()["id"]
    assert client.delete(f"/api/runs/{run_id}").json()["status"] == "cancelled"
    for after in ("2", "99"):  # at and past its last event (2: `failed`)
        resumed = client.get(f"/api/runs/{run_id}/events", headers={"Last-Event-ID": after})
        assert resumed.status_code == 200 and parse_sse(resumed.text) == []
