"""Learners' edited servers against the real Docker engine: built in the build sandbox, checked
by the load generator, benchmarked beside the original, and every abuse contained.

Each abusive variant is c-epoll's epoll.c with a few lines put at the start of main(), so it
links against the shared modules like any other edit; each must end its check run with a
clear `failed` event within its limit, leave no container behind, and leave the next build
and run working.
"""

import socket
import subprocess
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import docker
import pytest
from fastapi.testclient import TestClient

from c10klab.config import Settings
from c10klab.runner.plan import LABEL, store_label
from c10klab.runs.service import parse_sse

pytestmark = pytest.mark.docker

EPOLL = (Path(__file__).parents[3] / "sandboxes" / "servers" / "c" / "epoll.c").read_text()
MAIN = "int main(int argc, char **argv)\n{\n"


def at_start_of_main(code: str, includes: str = "") -> str:
    """epoll.c with `code` run first thing in main()."""
    assert EPOLL.count(MAIN) == 1
    return includes + EPOLL.replace(MAIN, MAIN + code + "\n")


def leftovers(settings: Settings) -> list[Any]:
    label = f"{LABEL}={store_label(settings)}"
    return docker.from_env().containers.list(all=True, filters={"label": label}, sparse=True)


def check(served: TestClient, source: str) -> tuple[list[dict[str, Any]], float]:
    """Submit a variant of c-epoll; its check run's frames, once it ended, and the seconds."""
    started = time.monotonic()
    created = served.post("/api/variants", json={"server": "c-epoll", "source": source})
    assert created.status_code == 202, created.text
    frames = parse_sse(served.get(f"/api/runs/{created.json()['check']['id']}/events").text)
    return frames, time.monotonic() - started


def failure(frames: list[dict[str, Any]]) -> dict[str, Any]:
    assert frames[-1]["event"] == "failed", frames[-1]
    data: dict[str, Any] = frames[-1]["data"]
    return data


def test_a_compile_error_is_on_its_line_and_the_fixed_file_is_benchmarked_beside_the_original(
    served: TestClient, settings: Settings
) -> None:
    lines = EPOLL.splitlines(keepends=True)
    broken_at = next(i for i, line in enumerate(lines) if "EPOLL_CTL_ADD, fd, &ev);" in line)
    broken = "".join(
        [*lines[:broken_at], lines[broken_at].replace(");", ")"), *lines[broken_at + 1 :]]
    )
    frames, _ = check(served, broken)
    failed = failure(frames)
    errors = [d for d in failed["diagnostics"] if d["severity"] == "error"]
    assert errors and errors[0]["line"] in (broken_at + 1, broken_at + 2), errors
    assert f"line {errors[0]['line']}" in failed["reason"]
    assert "epoll.c did not compile" in failed["reason"]

    fixed = EPOLL + f"\n/* fixed: {uuid.uuid4()} */\n"  # new to this engine: compiled
    frames, _ = check(served, fixed)
    kinds = [f["event"] for f in frames]
    assert kinds[-1] == "checked", frames[-1]
    build = next(f["data"] for f in frames if f["event"] == "build")
    assert build["status"] == "compiled" and build["seconds"] > 0
    checks = [f["data"] for f in frames if f["event"] == "check"]
    assert [(c["protocol"], c["ok"]) for c in checks] == [("echo", True), ("http", True)]
    assert "echo-many-connections" in checks[0]["passed"]
    assert "http-keep-alive" in checks[1]["passed"]
    variant_id = served.get("/api/variants").json()[0]["id"]

    # The same file again is built once: its image is found by the source's digest.
    frames, _ = check(served, fixed)
    assert next(f["data"] for f in frames if f["event"] == "build")["status"] == "cached"

    sweep = served.post(
        "/api/sweeps",
        json={
            "servers": ["c-epoll", f"variant:{variant_id}"],
            "vary": "round",
            "values": [1, 2],
            "base": {"connections": 20, "duration_s": 1, "warmup_s": 0.5},
        },
    )
    assert sweep.status_code == 202, sweep.text
    points = parse_sse(served.get(f"/api/sweeps/{sweep.json()['id']}/events").text)[-1]["data"]
    # each round runs both, in an order drawn for that round
    assert [p["value"] for p in points["points"]] == [1, 1, 2, 2]
    assert sorted((p["value"], p["server"]) for p in points["points"]) == [
        (v, server) for v in (1, 2) for server in ("c-epoll", f"variant:{variant_id}")
    ]
    # two rounds are too few for an interval: the verdict says so rather than guess
    assert {v["call"] for v in points["verdicts"]} == {"too_few"}
    assert all(p["status"] == "done" and p["qps"] > 0 for p in points["points"]), [
        (p["status"], p["reason"]) for p in points["points"]
    ]
    assert leftovers(settings) == []


