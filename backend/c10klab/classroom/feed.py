"""The class stream: what every student of a class sees live, read once per class and fanned out.

Thirty students following one presentation would be thirty streams polling the same rows. So
each API process keeps one `ClassFeed` per class that has a stream open: it polls the store a
few times a second, turns what changed into SSE frames, and hands them to every open stream. It
also keeps the frames a late joiner needs (the class, the presentation, every event of the
presented run so far, the presented sweep's table), so a stream that opens, or reopens after a
reload, starts with the state of things and then follows along, with nothing missed or doubled:
taking that snapshot and joining the listeners happen in one step of the event loop.

The feed ends when its last stream closes. Open streams are also the students' presence: the
feed tells the store who is connected, and keeps telling it every few seconds (a count of open
streams per person, so two tabs are one person online).
"""

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from c10klab.classroom.store import ClassroomStore
from c10klab.people.store import Person

log = logging.getLogger("c10klab.classroom")

POLL_S = 0.25  # how soon a change reaches the class
SWEEP_POLL_S = 1.0  # a sweep's table costs a read per point: read it less often
PRESENCE_TOUCH_S = 5.0  # well inside classroom.store.ONLINE_WITHIN_S
KEEPALIVE_S = 15.0


def frame(event: str, data: Any) -> str:
    """An SSE frame without an id: a reconnecting stream starts over from the snapshot."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


NOTHING_READ = object()


@dataclass(frozen=True)
class ClassState:
    """What a class's stream shows, read in one go. `class_` and `presentation` are the API's
    JSON shapes; `run_events` are the presented run's events after the seq asked for;
    `sweep` the presented sweep's table (None unless it was asked for)."""

    class_: dict[str, Any]
    presentation: dict[str, Any] | None
    ended: bool
    run_events: list[dict[str, Any]]
    sweep: dict[str, Any] | None
    # Students still in the class: a removed one's stream is closed.
    student_ids: frozenset[str]


# (class id, the presented run's last seq relayed, whether to read the sweep's table) -> state
ReadState = Callable[[str, int, bool], ClassState]


@dataclass(eq=False)
class Listener:
    person: Person
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)


class ClassFeed:
    def __init__(self, class_id: str, read: ReadState, classroom: ClassroomStore) -> None:
        self.class_id = class_id
        self._read = read
        self._classroom = classroom
        self.listeners: set[Listener] = set()
        self._class_frame = ""
        self._presentation: object = NOTHING_READ  # so that the first read is always sent
        self._presentation_frame = ""
        self._run_frames: list[str] = []
        self._run_seq = 0
        self._sweep_frame: str | None = None
        self._ended = False
        self._reread = False
        self.has_read = False  # its first read is in (and was broadcast)

    def snapshot(self) -> list[str]:
        frames = [self._class_frame, self._presentation_frame, *self._run_frames]
        if self._sweep_frame:
            frames.append(self._sweep_frame)
        if self._ended:
            frames.append(frame("ended", {}))
        return frames

    def _broadcast(self, frames: list[str]) -> None:
        for listener in self.listeners:
            for text in frames:
                listener.queue.put_nowait(text)

    def _apply(self, state: ClassState, sweep_read: bool) -> list[str]:
        """Take in a fresh read; returns the frames it adds to what the class has seen."""
        new: list[str] = []
        class_frame = frame("class", state.class_)
        if class_frame != self._class_frame:
            self._class_frame = class_frame
            new.append(class_frame)
        if state.presentation != self._presentation:
            self._presentation = state.presentation
            self._presentation_frame = frame("presentation", state.presentation)
            self._run_frames, self._run_seq, self._sweep_frame = [], 0, None
            self._reread = True  # what was read with it belongs to the previous presentation
            new.append(self._presentation_frame)
            return new
        run_id = (state.presentation or {}).get("run_id")
        for event in state.run_events:
            relayed = frame("run_event", {"run_id": run_id, **event})
            self._run_frames.append(relayed)
            self._run_seq = event["seq"]
            new.append(relayed)
        if sweep_read and state.sweep is not None:
            sweep_frame = frame("sweep", state.sweep)
            if sweep_frame != self._sweep_frame:
                self._sweep_frame = sweep_frame
                new.append(sweep_frame)
        if state.ended and not self._ended:
            self._ended = True
            new.append(frame("ended", {}))
        return new

    async def run(self, on_empty: Callable[["ClassFeed"], None]) -> None:
        loop = asyncio.get_running_loop()
        last_sweep = last_touch = 0.0
        try:
            while True:
                now = loop.time()
                sweep_due = now - last_sweep >= SWEEP_POLL_S
                try:
                    state = await asyncio.to_thread(
                        self._read, self.class_id, self._run_seq, sweep_due
                    )
                except Exception:  # a locked or busy store: try again at the next tick
                    log.exception("reading class %s for its stream failed", self.class_id)
                    await asyncio.sleep(POLL_S)
                    continue
                if sweep_due:
                    last_sweep = now
                self._reread = False
                self._broadcast(self._apply(state, sweep_due))
                self.has_read = True
                self._close_removed(state.student_ids)
                if self._ended:
                    self.close_all()
                if not self.listeners:
                    return
                if now - last_touch >= PRESENCE_TOUCH_S:
                    last_touch = now
                    people = sorted({x.person.id for x in self.listeners})
                    await asyncio.to_thread(self._classroom.touch, people)
                if self._reread:  # a new presentation: its run's events and table at once
                    last_sweep = 0.0
                    continue
                await asyncio.sleep(POLL_S)
        finally:
            on_empty(self)

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

    def __init__(self, read: ReadState, classroom: ClassroomStore) -> None:
        self._read = read
        self._classroom = classroom
        self._feeds: dict[str, ClassFeed] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def _forget(self, feed: ClassFeed) -> None:
        if self._feeds.get(feed.class_id) is feed:
            del self._feeds[feed.class_id]

    def _join(self, class_id: str, listener: Listener) -> None:
        """Join the class's feed, starting it if there is none. Synchronous on purpose: no
        frame can be broadcast between taking the snapshot and joining, and a feed cannot
        end between being found and being joined (it ends only with no listeners)."""
        feed = self._feeds.get(class_id)
        if feed is None:
            # Its first read is broadcast whole: that is the new listener's snapshot.
            feed = self._feeds[class_id] = ClassFeed(class_id, self._read, self._classroom)
            task = asyncio.create_task(feed.run(self._forget), name=f"class-feed-{class_id}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        elif feed.has_read:
            for text in feed.snapshot():
                listener.queue.put_nowait(text)
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

    async def stream(self, class_id: str, person: Person) -> AsyncIterator[str]:
        """The SSE text of one person's class stream, until the class ends, the person is
        removed from it, or the client goes."""
        await asyncio.to_thread(self._classroom.stream_opened, person.id)
        listener = Listener(person)
        self._join(class_id, listener)
        try:
            yield "retry: 1000\n\n"
            while True:
                try:
                    text = await asyncio.wait_for(listener.queue.get(), KEEPALIVE_S)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                if text is None:
                    return
                yield text
        finally:
            self._leave(class_id, listener)
            # Not awaited: this may run while the stream's task is being cancelled.
            asyncio.get_running_loop().run_in_executor(
                None, self._classroom.stream_closed, person.id
            )
