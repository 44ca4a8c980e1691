"""The class feed relays the presented run's events checked against the contract: one a runner
got wrong is left out, and the class's stream goes on with the next."""

from pathlib import Path

from c10klab.classroom.feed import ClassFeed, ClassState
from c10klab.classroom.schemas import Live, PresentationOut
from c10klab.classroom.store import ClassroomStore
from c10klab.news import News
from c10klab.people.schemas import ClassOut
from c10klab.runs.store import Event
from tests.results.figures import progress, started

RUN = "r" * 32


def state(*events: Event) -> ClassState:
    shown = PresentationOut(
        lesson="01-c10k-problem",
        lesson_title="The C10K problem",
        experiment=None,
        title="Look",
        titles={"en": "Look", "zh": "Look"},
        lesson_titles={"en": "The C10K problem", "zh": "C10K 问题"},
        run_id=RUN,
        sweep_id=None,
        spotlight=None,
        started_at="2026-12-07T10:00:00+00:00",
    )
    klass = ClassOut(
        id="c1", name="Systems", join_code="", created_at="", ended_at=None, students=1
    )
    quiet = Live(timer=None, announcements=[], revealed=[])
    return ClassState(klass, shown, False, list(events), None, frozenset(), quiet)


def stored(seq: int, type_: str, data: dict[str, object]) -> Event:
    return Event(RUN, seq, type_, data)


def test_an_event_the_contract_does_not_describe_is_left_out_and_the_rest_relayed(
    tmp_path: Path,
) -> None:
    feed = ClassFeed("c1", lambda *_: state(), ClassroomStore(tmp_path / "store.sqlite3"), News())
    feed._apply(state(), sweep_read=False)  # the presentation, first
    feed.has_read = True
    good = started().data.model_dump(mode="json")
    later = progress(1.0).data.model_dump(mode="json")
    relayed = feed._apply(
        state(
            stored(1, "started", good),
            stored(2, "progress", {"t_s": "soon"}),
            stored(3, "progress", later),
        ),
        sweep_read=False,
    )
    assert [(f.event, f.data.root.seq) for f in relayed] == [("run_event", 1), ("run_event", 3)]
    assert feed._run_seq == 3  # the bad one is not read again
