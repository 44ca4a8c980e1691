"""The runner against the real Docker engine and the real images (built by `make images`).

These start real containers. Without a reachable engine they fail, saying how to get one,
unless C10K_SKIP_DOCKER_TESTS=1 is set (for a quick run on a machine without Docker).
"""

import json
import shutil
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import docker
import pytest
from docker.types import Mount
from fastapi.testclient import TestClient

from c10klab.config import Settings
from c10klab.main import create_app
from c10klab.runner import stacks
from c10klab.runner.counter import Counter
from c10klab.runner.docker_engine import Engine
from c10klab.runner.plan import LABEL, TRACEFS, ContainerOptions, plan_run, store_label
from c10klab.runner.profiler import Profiler
from c10klab.runner.worker import Runner
from c10klab.runs.schemas import RunRequest
from c10klab.runs.service import parse_sse
from c10klab.runs.store import RUNNER_OWNER, RunStore, Scope
from c10klab.sandboxes.service import load_catalog
from tests.polling import poll
from tests.runner.engines import QUICK_RUN, engine_with, run_here
from tests.runs.leases import claim

pytestmark = pytest.mark.docker


@pytest.fixture(scope="module")
def engine() -> Engine:
    return engine_with(["c10klab/server:c-epoll", "c10klab/loadgen:latest"])


def leftovers(settings: Settings) -> list[Any]:
    """The containers this test's store owns (other courses on the engine are not ours)."""
    label = f"{LABEL}={store_label(settings)}"
    return docker.from_env().containers.list(all=True, filters={"label": label}, sparse=True)


@pytest.fixture
def runner(engine: Engine, settings: Settings, store: RunStore) -> Iterator[Runner]:
    runner = Runner(settings, store, engine)
    thread = threading.Thread(target=runner.serve, daemon=True)
    thread.start()
    yield runner
    runner.stopping.set()
    thread.join(timeout=60)
    assert not thread.is_alive(), "the runner did not stop"


def wait_for(store: RunStore, run_id: str, event_type: str, timeout_s: float = 60) -> None:
    def arrived() -> bool:
        return any(e.type == event_type for e in store.events_after(run_id))

    if poll(arrived, timeout_s, every_s=0.2) is None:
        raise AssertionError(f"no {event_type} event within {timeout_s} s")


def test_a_run_streams_queued_started_progress_done(
    runner: Runner, settings: Settings, store: RunStore
) -> None:
    with TestClient(create_app(settings)) as client:
        created = client.post("/api/runs", json=QUICK_RUN)
        assert created.status_code == 202
        run_id = created.json()["id"]
        # The stream ends by itself after `done` (or `failed`).
        frames = parse_sse(client.get(f"/api/runs/{run_id}/events").text)
        run = client.get(f"/api/runs/{run_id}").json()

    kinds = [f["event"] for f in frames]
    assert kinds[:2] == ["queued", "started"], kinds
    assert kinds[-1] == "done", frames[-1]
    progress = [f["data"] for f in frames if f["event"] == "progress"]
    assert len(progress) >= 2
    assert {p["phase"] for p in progress} == {"warmup", "measure"}
    assert all(p["qps"] > 0 for p in progress if p["phase"] == "measure")
    stats = [f["data"] for f in frames if f["event"] == "server_stats"]
    assert stats and all(s["memory_bytes"] > 0 for s in stats)

    done = frames[-1]["data"]
    # The load generator drove its sockets with io_uring, and said how busy it was.
    assert done["client"]["engine"] == "io_uring", done["client"]
    assert 0 < done["client"]["cpu"] <= 1.05 and done["client"]["bound"] is not None
    assert done["valid"] is True, done["invalid_reason"]
    summary = done["summary"]
    assert summary["qps"] > 0 and summary["requests"] > 0 and summary["error_total"] == 0
    assert 0 < summary["latency_us"]["p50"] <= summary["latency_us"]["p99"]
    assert done["server"]["exit_code"] == 0  # the server honoured SIGTERM
    prov = done["provenance"]
    assert prov["server_image"]["id"].startswith("sha256:") and prov["kernel"]
    assert prov["server_cpus"] == "0" and prov["loadgen_cpus"] == "1"

    assert run["status"] == "done" and run["result"]["summary"]["qps"] == summary["qps"]
    assert leftovers(settings) == []


