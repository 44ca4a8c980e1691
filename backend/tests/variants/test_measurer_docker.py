"""A learner's edited server cannot touch what measures it, on the real engine.

The attacker is c-epoll with a child forked first thing in main(), which for thirty seconds,
ten times a second, tries every way at every other process it can see (the load generator
is not among them: it has a pid namespace of its own; the observer and a syscall counter
are): SIGSTOP, SIGKILL, ptrace, reading its environment, writing a forged summary to its
standard output and error, `kill(-1, SIGKILL)`, and the forged summary on its own stdout and
stderr too. Should one of them ever work, it stops the server, so the run fails saying so.
A run of it, and an exercise answered with it, must end with the figures of what really
happened.
"""

import os
import threading
import time
from pathlib import Path
from typing import Any

import docker
import pytest
from fastapi.testclient import TestClient

from c10klab.runner.plan import MEASURER, NOBODY
from c10klab.runs.service import parse_sse

pytestmark = pytest.mark.docker

EPOLL = (Path(__file__).parents[3] / "sandboxes" / "servers" / "c" / "epoll.c").read_text()
MAIN = "int main(int argc, char **argv)\n{\n"
FORGED_QPS = 9_876_543.0
FORGED_REQUESTS = 49_382_715
ATTACKER = r"""
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <unistd.h>

static const char forged[] =
    "{\"type\":\"summary\",\"qps\":9876543.0,\"requests\":49382715,\"requests_total\":49382715,"
    "\"duration_s\":5.0,\"errors\":{},\"error_total\":0,\"connect_failures\":0,\"starved\":0,"
    "\"latency_us\":{\"p50\":1,\"p90\":1,\"p99\":1,\"p999\":1,\"max\":1,\"min\":1,\"mean\":1,"
    "\"stdev\":0},\"percentiles\":[]}\n";

static void broke_in(const char *how, int pid)
{
    fprintf(stderr, "ATTACK WORKED: %s on pid %d\n", how, pid);
    kill(getppid(), SIGTERM);
    _exit(0);
}

static void attack(int pid)
{
    char path[64];
    char buffer[64];
    if (kill(pid, SIGSTOP) == 0)
        broke_in("SIGSTOP", pid);
    if (kill(pid, SIGKILL) == 0)
        broke_in("SIGKILL", pid);
    if (ptrace(PTRACE_ATTACH, pid, 0, 0) == 0)
        broke_in("ptrace", pid);
    snprintf(path, sizeof path, "/proc/%d/environ", pid);
    int fd = open(path, O_RDONLY);
    if (fd >= 0 && read(fd, buffer, sizeof buffer) > 0)
        broke_in("reading its environment", pid);
    if (fd >= 0)
        close(fd);
    for (int n = 0; n <= 2; n++) {
        snprintf(path, sizeof path, "/proc/%d/fd/%d", pid, n);
        fd = open(path, O_WRONLY);
        if (fd >= 0 && write(fd, forged, sizeof forged - 1) > 0)
            broke_in("writing a forged summary to its descriptor", pid);
        if (fd >= 0)
            close(fd);
    }
}

static void attack_the_measurer(void)
{
    if (fork() != 0)
        return;
    for (int round = 0; round < 300; round++) {
        DIR *proc = opendir("/proc");
        struct dirent *entry;
        while (proc && (entry = readdir(proc))) {
            int pid = atoi(entry->d_name);
            if (pid > 0 && pid != getpid() && pid != getppid())
                attack(pid);
        }
        if (proc)
            closedir(proc);
        /* Every process it may signal but init and itself. Its 0 says only that there was
           some other process (EPERM is not reported): whether it worked shows in the run. */
        kill(-1, SIGKILL);
        fputs(forged, stdout);
        fflush(stdout);
        fputs(forged, stderr);
        usleep(100 * 1000);
    }
    _exit(0);
}
"""


