"""Telling the streams that something they show has changed.

Two kinds of news: a run has new events (its event stream, a sweep's points, a class that
presents it), and a class has changed (who is in it, whether it is paused or has ended, what it
is shown, one of its runs has ended). A store announces news in the transaction that makes the
change (`announce`); on PostgreSQL that is `NOTIFY`, delivered when the transaction commits, and
each API process keeps one connection that LISTENs and wakes the streams concerned at once: any
number of API processes stream anything, with no polling. On SQLite there is no such signal
between processes: one task per process asks every POLL_INTERVAL_S which of the runs streamed
has new events (`run_seqs`, one query for all of them) and wakes those runs' streams, so thirty
streams cost one query, not thirty; a class's stream looks again itself. If the listening
connection is lost, streams fall back to polling until it is back.
"""

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from typing import NamedTuple

import psycopg
from sqlalchemy import Connection, func, select
from sqlalchemy.engine import make_url

from c10klab.db import database_url

log = logging.getLogger("c10klab.news")

POLL_INTERVAL_S = 0.2  # SQLite, or PostgreSQL while the listener is down
# Listening, a stream still looks this often: a safety net, and the keep-alive's pace.
LISTENING_CHECK_S = 5.0
RECONNECT_S = 2.0


class Topic(NamedTuple):
    """What news is about: a NOTIFY channel and the id it names."""

    channel: str
    key: str


RUN_CHANNEL = "c10k_events"  # a run has new events; the payload is its id
CLASS_CHANNEL = "c10k_classes"  # a class's stream has something new; the payload is its id
CHANNELS = (RUN_CHANNEL, CLASS_CHANNEL)


def run_topic(run_id: str) -> Topic:
    return Topic(RUN_CHANNEL, run_id)


def class_topic(class_id: str) -> Topic:
    return Topic(CLASS_CHANNEL, class_id)


def announce(db: Connection, topic: Topic) -> None:
    """News of `topic`, sent when `db`'s transaction commits (and not at all if it rolls
    back). On SQLite, nothing: its readers poll."""
    if db.dialect.name == "postgresql":
        db.execute(select(func.pg_notify(topic.channel, topic.key)))


# For the runs given, the number of each one's newest event (RunStore.latest_seqs).
RunSeqs = Callable[[list[str]], dict[str, int]]


class News:
    def __init__(self, url: str = "", run_seqs: RunSeqs | None = None) -> None:
        """`url`: the store's PostgreSQL URL; empty (or SQLite) for polling. `run_seqs`: how to
        read which runs moved, for one poll on SQLite to wake every run stream concerned."""
        self._url = database_url(url) if url else ""
        self._waiting: dict[Topic, set[asyncio.Event]] = defaultdict(set)
        self._listening = False
        self._task: asyncio.Task[None] | None = None
        self._run_seqs = None if self.listens else run_seqs
        # Subscriptions the runs' watcher wakes (every topic of theirs a run's): they need not
        # look again themselves but as a safety net.
        self._watched: set[asyncio.Event] = set()

    @property
    def listens(self) -> bool:
        return self._url.startswith("postgresql")

    @property
    def pushed(self) -> bool:
        """Whether news arrives as it happens right now (rather than being polled for)."""
        return self._listening

    async def start(self) -> None:
        if self.listens:
            self._task = asyncio.create_task(self._listen_forever(), name="news")
        elif self._run_seqs is not None:
            self._task = asyncio.create_task(self._watch_runs_forever(self._run_seqs), name="news")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    @contextlib.asynccontextmanager
    async def subscription(self, *topics: Topic) -> AsyncIterator[asyncio.Event]:
        """An event set whenever there is news of any of `topics`. Clear it before each read
        of the store and wait on it after: news arriving in between is kept, not lost."""
        woken = asyncio.Event()
        for topic in topics:
            self._waiting[topic].add(woken)
        watching_runs = self._task is not None and not self.listens
        if watching_runs and topics and all(t.channel == RUN_CHANNEL for t in topics):
            self._watched.add(woken)
        try:
            yield woken
        finally:
            self._watched.discard(woken)
            for topic in topics:
                self._waiting[topic].discard(woken)
                if not self._waiting[topic]:
                    del self._waiting[topic]

    async def wait(self, woken: asyncio.Event, at_most: float | None = None) -> float:
        """Until there is news (or it is time to look anyway, or `at_most` seconds have
        passed); returns the seconds waited at most, for the caller's keep-alive."""
        pushed = self._listening or woken in self._watched
        timeout = LISTENING_CHECK_S if pushed else POLL_INTERVAL_S
        if at_most is not None:
            timeout = min(timeout, at_most)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(woken.wait(), timeout)
        return timeout

    def _wake(self, topic: Topic) -> None:
        for woken in self._waiting.get(topic, ()):
            woken.set()

    async def _watch_runs_forever(self, run_seqs: RunSeqs) -> None:
        """SQLite's news of runs: every POLL_INTERVAL_S, one read of which streamed runs have
        new events; their streams are woken. A run first watched wakes its streams once (an
        event may have come between their own read and this one)."""
        seen: dict[str, int] = {}
        while True:
            await asyncio.sleep(POLL_INTERVAL_S)
            runs = sorted({topic.key for topic in self._waiting if topic.channel == RUN_CHANNEL})
            if not runs:
                seen.clear()
                continue
            try:
                latest = await asyncio.to_thread(run_seqs, runs)
            except Exception as error:  # the store is busy or gone: streams look every 5 s
                log.warning("reading which runs moved failed (%s)", error)
                continue
            for run_id in runs:
                newest = latest.get(run_id, 0)
                if seen.get(run_id) != newest:
                    self._wake(run_topic(run_id))
            seen = {run_id: latest.get(run_id, 0) for run_id in runs}

    async def _listen_forever(self) -> None:
        conninfo = make_url(self._url).set(drivername="postgresql").render_as_string(False)
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    conninfo, autocommit=True
                ) as connection:
                    for channel in CHANNELS:
                        await connection.execute(f"LISTEN {channel}")
                    self._listening = True
                    for waiting in list(self._waiting.values()):  # missed while down
                        for woken in waiting:
                            woken.set()
                    async for notice in connection.notifies():
                        self._wake(Topic(notice.channel, notice.payload))
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database restarted, or the network dropped
                log.warning("listening for news failed (%s); polling meanwhile", error)
            finally:
                self._listening = False
            await asyncio.sleep(RECONNECT_S)
