"""GET /api/history: a learner's own runs and sweeps, newest first; by browser in solo mode,
by person in a class."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete

from c10klab.api.deps import BROWSER_COOKIE
from c10klab.config import Settings
from c10klab.lab.history import sweep_status
from c10klab.results.schemas import FailedData, FailedEvent
from c10klab.runs.store import RunStore
from c10klab.variants.store import VariantStore
from c10klab.variants.tables import variants
from tests.people.conftest import Browser, join, log_in, make_class
from tests.results.figures import a_result, done
from tests.runs.leases import claim

RESULT = a_result(12345.0, p99_us=250.0)


def queue_run(client: TestClient, **fields: Any) -> str:
    answer = client.post("/api/runs", json={"server": "c-epoll", "duration_s": 1, **fields})
    assert answer.status_code == 202, answer.text
    run_id: str = answer.json()["id"]
    return run_id


def queue_sweep(client: TestClient, **fields: Any) -> str:
    body = {"servers": ["c-epoll", "c-poll"], "vary": "connections", "values": [10, 100]}
    answer = client.post("/api/sweeps", json={**body, "base": {"duration_s": 1}, **fields})
    assert answer.status_code == 202, answer.text
    sweep_id: str = answer.json()["id"]
    return sweep_id


def history(client: TestClient, **query: Any) -> list[dict[str, Any]]:
    answer = client.get("/api/history", params=query)
    assert answer.status_code == 200, answer.text
    entries: list[dict[str, Any]] = answer.json()
    return entries


def finish(store: RunStore, run_id: str) -> None:
    lease = claim(store)
    assert lease.run_id == run_id
    store.finish(lease, "done", done(RESULT))


def test_solo_history_is_this_browsers_own(solo_browsers: Browser, store: RunStore) -> None:
    ada, bob = solo_browsers(), solo_browsers()
    first = queue_run(ada)
    sweep = queue_sweep(ada, lesson="05-epoll")
    theirs = queue_run(bob, connections=7)
    assert ada.cookies.get(BROWSER_COOKIE) != bob.cookies.get(BROWSER_COOKIE)

    entries = history(ada)
    # Newest first; the sweep's four runs are inside its entry, not listed again.
    assert [(e["kind"], e["id"]) for e in entries] == [("sweep", sweep), ("run", first)]
    assert entries[0]["servers"] == ["c-epoll", "c-poll"]
    assert entries[0]["points"] == 4 and entries[0]["points_ended"] == 0
    assert entries[0]["status"] == "queued" and entries[0]["lesson"] == "05-epoll"
    assert entries[0]["vary"] == "connections" and entries[0]["values"] == [10, 100]
    assert [e["id"] for e in history(bob)] == [theirs]
    assert history(bob)[0]["request"]["connections"] == 7

    # A permalink still opens in any browser: solo mode is one person.
    assert bob.get(f"/api/runs/{first}").status_code == 200

    finish(store, first)
    done = history(ada)[1]
    assert done["status"] == "done" and done["qps"] == 12345.0 and done["p99_us"] == 250.0


def test_history_filters_by_server_and_lesson(solo_browsers: Browser) -> None:
    ada = solo_browsers()
    poll = queue_run(ada, server="c-poll", lesson="04-select-and-poll")
    epoll = queue_run(ada, lesson="05-epoll")
    sweep = queue_sweep(ada, lesson="05-epoll")
    assert [e["id"] for e in history(ada, server="c-poll")] == [sweep, poll]
    assert [e["id"] for e in history(ada, lesson="05-epoll")] == [sweep, epoll]
    assert [e["id"] for e in history(ada, server="c-poll", lesson="05-epoll")] == [sweep]
    assert [e["id"] for e in history(ada, limit=1)] == [sweep]


def test_a_sweeps_knobs_per_server_are_kept(solo_browsers: Browser) -> None:
    ada = solo_browsers()
    queue_sweep(ada, server_knobs={"c-poll": {"buffer_bytes": 4096}})
    [entry] = history(ada)
    assert entry["knobs"] == {} and entry["server_knobs"] == {"c-poll": {"buffer_bytes": 4096}}


def test_history_refuses_bad_filters(solo_browsers: Browser) -> None:
    ada = solo_browsers()
    for query in ({"lesson": "../etc"}, {"limit": 0}, {"limit": 501}, {"server": "x" * 65}):
        answer = ada.get("/api/history", params=query)
        assert answer.status_code == 422, query
        assert answer.json()["detail"]


def test_a_forged_browser_cookie_is_replaced(solo_browsers: Browser) -> None:
    ada = solo_browsers()
    answer = ada.get("/api/history", headers={"Cookie": f"{BROWSER_COOKIE}=not-an-id"})
    assert answer.status_code == 200 and answer.json() == []
    minted = answer.cookies.get(BROWSER_COOKIE)
    assert minted is not None and len(minted) == 32 and minted != "not-an-id"


def test_in_a_class_history_is_the_persons(browser: Browser) -> None:
    grace = log_in(browser(), "Grace")
    code = make_class(grace)
    ada = join(browser(), code, "Ada")
    bob = join(browser(), code, "Bob")
    mine = queue_run(ada)
    queue_run(bob)
    teaching = queue_run(grace)
    assert [e["id"] for e in history(ada)] == [mine]
    # An instructor's history is their own runs, not the class's (the class page has those).
    assert [e["id"] for e in history(grace)] == [teaching]
    assert browser().get("/api/history").status_code == 401


@pytest.mark.parametrize(
    ("statuses", "expected"),
    [
        (["queued", "queued"], "queued"),
        (["done", "queued"], "running"),
        (["running", "queued"], "running"),
        (["done", "failed"], "done"),
        (["failed", "cancelled"], "failed"),
        (["cancelled"], "cancelled"),
        ([], "cancelled"),
    ],
)
def test_a_sweeps_status(statuses: list[str], expected: str) -> None:
    assert sweep_status(statuses) == expected


def save_edit(client: TestClient, **fields: Any) -> dict[str, Any]:
    exercise = fields.get("exercise")
    source = (
        client.get(f"/api/exercises/{exercise}").json()["starter"]
        if exercise
        else client.get("/api/sources/servers/c/epoll.c").json()["text"] + "\n/* mine */\n"
    )
    created = client.post("/api/variants", json={"server": "c-epoll", "source": source, **fields})
    assert created.status_code == 202, created.text
    variant: dict[str, Any] = client.get(f"/api/variants/{created.json()['id']}").json()
    return variant


def test_edits_and_answers_are_named_with_their_server_save_time_and_check(
    solo_browsers: Browser, store: RunStore
) -> None:
    ada = solo_browsers()
    edit = save_edit(ada)
    answer = save_edit(ada, exercise="et-drain")
    # The edit's check run did not compile; the answer's is still queued.
    store.finish(
        claim(store),
        "failed",
        FailedEvent(type="failed", data=FailedData(reason="it did not compile", diagnostics=[])),
    )
    entry = f"variant:{edit['id']}"
    body = {"servers": ["c-epoll", entry], "vary": "round", "values": [1, 2, 3]}
    benchmark = ada.post("/api/sweeps", json=body | {"base": {"duration_s": 1}}).json()["id"]

    entries = {e["id"]: e for e in history(ada)}
    # The benchmark names its edit: which server, saved when, and that it failed to compile.
    [named] = entries[benchmark]["edits"]
    assert named["entry"] == entry and named["variant"] == edit["id"]
    assert named["server"] == "c-epoll" and named["saved_at"] == edit["created_at"]
    assert named["exercise"] is None
    assert named["owner"] == {"mine": True, "name": None, "instructor": False}
    assert named["check"] == {"status": "failed", "failed": "build", "reason": "it did not compile"}
    assert entries[benchmark]["verdict"] is None
    # The answer's check run is listed as the exercise it answers, with its verdict.
    checked = entries[answer["check_run_id"]]
    assert [(e["entry"], e["exercise"]) for e in checked["edits"]] == [("c-epoll", "et-drain")]
    assert checked["edits"][0]["check"]["status"] == "queued"
    assert checked["verdict"]["status"] == "pending"
    # A run of the originals names no edit; the variant list says how each check went.
    assert all(
        e["edits"] == [] for e in entries.values() if e["id"] not in (benchmark, checked["id"])
    )
    listed = {v["id"]: v["check"] for v in ada.get("/api/variants").json()}
    assert listed[edit["id"]]["failed"] == "build"
    assert listed[answer["id"]] == {"status": "queued", "failed": None, "reason": None}


def test_an_edit_no_longer_kept_leaves_its_entry_readable(
    solo_browsers: Browser, settings: Settings
) -> None:
    ada = solo_browsers()
    edit = save_edit(ada)
    ada.post("/api/runs", json={"server": "c-epoll", "variant": edit["id"], "duration_s": 1})
    with VariantStore(settings.store).write() as db:
        db.execute(delete(variants).where(variants.c.id == edit["id"]))
    [run] = history(ada)
    assert run["edits"] == [] and run["request"]["variant"] == edit["id"]


def test_in_a_class_the_edits_a_history_names_are_the_persons_own(browser: Browser) -> None:
    code = make_class(log_in(browser(), "Grace"))
    ada = join(browser(), code, "Ada")
    edit = save_edit(ada)
    queue_run(ada, variant=edit["id"])
    [run] = history(ada)
    assert [e["owner"] for e in run["edits"]] == [{"mine": True, "name": None, "instructor": False}]