def test_the_check_runs_the_sanitized_build_and_names_a_use_after_free(
    served: TestClient, settings: Settings
) -> None:
    """A plain build may read a freed connection and carry on; the check's build stops there.
    Reading on after READ_CLOSED uses the connection a client's reset has freed."""
    drain = "    while (edge_triggered && r == READ_AGAIN);\n"
    assert EPOLL.count(drain) == 1
    frames, _ = check(served, EPOLL.replace(drain, "    while (r != READ_DONE);\n"))
    failed = failure(frames)
    assert "echo-client-reset" in failed["reason"], failed
    # In a function of the shared module (which one is the compiler's inlining), called
    # from the learner's line.
    assert "AddressSanitizer found a heap-use-after-free in loop_" in failed["reason"], failed
    assert "(readiness.c:" in failed["reason"], failed
    assert "called from handle_readable (epoll.c:" in failed["reason"], failed
    assert any("heap-use-after-free" in line for line in failed["logs"]), failed
    assert leftovers(settings) == []


ABUSES = {
    # name: (source, what the reason says, seconds it may take)
    "fork bomb": (at_start_of_main("for (;;) fork();"), "ready", 60),
    "a compile that never ends": ('#include "/dev/zero"\n' + EPOLL, "build sandbox's limits", 120),
    "a server that spins": (at_start_of_main("for (volatile int spin = 1; spin;) {}"), "ready", 60),
    "1 GiB allocated and touched": (
        at_start_of_main(
            "size_t gib = (size_t)1 << 30; char *m = malloc(gib);"
            " for (size_t i = 0; m && i < gib; i += 4096) m[i] = 1;",
            "#include <stdlib.h>\n",
        ),
        "memory",
        60,
    ),
    "1 GiB written to stdout": (
        at_start_of_main(
            "static char line[65536]; memset(line, 'x', sizeof line);"
            " for (int i = 0; i < 16384; i++) fwrite(line, 1, sizeof line, stdout);",
            "#include <stdio.h>\n#include <string.h>\n",
        ),
        "to its output",
        60,
    ),
    "filling the tmpfs": (
        EPOLL + '\n__asm__(".section .data\\n.fill 200000000, 1, 1\\n.text");\n',
        "did not compile",
        120,
    ),
    "reading a file outside the sandbox at build time": (
        '#include "/etc/shadow"\n' + EPOLL,
        "Permission denied",
        60,
    ),
    "reading a file outside the sandbox at run time": (
        at_start_of_main(
            'int secret = open("/etc/shadow", O_RDONLY);'
            ' if (secret < 0) die_errno("open(/etc/shadow) failed");',
            "#include <fcntl.h>\n",
        ),
        "exited with code 1",
        60,
    ),
    "ptrace": (
        at_start_of_main(
            'if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0) die_errno("ptrace() failed");',
            "#include <sys/ptrace.h>\n",
        ),
        "exited with code 1",
        60,
    ),
    "io_uring from a server that is not an io_uring server": (
        at_start_of_main(
            "struct io_uring_params p = {0};"
            ' if (syscall(__NR_io_uring_setup, 8, &p) < 0) die_errno("io_uring_setup() failed");',
            "#include <linux/io_uring.h>\n#include <sys/syscall.h>\n",
        ),
        "exited with code 1",
        60,
    ),
}


@pytest.mark.parametrize("abuse", sorted(ABUSES))
def test_abuse_is_contained_and_the_next_build_works(
    served: TestClient, settings: Settings, abuse: str
) -> None:
    source, said, limit_s = ABUSES[abuse]
    frames, seconds = check(served, source)
    failed = failure(frames)
    told = failed["reason"] + " " + " ".join(failed.get("logs") or [])
    told += " ".join(d["message"] for d in failed.get("diagnostics") or [])
    assert said in told, failed
    assert seconds < limit_s, f"{abuse}: took {seconds:.0f} s"
    assert leftovers(settings) == []
    frames, _ = check(served, EPOLL + f"\n/* after {abuse}: {uuid.uuid4()} */\n")
    assert frames[-1]["event"] == "checked", frames[-1]


def bridge_address() -> str:
    """The host's address on Docker's default bridge: what a container would reach it by."""
    inspect = subprocess.run(
        [
            "docker",
            "network",
            "inspect",
            "bridge",
            "--format",
            "{{(index .IPAM.Config 0).Gateway}}",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return inspect.stdout.strip()


def test_a_server_cannot_reach_the_host_through_the_bridge(
    served: TestClient, settings: Settings
) -> None:
    address = bridge_address()
    listener = socket.create_server((address, 0))
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    reached: list[str] = []

    def accept_any() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not reached:
            try:
                peer, _ = listener.accept()
                reached.append(str(peer.getpeername()))
                peer.close()
            except TimeoutError:
                continue
            except OSError:
                return

    threading.Thread(target=accept_any, daemon=True).start()
    egress = at_start_of_main(
        f"struct sockaddr_in to = {{.sin_family = AF_INET, .sin_port = htons({port})}};"
        f' inet_pton(AF_INET, "{address}", &to.sin_addr);'
        " int s = socket(AF_INET, SOCK_STREAM, 0);"
        ' if (connect(s, (struct sockaddr *)&to, sizeof to) < 0) die_errno("connect() failed");',
        "#include <arpa/inet.h>\n#include <netinet/in.h>\n#include <sys/socket.h>\n",
    )
    try:
        frames, _ = check(served, egress)
        failed = failure(frames)
        assert "exited with code 1" in failed["reason"], failed
        assert any("connect() failed" in line for line in failed["logs"]), failed
        assert reached == []
    finally:
        listener.close()
    assert leftovers(settings) == []
