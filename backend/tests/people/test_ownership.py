"""Every endpoint that reads or changes a run or a sweep checks who is asking."""

import pytest
from fastapi.testclient import TestClient

from c10klab.config import Settings
from c10klab.runs.service import parse_sse
from c10klab.runs.store import RUN_OVERHEAD_S
from tests.people.conftest import Browser, join, log_in, make_class

SWEEP = {"servers": ["c-epoll"], "vary": "connections", "values": [1, 2], "base": {"duration_s": 1}}


@pytest.fixture
def cast(browser: Browser) -> dict[str, TestClient]:
    """Grace teaches Ana and Ben; Linus teaches Cy; everyone logged in or joined."""
    grace, linus = log_in(browser(), "Grace"), log_in(browser(), "Linus")
    code, other = make_class(grace), make_class(linus, "Another class")
    return {
        "grace": grace,
        "linus": linus,
        "ana": join(browser(), code, "Ana"),
        "ben": join(browser(), code, "Ben"),
        "cy": join(browser(), other, "Cy"),
        "nobody": browser(),
    }


def owned_by_ana(cast: dict[str, TestClient]) -> tuple[str, str]:
    run = cast["ana"].post("/api/runs", json={"server": "c-epoll"})
    sweep = cast["ana"].post("/api/sweeps", json=SWEEP)
    assert run.status_code == 202 and sweep.status_code == 202, (run.text, sweep.text)
    return run.json()["id"], sweep.json()["id"]


def reads(run_id: str, sweep_id: str) -> list[tuple[str, str]]:
    return [
        ("GET", f"/api/runs/{run_id}"),
        ("GET", f"/api/runs/{run_id}/events"),
        ("GET", f"/api/sweeps/{sweep_id}"),
        ("GET", f"/api/sweeps/{sweep_id}/events"),
    ]


def changes(run_id: str, sweep_id: str) -> list[tuple[str, str]]:
    return [("DELETE", f"/api/runs/{run_id}"), ("DELETE", f"/api/sweeps/{sweep_id}")]


@pytest.mark.parametrize("who", ["cy", "linus"])
def test_nobody_outside_the_class_reads_or_cancels_a_students_runs(
    cast: dict[str, TestClient], who: str
) -> None:
    run_id, sweep_id = owned_by_ana(cast)
    for method, path in reads(run_id, sweep_id) + changes(run_id, sweep_id):
        answer = cast[who].request(method, path)
        assert answer.status_code == 403, (who, method, path, answer.text)
        assert "belongs to someone else" in answer.json()["detail"]
    assert cast[who].get("/api/runs").json() == []
    assert cast["ana"].get(f"/api/runs/{run_id}").json()["status"] == "queued"  # untouched


def test_a_classmate_opens_a_permalink_but_cannot_cancel(cast: dict[str, TestClient]) -> None:
    run_id, sweep_id = owned_by_ana(cast)
    ben = cast["ben"]
    assert ben.get(f"/api/runs/{run_id}").json()["status"] == "queued"
    assert [p["server"] for p in ben.get(f"/api/sweeps/{sweep_id}").json()["points"]] == [
        "c-epoll",
        "c-epoll",
    ]
    for method, path in changes(run_id, sweep_id):
        refused = ben.request(method, path)
        assert refused.status_code == 403, (method, path, refused.text)
        assert "only its owner or their instructor can cancel it" in refused.json()["detail"]
    assert ben.get(f"/api/runs/{run_id}").json()["status"] == "queued"  # untouched
    assert ben.get("/api/runs").json() == []  # a classmate's runs are not in one's own history
    # Ended, both streams replay to their last event for the classmate too.
    assert cast["ana"].delete(f"/api/runs/{run_id}").status_code == 200
    assert cast["ana"].delete(f"/api/sweeps/{sweep_id}").status_code == 200
    frames = parse_sse(ben.get(f"/api/runs/{run_id}/events").text)
    assert frames[-1]["event"] == "failed" and frames[-1]["data"]["cancelled"]
    points = parse_sse(ben.get(f"/api/sweeps/{sweep_id}/events").text)
    assert [f["event"] for f in points] == ["point", "point", "done"]


