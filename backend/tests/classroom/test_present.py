"""Presenting: what the instructor shows reaches every student's class stream, live, and a
student who joins late (or reloads) starts from where the presentation is."""

from typing import Any

from c10klab.classroom.schemas import RelayedDoneEvent, RelayedRunEvent
from tests.results.figures import done, progress, started
from tests.runs.leases import claim

from .conftest import ClassStream, Course, make_class, result

LESSON = "01-c10k-problem"


def first_experiment(course: Course) -> dict[str, Any]:
    lesson = course.browser().get(f"/api/lessons/{LESSON}").json()
    experiment: dict[str, Any] = lesson["experiments"][0]
    return experiment


def relayed(stream: ClassStream) -> list[tuple[int, str]]:
    return [(e["seq"], e["type"]) for e in stream.of("run_event")]


def test_a_presented_run_reaches_every_student_and_a_late_joiner(course: Course) -> None:
    grace = course.instructor()
    klass = make_class(grace)
    students = [course.student(klass["join_code"], name) for name in ("Ana", "Bo", "Cy")]
    streams = [ClassStream(course, s, klass["id"]) for s in students]
    for stream in streams:  # on connect: the class, and nothing presented
        assert stream.wait_for(lambda s: s.of("presentation") == [None]), stream.frames
        assert stream.of("class")[0]["name"] == "Systems, Tuesday"

    experiment = first_experiment(course)
    run_id = grace.post(
        "/api/runs", json={"server": "c-epoll", "lesson": LESSON, "experiment": experiment["key"]}
    ).json()["id"]
    shown = grace.put(
        f"/api/classes/{klass['id']}/presentation",
        json={"lesson": LESSON, "experiment": experiment["key"], "run_id": run_id},
    )
    assert shown.status_code == 200, shown.text
    assert shown.json()["title"] == experiment["title"]
    assert shown.json()["spotlight"] is None  # the instructor's own run

    lease = claim(course.store)
    course.store.append_event(lease, started())
    course.store.append_event(lease, progress(1.0, 1000.0))
    for stream in streams:
        assert stream.wait_for(
            lambda s: relayed(s) == [(1, "queued"), (2, "started"), (3, "progress")]
        )
        assert stream.of("presentation")[-1]["run_id"] == run_id
        assert stream.of("presentation")[-1]["lesson_title"]

    # Bo reloads, Dee joins late: both start from the presentation and every event so far.
    streams[1].close()
    dee = course.student(klass["join_code"], "Dee")
    late = [ClassStream(course, students[1], klass["id"]), ClassStream(course, dee, klass["id"])]
    course.store.append_event(lease, progress(2.0, 1100.0))
    course.store.finish(lease, "done", done(result(1100)))
    everything = [(1, "queued"), (2, "started"), (3, "progress"), (4, "progress"), (5, "done")]
    for stream in (streams[0], streams[2], *late):
        assert stream.wait_for(lambda s: relayed(s) == everything), relayed(stream)
    for stream in late:  # their first frames already show the presentation
        assert stream.of("presentation")[0]["run_id"] == run_id
    # Each relayed event is what the contract says: the run's event, with its run and number.
    frames = [RelayedRunEvent.model_validate(e).root for e in late[1].of("run_event")]
    assert isinstance(frames[-1], RelayedDoneEvent) and frames[-1].data.summary.qps == 1100
    assert {f.run_id for f in frames} == {run_id}

    # A page opened now reads what is presented.
    now = grace.get(f"/api/classes/{klass['id']}/presentation").json()
    assert (now["run_id"], now["experiment"]) == (run_id, experiment["key"])
    assert students[0].get(f"/api/classes/{klass['id']}/presentation").json() == now
    assert grace.delete(f"/api/classes/{klass['id']}/presentation").status_code == 204
    assert grace.get(f"/api/classes/{klass['id']}/presentation").json() is None
    for stream in late:
        assert stream.wait_for(lambda s: s.of("presentation")[-1:] == [None])


def test_spotlighting_a_students_run_names_them(course: Course) -> None:
    grace = course.instructor()
    klass = make_class(grace)
    ana = course.student(klass["join_code"], "Ana")
    bo = course.student(klass["join_code"], "Bo")
    run_id = ana.post("/api/runs", json={"server": "c-epoll"}).json()["id"]
    stream = ClassStream(course, bo, klass["id"])
    shown = grace.put(
        f"/api/classes/{klass['id']}/presentation", json={"lesson": LESSON, "run_id": run_id}
    ).json()
    assert shown["spotlight"]["name"] == "Ana"
    assert stream.wait_for(lambda s: s.of("presentation")[-1:] not in ([], [None]))
    assert stream.of("presentation")[-1]["spotlight"]["name"] == "Ana"
    assert stream.wait_for(lambda s: relayed(s) == [(1, "queued")])


def test_a_presented_sweep_sends_its_table(course: Course) -> None:
    grace = course.instructor()
    klass = make_class(grace)
    ana = course.student(klass["join_code"], "Ana")
    sweep = grace.post(
        "/api/sweeps",
        json={"servers": ["c-epoll", "c-poll"], "vary": "connections", "values": [10, 20]},
    ).json()
    stream = ClassStream(course, ana, klass["id"])
    grace.put(
        f"/api/classes/{klass['id']}/presentation", json={"lesson": LESSON, "sweep_id": sweep["id"]}
    )
    assert stream.wait_for(lambda s: bool(s.of("sweep")))
    table = stream.of("sweep")[-1]
    assert table["id"] == sweep["id"] and len(table["points"]) == 4
    course.store.finish(claim(course.store), "done", done(result(500)))
    assert stream.wait_for(lambda s: s.of("sweep")[-1]["points"][0]["status"] == "done", 5)


def test_what_can_be_presented(course: Course) -> None:
    grace = course.instructor()
    klass = make_class(grace)
    url = f"/api/classes/{klass['id']}/presentation"
    linus = course.instructor("Linus")
    others = linus.post("/api/runs", json={"server": "c-epoll"}).json()["id"]
    cases = [
        ({"lesson": "99-nothing"}, "no lesson"),
        ({"lesson": LESSON, "experiment": "0123456789ab"}, "has no experiment"),
        ({"lesson": LESSON, "run_id": "nope"}, "no run"),
        ({"lesson": LESSON, "run_id": others}, "your own runs and those of this class"),
        ({"lesson": LESSON, "run_id": others, "sweep_id": "x"}, "not both"),
    ]
    for body, says in cases:
        answer = grace.put(url, json=body)
        assert answer.status_code == 422 and says in answer.json()["detail"], answer.text
    ana = course.student(klass["join_code"], "Ana")
    assert ana.put(url, json={"lesson": LESSON}).status_code == 403
    assert linus.put(url, json={"lesson": LESSON}).status_code == 404