def run_to_end(client: TestClient, request: dict[str, Any]) -> tuple[list[dict[str, Any]], Any]:
    created = client.post("/api/runs", json=request)
    assert created.status_code == 202, created.text
    run_id = created.json()["id"]
    frames = parse_sse(client.get(f"/api/runs/{run_id}/events").text)
    return frames, client.get(f"/api/runs/{run_id}").json()


# Run alone (make test-quiet): beside other suites its A/A runs find the load generator short
# of CPU, and such runs are rightly not the host's noise.
@pytest.mark.quiet
def test_a_runner_measures_its_hosts_noise_when_it_starts_and_every_result_carries_it(
    engine: Engine, settings: Settings, store: RunStore
) -> None:
    # Three runs, of which two must count whatever else this machine does meanwhile:
    # the stability check, whose flagged runs would not, has its own test (test_stability_docker).
    unflagged = {"max_interference_server": 1.0, "max_interference_loadgen": 1.0}
    measuring = settings.model_copy(update={"calibration_runs": 3} | unflagged)
    runner = Runner(measuring, store, engine)
    thread = threading.Thread(target=runner.serve, daemon=True)
    thread.start()
    try:
        with TestClient(create_app(measuring)) as client:
            # Queued while the runner measures itself: it waits, and is measured after.
            frames, run = run_to_end(client, QUICK_RUN)
            health = client.get("/api/health").json()
    finally:
        runner.stopping.set()
        thread.join(timeout=60)

    assert frames[-1]["event"] == "done", frames[-1]
    noise = run["result"]["host_noise"]
    assert noise is not None and noise == (runner.noise and runner.noise.model_dump())
    assert noise["runs"] in (2, 3) and noise["groups"] == 1  # its own A/A runs
    assert 0 <= noise["sigma"] < 0.5
    assert health["noise"] == noise and health["runners"][0]["noise"] == noise
    own = [r for r in store.list_runs(Scope(everyone=True)) if r.owner_id == RUNNER_OWNER]
    assert [r.status for r in own] == ["done"] * 3
    assert leftovers(settings) == []


def test_repetitions_run_on_fresh_containers_and_report_median_spread_and_profile(
    runner: Runner, settings: Settings
) -> None:
    with TestClient(create_app(settings)) as client:
        frames, run = run_to_end(client, QUICK_RUN | {"duration_s": 1, "repetitions": 2})
    kinds = [f["event"] for f in frames]
    assert [f["data"]["repetition"] for f in frames if f["event"] == "repetition"] == [1, 2]
    assert {f["data"]["repetition"] for f in frames if f["event"] == "progress"} == {1, 2}
    assert kinds[-1] == "done", frames[-1]
    result = run["result"]
    assert result["valid"], result["invalid_reason"]
    assert [r["repetition"] for r in result["repetitions"]] == [1, 2]
    qps = sorted(r["summary"]["qps"] for r in result["repetitions"])
    aggregate = result["aggregate"]
    assert aggregate["count"] == 2 and aggregate["qps"]["min"] == qps[0]
    assert aggregate["qps"]["spread"] == pytest.approx(
        (qps[1] - qps[0]) / aggregate["qps"]["median"], abs=1e-3
    )
    # The load generator read the server's /proc through the shared pid namespace.
    profile = result["server"]["profile"]
    assert profile["threads_peak"] == 1 and profile["rss_mean_bytes"] > 0
    assert profile["voluntary_ctxt_switches_per_s"] >= 0
    progress = [f["data"] for f in frames if f["event"] == "progress"]
    assert any(p.get("procs") and p["procs"]["processes"] == 1 for p in progress)
    assert leftovers(settings) == []