def test_an_instructors_own_runs_open_for_their_students_only(
    cast: dict[str, TestClient],
) -> None:
    """An instructor's run is in no class, but what they show their class its students may
    open (not cancel); a student of another class may do neither."""
    run = cast["grace"].post("/api/runs", json={"server": "c-epoll"}).json()
    assert cast["ana"].get(f"/api/runs/{run['id']}").status_code == 200
    refused = cast["ana"].delete(f"/api/runs/{run['id']}")
    assert refused.status_code == 403, refused.text
    for method in ("GET", "DELETE"):
        refused = cast["cy"].request(method, f"/api/runs/{run['id']}")
        assert refused.status_code == 403, (method, refused.text)
    assert cast["ana"].get("/api/runs").json() == []  # not in the student's own list


def test_without_a_session_every_run_endpoint_is_401(cast: dict[str, TestClient]) -> None:
    run_id, sweep_id = owned_by_ana(cast)
    nobody = cast["nobody"]
    calls = [("GET", "/api/runs"), *reads(run_id, sweep_id), *changes(run_id, sweep_id)]
    for method, path in calls:
        assert nobody.request(method, path).status_code == 401, (method, path)
    for path, body in (("/api/runs", {"server": "c-epoll"}), ("/api/sweeps", SWEEP)):
        refused = nobody.post(path, json=body)
        assert refused.status_code == 401 and "join it with the code" in refused.json()["detail"]


def test_the_owner_and_their_instructor_see_and_cancel(cast: dict[str, TestClient]) -> None:
    run_id, sweep_id = owned_by_ana(cast)
    for who in ("ana", "grace"):
        for method, path in reads(run_id, sweep_id)[::2]:  # the streams are read below
            assert cast[who].request(method, path).status_code == 200, (who, path)
        listed = cast[who].get("/api/runs").json()
        assert run_id in {r["id"] for r in listed} and len(listed) == 3
        assert {r["owner_id"] for r in listed} == {
            cast["ana"].get("/api/auth/me").json()["person"]["id"]
        }
    assert cast["grace"].delete(f"/api/runs/{run_id}").json()["status"] == "cancelled"
    assert cast["ana"].delete(f"/api/sweeps/{sweep_id}").status_code == 200
    frames = parse_sse(cast["ana"].get(f"/api/runs/{run_id}/events").text)
    assert frames[-1]["event"] == "failed" and frames[-1]["data"]["cancelled"]
    points = parse_sse(cast["grace"].get(f"/api/sweeps/{sweep_id}/events").text)
    assert [f["event"] for f in points] == ["point", "point", "done"]


def test_an_instructors_runs_go_before_the_students(cast: dict[str, TestClient]) -> None:
    first = cast["ana"].post("/api/runs", json={"server": "c-epoll"}).json()
    teacher = cast["grace"].post("/api/runs", json={"server": "c-epoll"}).json()
    assert (first["position"], teacher["position"]) == (1, 1)
    assert cast["ana"].get(f"/api/runs/{first['id']}").json()["position"] == 2
    # The default run: 2 s of warm-up, 10 of measuring, and the overhead.
    expected = 12 + RUN_OVERHEAD_S
    assert cast["ana"].get(f"/api/runs/{first['id']}").json()["wait_s"] == pytest.approx(
        expected, abs=1
    )


def test_a_person_past_their_limit_gets_429_with_retry_after(
    cast: dict[str, TestClient], classroom: Settings
) -> None:
    classroom.max_queued_per_person = 3
    ana = cast["ana"]
    assert ana.post("/api/sweeps", json=SWEEP | {"values": [1, 2, 3]}).status_code == 202
    full = ana.post("/api/runs", json={"server": "c-epoll"})
    assert full.status_code == 429 and "you already have 3 runs waiting" in full.json()["detail"]
    assert int(full.headers["Retry-After"]) >= 1
    too_big = ana.post("/api/sweeps", json=SWEEP | {"values": [1, 2, 3, 4]})
    assert too_big.status_code == 422 and "at most 3 waiting" in too_big.json()["detail"]
    # Ben is not held up by Ana's limit.
    assert cast["ben"].post("/api/runs", json={"server": "c-epoll"}).status_code == 202
