"""Run events reach every API process through PostgreSQL's LISTEN/NOTIFY, without polling.
These run in the PostgreSQL pass (`pytest --store postgresql`, part of make test-backend)."""

import asyncio
import json
import os
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from c10klab import news as news_module
from c10klab.news import News, run_topic
from c10klab.runs.schemas import RunRequest
from c10klab.runs.store import RunStore
from tests.results.figures import a_result, done, progress, started
from tests.runs.leases import claim
from tests.serving import free_port

pytestmark = pytest.mark.usefixtures("on_postgresql")

BACKEND = Path(__file__).resolve().parents[2]


@pytest.fixture
def on_postgresql(database_url: str) -> None:
    if not database_url:
        pytest.skip("LISTEN/NOTIFY is PostgreSQL's: run with --store postgresql")


def test_a_stream_is_woken_by_news_not_by_polling(
    database_url: str, store: RunStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Were it polling, the stream would look again only after a minute.
    monkeypatch.setattr(news_module, "LISTENING_CHECK_S", 60.0)
    run, _ = store.create_run(RunRequest(server="c-epoll"))
    lease = claim(store)

    async def woken_after() -> float:
        news = News(database_url)
        await news.start()
        try:
            while not news._listening:  # the LISTEN is in place
                await asyncio.sleep(0.01)
            async with news.subscription(run_topic(run.id)) as woken:
                started = time.monotonic()
                threading.Timer(0.2, store.append_event, (lease, progress(0.5))).start()
                await news.wait(woken)
                return time.monotonic() - started
        finally:
            await news.close()

    assert 0.2 <= asyncio.run(woken_after()) < 5


def start_api(database_url: str, tmp_path: Path, name: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = os.environ | {
        "C10K_DATABASE_URL": database_url,
        "C10K_DB_PATH": str(tmp_path / "unused.sqlite3"),
        "C10K_PORT": str(port),
    }
    log = (tmp_path / f"{name}.log").open("wb")
    api = subprocess.Popen(
        [sys.executable, "-m", "c10klab", "api"], cwd=BACKEND, env=env, stdout=log, stderr=log
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"{base}/api/health", timeout=1)
            return api, base
        except OSError:
            assert api.poll() is None, (tmp_path / f"{name}.log").read_text()
            assert time.monotonic() < deadline, "the API did not start"
            time.sleep(0.1)


@pytest.fixture
def two_apis(database_url: str, tmp_path: Path) -> Iterator[tuple[str, str]]:
    started = [start_api(database_url, tmp_path, name) for name in ("api-a", "api-b")]
    yield started[0][1], started[1][1]
    for api, _ in started:
        api.terminate()
        api.wait(timeout=10)


def test_a_stream_on_one_api_sees_a_run_made_through_the_other(
    two_apis: tuple[str, str], store: RunStore
) -> None:
    a, b = two_apis
    created = httpx.post(f"{a}/api/runs", json={"server": "c-epoll"}, headers={"Origin": a})
    assert created.status_code == 202, created.text
    run_id = created.json()["id"]
    seen: list[tuple[str, float]] = []

    def follow() -> None:
        with httpx.stream("GET", f"{b}/api/runs/{run_id}/events", timeout=30) as stream:
            for line in stream.iter_lines():
                if line.startswith("event: "):
                    seen.append((line.removeprefix("event: "), time.monotonic()))

    reader = threading.Thread(target=follow)
    reader.start()
    while not seen:  # its `queued` event, as API a wrote it
        time.sleep(0.01)
    # The runner's part, straight into the store.
    lease = claim(store, "runner-x")
    store.append_event(lease, started())
    written = time.monotonic()
    store.finish(lease, "done", done(a_result(1)))
    reader.join(timeout=30)
    assert [event for event, _ in seen] == ["queued", "started", "done"]
    assert seen[-1][1] - written < 2, "API b learnt of the events late"
    assert json.loads(httpx.get(f"{b}/api/runs/{run_id}").text)["status"] == "done"
