"""Telling event streams that a run has new events.

On PostgreSQL every event appended sends `NOTIFY c10k_events, '<run id>'` in its transaction
(delivered when it commits), and each API process keeps one connection that LISTENs and wakes
the streams of that run at once: any number of API processes stream any run, with no polling.
On SQLite there is no such signal between processes, so a stream looks again every
POLL_INTERVAL_S. If the listening connection is lost, streams fall back to polling until it is
back.
"""

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import AsyncIterator

import psycopg
from sqlalchemy.engine import make_url

from c10klab.db import database_url
from c10klab.runs.store import NEWS_CHANNEL

log = logging.getLogger("c10klab.news")

POLL_INTERVAL_S = 0.2  # SQLite, or PostgreSQL while the listener is down
# Listening, a stream still looks this often: a safety net, and the keep-alive's pace.
LISTENING_CHECK_S = 5.0
RECONNECT_S = 2.0


class RunNews:
    def __init__(self, url: str = "") -> None:
        """`url`: the store's PostgreSQL URL; empty (or SQLite) for polling."""
        self._url = database_url(url) if url else ""
        self._waiting: dict[str, set[asyncio.Event]] = defaultdict(set)
        self._listening = False
        self._task: asyncio.Task[None] | None = None

    @property
    def listens(self) -> bool:
        return self._url.startswith("postgresql")

    async def start(self) -> None:
        if self.listens:
            self._task = asyncio.create_task(self._listen_forever(), name="run-news")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    @contextlib.asynccontextmanager
    async def subscription(self, run_id: str) -> AsyncIterator[asyncio.Event]:
        """An event set whenever `run_id` gets new events. Clear it before each read of the
        store and wait on it after: news arriving in between is kept, not lost."""
        woken = asyncio.Event()
        self._waiting[run_id].add(woken)
        try:
            yield woken
        finally:
            self._waiting[run_id].discard(woken)
            if not self._waiting[run_id]:
                del self._waiting[run_id]

    async def wait(self, woken: asyncio.Event) -> float:
        """Until there is news (or it is time to look anyway); returns the seconds waited
        at most, for the caller's keep-alive."""
        timeout = LISTENING_CHECK_S if self._listening else POLL_INTERVAL_S
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(woken.wait(), timeout)
        return timeout

    def _wake(self, run_id: str) -> None:
        for woken in self._waiting.get(run_id, ()):
            woken.set()

    async def _listen_forever(self) -> None:
        conninfo = make_url(self._url).set(drivername="postgresql").render_as_string(False)
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    conninfo, autocommit=True
                ) as connection:
                    await connection.execute(f"LISTEN {NEWS_CHANNEL}")
                    self._listening = True
                    for waiting in list(self._waiting.values()):  # missed while down
                        for woken in waiting:
                            woken.set()
                    async for notice in connection.notifies():
                        self._wake(notice.payload)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database restarted, or the network dropped
                log.warning("listening for run events failed (%s); polling meanwhile", error)
            finally:
                self._listening = False
            await asyncio.sleep(RECONNECT_S)
