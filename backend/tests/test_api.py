"""The read-only parts of the API, against the real content and catalog."""

from dataclasses import replace

from fastapi.testclient import TestClient
from sqlalchemy import update

from c10klab.hosts.store import DockerState, RunnerHost, RunnerStore
from c10klab.hosts.tables import runners as hosts
from c10klab.uncertainty import HostNoise


def test_lessons_and_one_lesson(client: TestClient) -> None:
    lessons = client.get("/api/lessons").json()
    assert [x["slug"] for x in lessons[:2]] == ["00-before-you-start", "01-c10k-problem"]
    first = client.get("/api/lessons/00-before-you-start").json()
    assert first["prev"] is None and first["next"]["slug"] == "01-c10k-problem"
    lesson = client.get("/api/lessons/01-c10k-problem").json()
    assert "```experiment" in lesson["markdown"] and lesson["prev"]["slug"] == "00-before-you-start"
    assert client.get("/api/lessons/99-missing").status_code == 404


def test_servers_and_sources(client: TestClient) -> None:
    servers = client.get("/api/servers").json()
    epoll = next(s for s in servers if s["id"] == "c-epoll")
    assert epoll["source"] == "servers/c/epoll.c"
    excerpt = client.get("/api/sources/servers/c/epoll.c", params={"anchor": "event-loop"}).json()
    assert "epoll_wait" in excerpt["text"] and excerpt["language"] == "c"
    assert client.get("/api/sources/../backend/pyproject.toml").status_code == 404
    assert client.get("/api/sources/servers/c/epoll.c?anchor=nope").status_code == 404


def test_health_without_a_runner_says_so(client: TestClient) -> None:
    health = client.get("/api/health").json()
    assert health["ready"] is False and "runner is not running" in health["reason"]


ENGINE = DockerState(reachable=True, version="20.10", error=None)


def runner(name: str, images: dict[str, bool], host: str = "lab-1", cpus: str = "0") -> RunnerHost:
    return RunnerHost(name, host, cpus, "1", ENGINE, images, "idle", None, "2026-11-25T08:00:00")


def test_health_reports_the_runners_heartbeat(client: TestClient, runners: RunnerStore) -> None:
    runners.beat(runner("a", {"c10klab/server:c-epoll": True, "c10klab/loadgen:latest": False}))
    health = client.get("/api/health").json()
    assert health["runner"] is True and health["docker"]["version"] == "20.10"
    assert health["ready"] is False and "c10klab/loadgen:latest" in health["reason"]
    [a] = health["runners"]
    assert (a["id"], a["state"], a["ready"], a["engine"]) == ("a", "idle", False, "20.10")


def test_health_is_ready_when_one_runner_is_and_lists_them_all(
    client: TestClient, runners: RunnerStore
) -> None:
    runners.beat(runner("a", {"c10klab/loadgen:latest": False}))
    runners.beat(runner("b", {"c10klab/loadgen:latest": True}))  # same host, same CPUs
    runners.beat(runner("c", {"c10klab/loadgen:latest": True}, host="lab-2"))
    health = client.get("/api/health").json()
    assert health["ready"] is True and health["reason"] is None
    listed = {r["id"]: r for r in health["runners"]}
    assert [listed[i]["ready"] for i in "abc"] == [False, True, True]
    assert listed["a"]["shares_cpus_with"] == ["b"] and listed["c"]["shares_cpus_with"] == []


def test_health_carries_each_runners_noise_and_the_ready_ones(
    client: TestClient, runners: RunnerStore
) -> None:
    noise = HostNoise(sigma=0.031, runs=12, groups=3, measured_at="2026-11-28T10:00:00+00:00")
    runners.beat(replace(runner("quiet", {"c10klab/loadgen:latest": True}), noise=noise))
    runners.beat(runner("new", {"c10klab/loadgen:latest": False}, host="lab-2"))
    health = client.get("/api/health").json()
    assert health["noise"] == noise.model_dump()
    listed = {r["id"]: r["noise"] for r in health["runners"]}
    assert listed == {"quiet": noise.model_dump(), "new": None}


def test_the_frontend_is_served_for_any_non_api_path(client: TestClient) -> None:
    page = client.get("/lessons/01-c10k-problem")
    assert page.status_code == 200 and "<" in page.text
    assert client.get("/api/nope").status_code == 404
    assert client.get("/docs").status_code == 200


def test_health_says_how_long_a_silent_runner_has_been_gone(
    client: TestClient, runners: RunnerStore
) -> None:
    runners.beat(runner("a", {}))
    with runners.write() as db:
        db.execute(update(hosts).values(heartbeat_unix=hosts.c.heartbeat_unix - 40))
    health = client.get("/api/health").json()
    assert health["runner"] is False and health["ready"] is False
    age = health["heartbeat_age_s"]
    assert 39 <= age <= 45  # a loaded machine may take a second or more between the two
    assert f"last heard of {age:.0f} s ago" in health["reason"]
    assert health["runners"][0]["state"] == "lost"


def test_json_answers_are_gzipped_for_browsers_that_take_it(client: TestClient) -> None:
    lesson = client.get("/api/lessons/09-zero-copy", headers={"Accept-Encoding": "gzip"})
    assert lesson.headers["content-encoding"] == "gzip" and lesson.json()["diagrams"]
    plain = client.get("/api/lessons/09-zero-copy", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers


def test_lessons_come_in_the_language_asked_for(client: TestClient) -> None:
    english = client.get("/api/lessons/05-epoll").json()
    assert english["language"] == "en"
    # Figures are resolved: no reference is left in the served text, each says what it became.
    assert "{{" not in english["markdown"]
    assert all(f["text"] for f in english.get("figures", []))
    chinese = client.get("/api/lessons/05-epoll", params={"lang": "zh"})
    assert chinese.status_code == 200
    assert chinese.json()["language"] in ("zh", "en")
    refused = client.get("/api/lessons", params={"lang": "fr"})
    assert refused.status_code == 422
    assert "'en' or 'zh'" in refused.text
