"""On SQLite, which has no signal between processes, one poll per API process tells every run
stream that its run moved: thirty streams cost one read of the store, not thirty."""

import asyncio
import threading
import time
from contextlib import AsyncExitStack

import pytest

from c10klab import news as news_module
from c10klab.news import News, run_topic
from c10klab.runs.schemas import RunRequest
from c10klab.runs.store import RunStore
from tests.results.figures import progress
from tests.runs.leases import claim

STREAMS = 30


@pytest.fixture
def on_sqlite(database_url: str) -> None:
    if database_url:
        pytest.skip("PostgreSQL's streams are woken by NOTIFY (test_news.py)")


@pytest.mark.usefixtures("on_sqlite")
def test_one_poll_wakes_every_stream_of_a_run_that_moved(
    store: RunStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Were each stream polling on its own, none would look again within a minute.
    monkeypatch.setattr(news_module, "LISTENING_CHECK_S", 60.0)
    moving, _ = store.create_run(RunRequest(server="c-epoll"))
    still, _ = store.create_run(RunRequest(server="c-epoll"))
    lease = claim(store)
    assert lease.run_id == moving.id
    reads: list[list[str]] = []

    def counted(run_ids: list[str]) -> dict[str, int]:
        reads.append(run_ids)
        return store.latest_seqs(run_ids)

    async def streams() -> tuple[list[float], int, bool]:
        news = News(run_seqs=counted)
        await news.start()
        try:
            async with AsyncExitStack() as stack:
                moving_woken = [
                    await stack.enter_async_context(news.subscription(run_topic(moving.id)))
                    for _ in range(STREAMS)
                ]
                still_woken = await stack.enter_async_context(
                    news.subscription(run_topic(still.id))
                )
                await asyncio.sleep(3 * news_module.POLL_INTERVAL_S)  # first sight wakes
                for woken in [*moving_woken, still_woken]:
                    woken.clear()
                before = len(reads)
                started = time.monotonic()
                threading.Timer(0.2, store.append_event, (lease, progress(0.5))).start()
                waits = await asyncio.gather(
                    *(timed(news, woken, started) for woken in moving_woken)
                )
                return waits, len(reads) - before, still_woken.is_set()
        finally:
            await news.close()

    waits, polls, still_woken = asyncio.run(streams())
    assert all(0.2 <= w < 2 for w in waits), waits
    # One read per poll for all 31 streams, not one per stream.
    assert polls <= 2 / news_module.POLL_INTERVAL_S, polls
    assert all(sorted(r) == sorted({moving.id, still.id}) for r in reads), reads[-1]
    assert not still_woken, "a run that did not move wakes no stream"


async def timed(news: News, woken: asyncio.Event, started: float) -> float:
    await news.wait(woken)
    return time.monotonic() - started