@pytest.mark.parametrize("server", ["c-epoll", "c-io-uring", "c-forking"])
def test_a_syscall_profile_counts_every_call_of_the_server_at_full_speed(
    runner: Runner, settings: Settings, server: str
) -> None:
    request = QUICK_RUN | {"server": server, "profile": "syscalls", "duration_s": 1, "warmup_s": 0}
    with TestClient(create_app(settings)) as client:
        frames, run = run_to_end(client, request)
    assert frames[-1]["event"] == "done", frames[-1]
    syscalls = run["result"]["syscalls"]
    assert syscalls["method"] == "perf" and syscalls["refused"] is None, syscalls["refused"]
    per_request = {row["syscall"]: row["per_request"] for row in syscalls["rows"]}
    if server == "c-io-uring":
        assert "io_uring_enter" in per_request and "epoll_wait" not in per_request, per_request
        assert syscalls["calls_per_request"] < 1
    else:
        # One read and one write per echo round trip, whether one process serves every
        # connection or a child forked after counting began serves each (counted too).
        assert 0.9 < per_request["read"] < 1.5 and 0.9 < per_request["write"] < 1.5, per_request
    assert syscalls["total"]["calls"] == sum(row["calls"] for row in syscalls["rows"])
    assert syscalls["requests"] == run["result"]["summary"]["requests_total"] + 1
    assert leftovers(settings) == []


def test_a_cpu_profile_names_the_servers_functions_and_the_kernels_tcp_and_no_address(
    runner: Runner, settings: Settings
) -> None:
    request = QUICK_RUN | {"server": "c-epoll", "profile": "cpu", "duration_s": 2, "warmup_s": 0.5}
    with TestClient(create_app(settings)) as client:
        frames, run = run_to_end(client, request)
    assert frames[-1]["event"] == "done", frames[-1]
    profile = run["result"]["stacks"]
    assert profile["mode"] == "cpu" and profile["refused"] is None, profile["refused"]
    frames_seen = {f for s in profile["stacks"] for f in s["stack"].split(";")}
    # c-epoll's own functions (frame pointers walk through them), its call, the kernel's TCP
    assert {"main", "epoll_serve", "epoll_wait"} <= frames_seen, sorted(frames_seen)[:40]
    assert any(f.startswith("tcp_") and f.endswith("_[k]") for f in frames_seen)
    assert not any(stacks.ADDRESS.search(f) for f in frames_seen)
    assert all(s["stack"].startswith("c-epoll;") for s in profile["stacks"])
    shares = profile["shares"]
    assert shares["softirq"] > 0 and shares["syscalls"] > 0 and shares["user"] > 0, shares
    # every sample on the server's CPU is someone's: the server's, the idle task's or another's
    assert 0.99 < sum(shares.values()) < 1.01, shares
    # only the measured window: about its 2 s (the stop comes as the summary does)
    assert 1.5 < profile["window_s"] < 4, profile["window_s"]
    assert "stacks" not in run["result"]["repetitions"][0] or (
        run["result"]["repetitions"][0]["stacks"] is None
    )
    assert leftovers(settings) == []


def test_an_offcpu_profile_shows_a_thread_per_connection_server_blocked_in_read(
    runner: Runner, settings: Settings
) -> None:
    request = QUICK_RUN | {
        "server": "c-threaded",
        "profile": "offcpu",
        "duration_s": 1,
        "warmup_s": 0.5,
    }
    with TestClient(create_app(settings)) as client:
        frames, run = run_to_end(client, request)
    assert frames[-1]["event"] == "done", frames[-1]
    profile = run["result"]["stacks"]
    assert profile["mode"] == "offcpu" and profile["refused"] is None, profile["refused"]
    assert profile["unit"] == "microseconds" and profile["shares"] is None
    offcpu = profile["offcpu"]
    assert offcpu["blocked_s"] > 0 and offcpu["switches_per_request"] > 0, offcpu
    blocked_in_read = [
        s for s in profile["stacks"] if "read" in s["stack"] and s["stack"].endswith("[blocked]")
    ]
    assert blocked_in_read, [s["stack"] for s in profile["stacks"][:5]]
    assert all(s["stack"].startswith("c-threaded;") for s in profile["stacks"])
    assert leftovers(settings) == []


