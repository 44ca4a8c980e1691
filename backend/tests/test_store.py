from pathlib import Path

from c10klab.store import Store


def test_queue_positions_move_up_when_the_runner_claims(store: Store) -> None:
    first, pos1 = store.create_run("c-epoll", {"n": 1})
    second, pos2 = store.create_run("c-epoll", {"n": 2})
    third, pos3 = store.create_run("c-epoll", {"n": 3})
    assert (pos1, pos2, pos3) == (1, 2, 3)

    claimed = store.claim_next()
    assert claimed is not None and claimed.id == first.id and claimed.status == "running"
    assert store.position(store.get_run(second.id)) == 1  # type: ignore[arg-type]
    # The runs that moved up were told so by a new queued event.
    assert [e.data for e in store.events_after(third.id)] == [{"position": 3}, {"position": 2}]


def test_a_run_is_claimed_once(store: Store) -> None:
    store.create_run("c-epoll", {})
    assert store.claim_next() is not None
    assert store.claim_next() is None


def test_event_numbers_count_from_one_and_resume_after_a_given_id(store: Store) -> None:
    run, _ = store.create_run("c-epoll", {})
    for i in range(4):
        store.append_event(run.id, "progress", {"i": i})
    events = store.events_after(run.id)
    assert [e.seq for e in events] == [1, 2, 3, 4, 5]
    assert [e.data for e in store.events_after(run.id, 3)] == [{"i": 2}, {"i": 3}]


def test_cancelling_a_queued_run_ends_it_at_once(store: Store) -> None:
    run, _ = store.create_run("c-epoll", {})
    assert store.request_cancel(run.id) == "cancelled"
    assert store.claim_next() is None
    last = store.events_after(run.id)[-1]
    assert last.type == "failed" and last.data["cancelled"] is True


def test_cancelling_a_running_run_asks_the_runner(store: Store) -> None:
    run, _ = store.create_run("c-epoll", {})
    store.claim_next()
    assert not store.cancel_requested(run.id)
    assert store.request_cancel(run.id) == "running"
    assert store.cancel_requested(run.id)


def test_everything_survives_reopening_the_file(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    first = Store(path)
    queued, _ = first.create_run("c-epoll", {"connections": 10})
    running, _ = first.create_run("c-epoll", {"connections": 20})
    first.claim_next()  # takes `queued`
    first.finish(queued.id, "done", "done", {"summary": {"qps": 1}}, result={"qps": 1})
    first.claim_next()  # takes `running`, then the process "dies"

    again = Store(path)
    assert again.get_run(queued.id).result == {"qps": 1}  # type: ignore[union-attr]
    assert again.fail_interrupted("interrupted") == [running.id]
    interrupted = again.get_run(running.id)
    assert interrupted is not None and interrupted.status == "failed"
    assert again.events_after(running.id)[-1].data["reason"] == "interrupted"


def test_runner_status_round_trips(store: Store) -> None:
    assert store.runner_status() is None
    store.put_runner_status({"docker": {"reachable": True}})
    status = store.runner_status()
    assert status is not None and status[1] == {"docker": {"reachable": True}}