def with_attacker(source: str) -> str:
    assert source.count(MAIN) == 1
    return ATTACKER + source.replace(MAIN, MAIN + "attack_the_measurer();\n")


def variant(served: TestClient, server: str, source: str, exercise: str | None = None) -> str:
    body = {"server": server, "source": source} | ({"exercise": exercise} if exercise else {})
    created = served.post("/api/variants", json=body)
    assert created.status_code == 202, created.text
    frames = parse_sse(served.get(f"/api/runs/{created.json()['check']['id']}/events").text)
    if exercise is None:
        assert frames[-1]["event"] == "checked", frames[-1]
    return str(created.json()["id"])


def namespaces_and_users(run_id: str, seen: dict[str, tuple[str, str]]) -> None:
    """While the run measures: each of its containers' pid namespace and user, by role."""
    client = docker.from_env()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(seen) < 3:
        for container in client.containers.list(filters={"label": f"c10klab.run={run_id}"}):
            role = container.labels.get("c10klab.role", "")
            pid = container.attrs["State"]["Pid"]
            if role in ("server", "loadgen", "observer") and pid and role not in seen:
                try:
                    seen[role] = (
                        os.readlink(f"/proc/{pid}/ns/pid"),
                        container.attrs["Config"]["User"],
                    )
                except OSError:
                    continue
        time.sleep(0.1)


def test_an_edited_server_cannot_stop_signal_or_forge_the_load_generator(
    served: TestClient,
) -> None:
    attacker = variant(served, "c-epoll", with_attacker(EPOLL))
    queued = served.post(
        "/api/runs",
        json={
            "server": "c-epoll",
            "variant": attacker,
            "connections": 20,
            "duration_s": 2,
            "warmup_s": 0.5,
        },
    )
    assert queued.status_code == 202, queued.text
    run_id = queued.json()["id"]
    seen: dict[str, tuple[str, str]] = {}
    watcher = threading.Thread(target=namespaces_and_users, args=(run_id, seen))
    watcher.start()
    frames = parse_sse(served.get(f"/api/runs/{run_id}/events").text)
    watcher.join()

    assert frames[-1]["event"] == "done", frames[-1]["data"]["reason"]
    result: dict[str, Any] = frames[-1]["data"]
    summary = result["summary"]
    assert result["valid"], result["invalid_reason"]
    assert 0 < summary["qps"] < 2_000_000 and summary["qps"] != FORGED_QPS
    assert summary["requests"] not in (0, FORGED_REQUESTS)
    assert summary["latency_us"]["p50"] > 1
    traffic = result["traffic"]
    assert traffic["judged"] and traffic["bytes"] >= traffic["least_bytes"] > 0
    # The observer counts the server's user only: the server and its attacking child.
    assert result["server"]["profile"]["processes_peak"] == 2

    # The load generator ran in a pid namespace of its own, as another user than the server;
    # the observer joined the server's namespace, as the measurer's user.
    assert set(seen) == {"server", "loadgen", "observer"}, seen
    assert seen["loadgen"][0] != seen["server"][0] == seen["observer"][0]
    assert seen["server"][1] == NOBODY
    assert seen["loadgen"][1] == seen["observer"][1] == MEASURER


def test_the_exercise_judge_reads_only_what_really_happened(served: TestClient) -> None:
    # A starter that wakes for nothing makes far more than two epoll_wait calls per request;
    # a forged request count would have divided them down to a pass.
    slug = "epollout-on-demand"
    exercise = served.get(f"/api/exercises/{slug}").json()
    answer = variant(served, exercise["server"], with_attacker(exercise["starter"]), slug)
    verdict = served.get(f"/api/variants/{answer}").json()["verdict"]
    assert verdict["status"] == "failed", verdict
    waits = next(m for m in verdict["measured"] if "epoll_wait" in m["says"])
    assert not waits["ok"] and waits["value"] > 2, verdict
