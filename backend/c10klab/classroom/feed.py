"""The class stream: what every student of a class sees live, read once per class and fanned out.

Thirty students following one presentation would be thirty streams reading the same rows. So
each API process keeps one `ClassFeed` per class that has a stream open: it reads the store when
there is news of the class or of the run it presents (c10klab.news: pushed by PostgreSQL's
NOTIFY, polled on SQLite), turns what changed into events of the stream's contract
(ClassStreamEvent), and hands them to every open stream. It also keeps the events a late joiner
needs (the class, the presentation, every event of the presented run so far, the presented
sweep's table), so a stream that opens, or reopens after a reload, starts with the state of
things and then follows along, with nothing missed or doubled: taking that snapshot and joining
the listeners happen in one step of the event loop. The streams are FastAPI's (c10klab.sse):
framing, keep-alive and headers are the same as the run streams'.

The feed ends when its last stream closes. Open streams are also the students' presence: the
feed tells the store who is connected, and keeps telling it every few seconds (a count of open
streams per person, so two tabs are one person online).
"""

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from fastapi.sse import ServerSentEvent
from pydantic import ValidationError

from c10klab import sse
from c10klab.classroom.schemas import (
    ClassEvent,
    Ended,
    EndedEvent,
    Live,
    LiveEvent,
    PresentationEvent,
    PresentationOut,
    RelayedRunEvent,
    RunEventEvent,
    SweepTableEvent,
)
from c10klab.classroom.store import ClassroomStore
from c10klab.news import News, Topic, class_topic, run_topic
from c10klab.people.schemas import ClassOut
from c10klab.people.store import Person
from c10klab.runs.store import Event
from c10klab.sweeps.schemas import SweepOut

log = logging.getLogger("c10klab.classroom")

# Polled (SQLite), a sweep's table costs a read per point: it is read at most this often.
SWEEP_POLL_S = 1.0
PRESENCE_TOUCH_S = 5.0  # well inside classroom.store.ONLINE_WITHIN_S

ClassStreamItem = (
    ClassEvent | PresentationEvent | RunEventEvent | SweepTableEvent | LiveEvent | EndedEvent
)


def frame(event: ClassStreamItem) -> ServerSentEvent:
    """An event without an id: a reconnecting stream starts over from the snapshot. A
    presentation that ended is sent as `null` (an SSE event with no data is never delivered)."""
    if event.data is None:
        return ServerSentEvent(event=event.type, raw_data="null")
    return ServerSentEvent(event=event.type, data=event.data)


def _relayed(event: Event) -> ServerSentEvent | None:
    """A stored event of the presented run as the class stream relays it, checked against the
    contract. One the contract does not describe (a runner's bug) is logged and left out: the
    run's own stream still sends it as stored, and the class's must go on."""
    try:
        relayed = RelayedRunEvent(
            run_id=event.run_id, seq=event.seq, type=event.type, data=event.data
        )
    except ValidationError as mismatch:
        log.error(
            "run %s: event %s does not match the contract: %s", event.run_id, event.seq, mismatch
        )
        return None
    return frame(RunEventEvent(type="run_event", data=relayed))


@dataclass(frozen=True)
class ClassState:
    """What a class's stream shows, read in one go. `run_events` are the presented run's
    events after the seq asked for; `sweep` the presented sweep's table (None unless it was
    asked for)."""

    class_: ClassOut
    presentation: PresentationOut | None
    ended: bool
    run_events: list[Event]
    sweep: SweepOut | None
    # Students still in the class: a removed one's stream is closed.
    student_ids: frozenset[str]
    live: Live  # the timer, the newest announcements, the questions revealed


# (class id, the presented run's last seq relayed, whether to read the sweep's table) -> state
ReadState = Callable[[str, int, bool], ClassState]


@dataclass(eq=False)
class Listener:
    person: Person
    queue: asyncio.Queue[ServerSentEvent | None] = field(default_factory=asyncio.Queue)