def test_a_host_that_will_not_count_gets_the_reason_and_no_figure(
    engine: Engine, settings: Settings
) -> None:
    """As where the host has no tracefs: the counter cannot start, the profile says why."""
    server_entry = load_catalog(settings.sandboxes_dir).get("c-epoll")
    assert server_entry is not None
    request = RunRequest.model_validate(QUICK_RUN | {"profile": "syscalls"})
    plan = plan_run("refused01", server_entry, request, settings)
    assert plan.counter is not None
    nowhere = Mount(target=TRACEFS, source="/nonexistent/tracing", type="bind", read_only=True)
    options = plan.counter.kwargs | ContainerOptions(mounts=[nowhere])
    counter = Counter(engine, replace(plan.counter, kwargs=options))
    server = engine.start(plan.server)
    try:
        counter.start(server)
        profile = counter.stop(requests=1)
    finally:
        engine.reap(store_label(settings), "refused01")
    assert profile.calls_per_request is None and profile.rows == []
    refused = profile.refused or ""
    assert "the counter did not start" in refused and "/nonexistent" in refused


def test_a_host_that_will_not_profile_says_why_and_what_its_owner_can_change(
    engine: Engine, settings: Settings
) -> None:
    """As where the host has no tracefs: the profiler cannot start; the run would go on."""
    server_entry = load_catalog(settings.sandboxes_dir).get("c-threaded")
    assert server_entry is not None
    request = RunRequest.model_validate(QUICK_RUN | {"server": "c-threaded", "profile": "offcpu"})
    plan = plan_run("refused02", server_entry, request, settings)
    assert plan.profiler is not None
    nowhere = Mount(target=TRACEFS, source="/nonexistent/tracing", type="bind", read_only=True)
    options = plan.profiler.kwargs | ContainerOptions(mounts=[nowhere])
    profiler = Profiler(engine, replace(plan.profiler, kwargs=options), "offcpu")
    server = engine.start(plan.server)
    try:
        profiler.start(server)
        profiler.enable()  # a refused profiler is not asked to record
        profile = profiler.stop(requests=1)
    finally:
        engine.reap(store_label(settings), "refused02")
    assert profile.stacks == [] and profile.offcpu is None and profile.mode == "offcpu"
    refused = profile.refused or ""
    assert "the profiler did not start" in refused and "/nonexistent" in refused
    assert "CAP_PERFMON" in refused  # and what the host's owner can change


def test_a_sweep_streams_a_point_per_finished_run(runner: Runner, settings: Settings) -> None:
    body = {
        "servers": ["c-select", "c-epoll"],
        "vary": "idle_connections",
        "values": [0, 1100],
        "base": {"connections": 5, "duration_s": 1, "warmup_s": 0},
    }
    with TestClient(create_app(settings)) as client:
        created = client.post("/api/sweeps", json=body)
        assert created.status_code == 202, created.text
        frames = parse_sse(client.get(f"/api/sweeps/{created.json()['id']}/events").text)
    assert [f["event"] for f in frames] == ["point"] * 4 + ["done"]
    points = {(f["data"]["server"], f["data"]["value"]): f["data"] for f in frames[:4]}
    assert all(p["status"] == "done" and p["qps"] > 0 for p in points.values()), points
    # Past its 1018 client slots c-select closes the extra idle connections; c-epoll keeps all.
    assert points["c-select", 1100]["idle_dropped"] > 0
    assert points["c-epoll", 1100]["idle_dropped"] == 0
    assert points["c-select", 0]["idle_dropped"] == 0
    assert frames[-1]["data"]["finished"] and frames[-1]["data"]["memory_per_connection"]


