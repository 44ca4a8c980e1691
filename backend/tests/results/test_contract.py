"""The contract: every recorded result still validates, and /openapi.json describes every
answer and every stream's events."""

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from c10klab.content.schemas import LessonBaselines
from c10klab.results.schemas import DoneEvent, RunEvent
from c10klab.sweeps.schemas import SweepOut

BASELINES = sorted((Path(__file__).parents[3] / "content" / "baselines").glob("*.json"))


def test_there_are_recordings_to_check() -> None:
    assert len(BASELINES) >= 10


@pytest.mark.parametrize("path", BASELINES, ids=lambda p: p.stem)
def test_every_recorded_baseline_validates_against_the_models(path: Path) -> None:
    recorded = LessonBaselines.model_validate_json(path.read_text())
    raw = json.loads(path.read_text())["experiments"]
    for parsed, source in zip(recorded.experiments, raw, strict=True):
        if parsed.kind == "series":
            assert isinstance(parsed.result.table, SweepOut), parsed.block
            continue
        events = parsed.result.events or []
        assert len(events) == len(source["result"]["events"])
        done = [e.root for e in events if isinstance(e.root, DoneEvent)]
        assert len(done) == 1, parsed.block
        # Nothing the recording holds is lost on the way out: every figure is kept.
        assert done[0].data.model_dump(exclude_unset=True) == source["result"]["events"][-1]["data"]


def test_an_event_the_contract_does_not_know_is_refused() -> None:
    with pytest.raises(ValueError, match="progress"):
        RunEvent.model_validate({"type": "progress", "data": {"t_s": 1}})
    with pytest.raises(ValueError):
        RunEvent.model_validate({"type": "gossip", "data": {}})


def test_every_json_answer_has_a_schema(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    missing = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for status, answer in operation["responses"].items():
                if not status.startswith("2") or status == "204":
                    continue
                content = answer.get("content", {})
                schemas = [c.get("schema") or c.get("itemSchema") for c in content.values()]
                if not schemas or any(s in (None, {}) for s in schemas):
                    missing.append(f"{method.upper()} {path} {status}")
    assert missing == []


@pytest.mark.parametrize(
    ("path", "events"),
    [
        (
            "/api/runs/{run_id}/events",
            {
                "queued": "QueuedData",
                "requeued": "RequeuedData",
                "started": "StartedData",
                "progress": "ProgressData",
                "server_stats": "ServerStatsData",
                "repetition": "RepetitionData",
                "build": "BuildData",
                "check": "CheckData",
                "done": "RunResult",
                "checked": "CheckResult",
                "failed": "FailedData",
            },
        ),
        ("/api/sweeps/{sweep_id}/events", {"point": "Point", "done": "SweepOut"}),
        (
            "/api/classes/{class_id}/events",
            {
                "class": "ClassOut",
                "presentation": None,
                "run_event": "RelayedRunEvent",
                "sweep": "SweepOut",
                "live": "Live",
                "ended": "Ended",
            },
        ),
    ],
)
def test_each_stream_describes_each_of_its_events(
    client: TestClient, path: str, events: dict[str, str | None]
) -> None:
    document = client.get("/openapi.json").json()
    content = document["paths"][path]["get"]["responses"]["200"]["content"]
    described = {
        item["properties"]["event"]["const"]: item["properties"]["data"]["contentSchema"]
        for item in content["text/event-stream"]["itemSchema"]["oneOf"]
    }
    assert set(described) == set(events)
    for name, model in events.items():
        if model is None:  # PresentationOut or null
            assert "anyOf" in described[name]
            continue
        assert described[name] == {"$ref": f"#/components/schemas/{model}"}
        assert model in document["components"]["schemas"]