class ClassFeed:
    def __init__(
        self, class_id: str, read: ReadState, classroom: ClassroomStore, news: News
    ) -> None:
        self.class_id = class_id
        self._read = read
        self._classroom = classroom
        self._news = news
        self.listeners: set[Listener] = set()
        self._class: ClassOut | None = None
        self._presentation: PresentationOut | None = None
        self._run_frames: list[ServerSentEvent] = []
        self._run_seq = 0
        self._sweep: SweepOut | None = None
        self._live: Live | None = None
        self._ended = False
        self._reread = False
        self.has_read = False  # its first read is in (and was broadcast)

    def snapshot(self) -> list[ServerSentEvent]:
        assert self._class is not None, "a snapshot is taken once the first read is in"
        frames = [
            frame(ClassEvent(type="class", data=self._class)),
            frame(PresentationEvent(type="presentation", data=self._presentation)),
            *self._run_frames,
        ]
        if self._live is not None:
            frames.append(frame(LiveEvent(type="live", data=self._live)))
        if self._sweep is not None:
            frames.append(frame(SweepTableEvent(type="sweep", data=self._sweep)))
        if self._ended:
            frames.append(frame(EndedEvent(type="ended", data=Ended())))
        return frames

    def _broadcast(self, frames: list[ServerSentEvent]) -> None:
        for listener in self.listeners:
            for one in frames:
                listener.queue.put_nowait(one)

    def _apply(self, state: ClassState, sweep_read: bool) -> list[ServerSentEvent]:
        """Take in a fresh read; returns the events it adds to what the class has seen."""
        new: list[ServerSentEvent] = []
        if state.class_ != self._class:
            self._class = state.class_
            new.append(frame(ClassEvent(type="class", data=state.class_)))
        if state.live != self._live:
            self._live = state.live
            new.append(frame(LiveEvent(type="live", data=state.live)))
        if state.presentation != self._presentation or not self.has_read:
            self._presentation = state.presentation
            self._run_frames, self._run_seq, self._sweep = [], 0, None
            self._reread = True  # what was read with it belongs to the previous presentation
            new.append(frame(PresentationEvent(type="presentation", data=state.presentation)))
            return new
        for event in state.run_events:
            self._run_seq = event.seq
            relayed = _relayed(event)
            if relayed is not None:
                self._run_frames.append(relayed)
                new.append(relayed)
        if sweep_read and state.sweep is not None and state.sweep != self._sweep:
            self._sweep = state.sweep
            new.append(frame(SweepTableEvent(type="sweep", data=state.sweep)))
        if state.ended and not self._ended:
            self._ended = True
            new.append(frame(EndedEvent(type="ended", data=Ended())))
        return new

    def _topics(self) -> tuple[Topic, ...]:
        """What news this feed reads again on: its class's, and the presented run's."""
        run_id = self._presentation.run_id if self._presentation else None
        class_news = class_topic(self.class_id)
        return (class_news, run_topic(run_id)) if run_id else (class_news,)

    async def run(self, on_empty: Callable[["ClassFeed"], None]) -> None:
        try:
            while self.listeners:
                topics = self._topics()
                # Subscribed before reading: news of a change made after the read wakes it.
                async with self._news.subscription(*topics) as woken:
                    await self._follow(topics, woken)
        finally:
            on_empty(self)

    async def _follow(self, topics: tuple[Topic, ...], woken: asyncio.Event) -> None:
        """Read, broadcast and wait for news, while the feed has listeners and the news it
        needs is still `topics` (a new presentation names another run)."""
        loop = asyncio.get_running_loop()
        last_sweep = last_touch = -PRESENCE_TOUCH_S
        while self.listeners:
            woken.clear()
            now = loop.time()
            # Pushed news wakes the feed only when something changed: read the table each
            # time. Polled, read it less often than the rest.
            sweep_due = self._news.pushed or now - last_sweep >= SWEEP_POLL_S
            try:
                state = await asyncio.to_thread(self._read, self.class_id, self._run_seq, sweep_due)
            except Exception:  # a locked or busy store: try again at the next look
                log.exception("reading class %s for its stream failed", self.class_id)
                await self._news.wait(woken)
                continue
            if sweep_due:
                last_sweep = now
            self._reread = False
            self._broadcast(self._apply(state, sweep_due))
            self.has_read = True
            self._close_removed(state.student_ids)
            if self._ended:
                self.close_all()
            if now - last_touch >= PRESENCE_TOUCH_S and self.listeners:
                last_touch = now
                people = sorted({x.person.id for x in self.listeners})
                await asyncio.to_thread(self._classroom.touch, people)
            if self._reread:  # a new presentation: its run's events and table at once
                if self._topics() != topics:
                    return  # ... under a subscription to its run's news
                continue
            await self._news.wait(woken, at_most=PRESENCE_TOUCH_S)  # presence is kept touched

    def _close_removed(self, student_ids: frozenset[str]) -> None:
        for listener in list(self.listeners):
            if listener.person.kind == "student" and listener.person.id not in student_ids:
                listener.queue.put_nowait(None)
                self.listeners.discard(listener)

    def close_all(self) -> None:
        for listener in self.listeners:
            listener.queue.put_nowait(None)
        self.listeners.clear()


class ClassHub:
    """The feeds of one API process, by class."""

    def __init__(self, read: ReadState, classroom: ClassroomStore, news: News) -> None:
        self._read = read
        self._classroom = classroom
        self._news = news
        self._feeds: dict[str, ClassFeed] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def _forget(self, feed: ClassFeed) -> None:
        if self._feeds.get(feed.class_id) is feed:
            del self._feeds[feed.class_id]

    def _join(self, class_id: str, listener: Listener) -> None:
        """Join the class's feed, starting it if there is none. Synchronous on purpose: no
        event can be broadcast between taking the snapshot and joining, and a feed cannot
        end between being found and being joined (it ends only with no listeners)."""
        feed = self._feeds.get(class_id)
        if feed is None:
            # Its first read is broadcast whole: that is the new listener's snapshot.
            feed = ClassFeed(class_id, self._read, self._classroom, self._news)
            self._feeds[class_id] = feed
            feed.listeners.add(listener)
            task = asyncio.create_task(feed.run(self._forget), name=f"class-feed-{class_id}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            return
        if feed.has_read:
            for one in feed.snapshot():
                listener.queue.put_nowait(one)
        feed.listeners.add(listener)

    async def close(self) -> None:
        """Stop every feed (the API is stopping): their streams end."""
        for feed in list(self._feeds.values()):
            feed.close_all()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def _leave(self, class_id: str, listener: Listener) -> None:
        feed = self._feeds.get(class_id)
        if feed is not None:
            feed.listeners.discard(listener)

    async def stream(self, class_id: str, person: Person) -> AsyncIterator[ServerSentEvent]:
        """One person's class stream, until the class ends, the person is removed from it, or
        the client goes. Keep-alive comments are FastAPI's."""
        await asyncio.to_thread(self._classroom.stream_opened, person.id)
        listener = Listener(person)
        self._join(class_id, listener)
        try:
            yield sse.RETRY
            while (one := await listener.queue.get()) is not None:
                yield one
        finally:
            self._leave(class_id, listener)
            # Not awaited: this may run while the stream's task is being cancelled.
            asyncio.get_running_loop().run_in_executor(
                None, self._classroom.stream_closed, person.id
            )