def test_a_server_that_fails_to_start_gives_failed_with_its_log(
    engine: Engine, tmp_path: Path, settings: Settings, store: RunStore
) -> None:
    real = Settings()
    sandboxes = tmp_path / "sandboxes"
    sandboxes.mkdir()
    catalog = json.loads((real.sandboxes_dir / "catalog.json").read_text())
    broken = next(s for s in catalog["servers"] if s["id"] == "c-epoll")
    broken["command"] = [*broken["command"], "--no-such-flag"]
    (sandboxes / "catalog.json").write_text(json.dumps(catalog))
    shutil.copytree(real.sandboxes_dir / "seccomp", sandboxes / "seccomp")  # loadgen's profile
    broken_catalog = Settings(repo_root=tmp_path, db_path=settings.db_path)

    run, _ = store.create_run(RunRequest.model_validate(QUICK_RUN))
    claimed = store.claim_next()
    assert claimed is not None
    Runner(broken_catalog, store, engine).execute(claimed)

    failed = store.events_after(run.id)[-1]
    assert failed.type == "failed"
    assert "server exited with code" in failed.data["reason"]
    assert any("no-such-flag" in line for line in failed.data["logs"]), failed.data["logs"]
    assert store.get_run(run.id).status == "failed"  # type: ignore[union-attr]
    assert leftovers(settings) == []


def test_cancelling_a_running_run_stops_its_containers(
    runner: Runner, settings: Settings, store: RunStore
) -> None:
    run, _ = store.create_run(RunRequest.model_validate(QUICK_RUN | {"duration_s": 30}))
    wait_for(store, run.id, "progress")
    store.request_cancel(run.id)
    wait_for(store, run.id, "failed", timeout_s=20)
    assert store.events_after(run.id)[-1].data["cancelled"] is True
    assert store.get_run(run.id).status == "cancelled"  # type: ignore[union-attr]
    assert leftovers(settings) == []


def test_start_up_recovers_from_a_crashed_runner_and_spares_other_stores(
    engine: Engine, settings: Settings, store: RunStore
) -> None:
    run, _ = store.create_run(RunRequest.model_validate(QUICK_RUN))
    runner = Runner(settings, store, engine)
    # this runner claimed it, measured, then "crashed"
    store.began_measuring(claim(store, runner.runner_id))
    waiting, _ = store.create_run(RunRequest.model_validate(QUICK_RUN))
    store.claim_next(runner.runner_id)  # claimed, not yet measuring: it goes back, once
    elsewhere, _ = store.create_run(RunRequest.model_validate(QUICK_RUN))
    store.claim_next("another-host")  # another runner's run is not this one's to fail
    other_course = docker.from_env().containers.run(
        "c10klab/server:c-epoll",
        ["/usr/local/bin/c-epoll"],
        detach=True,
        labels={LABEL: "another-store"},
        network_mode="none",
    )
    try:
        runner.recover()
        assert store.get_run(run.id).status == "failed"  # type: ignore[union-attr]
        assert store.get_run(waiting.id).status == "queued"  # type: ignore[union-attr]
        assert store.get_run(elsewhere.id).status == "running"  # type: ignore[union-attr]
        assert "interrupted" in store.events_after(run.id)[-1].data["reason"]
        assert leftovers(settings) == []
        other_course.reload()  # still there: it belongs to another store
        assert other_course.status == "running"
    finally:
        other_course.remove(force=True)


def catalog_ids() -> list[str]:
    return [s.id for s in load_catalog(Settings().sandboxes_dir).servers]


@pytest.mark.parametrize("server_id", catalog_ids())
def test_every_server_runs_in_its_locked_down_container(
    engine: Engine, settings: Settings, store: RunStore, server_id: str
) -> None:
    """Each image starts under the runner's limits (io_uring ones with the course's seccomp
    profile), serves a short load without errors, and honours SIGTERM."""
    server = load_catalog(settings.sandboxes_dir).get(server_id)
    assert server is not None
    if not engine.images_present([server.image])[server.image]:
        pytest.fail(f"{server.image} is not built; run `make images`")
    connections = min(10, server.limits.serves_at_once or 10)
    request = QUICK_RUN | {
        "server": server_id,
        "connections": connections,
        "duration_s": 1.5,
        "warmup_s": 0.5,
    }
    last = run_here(engine, settings, store, request)
    assert last.type == "done", last.data
    assert last.data["valid"] is True, last.data["invalid_reason"]
    assert last.data["summary"]["qps"] > 0
    assert last.data["server"]["exit_code"] == 0, last.data["server"]
    assert leftovers(settings) == []
