"""The io_uring servers' own checks, beyond the shared suite: c-io-uring and rust-io-uring
share one design (multishot accept and recv, a provided-buffer ring, feature probing), so
they must pass the same checks, their messages included.

- Start-up: the server probes the kernel and prints what it uses (features, setup flags,
  multishot accept and recv or their fallbacks); the line must match the variant and the
  running kernel.
- Without io_uring: under a seccomp filter that refuses io_uring_setup with EPERM (as
  Docker 25's default profile does), it exits 1 naming io_uring_setup, EPERM and the fix.
  The filter is installed by a small Python wrapper (prctl(PR_SET_SECCOMP) with a
  four-instruction BPF program) that then execs the server: no Docker needed.
- A ring with one buffer runs dry at once: the kernel ends the multishot recv with
  ENOBUFS, the server re-arms it, and the bytes still all come back in order.
- Out of file descriptors (EMFILE ends the multishot accept): it stops accepting until a
  connection closes, then accepts again (the message is rate-limited).
- Backpressure in every receive mode: a client that never reads stops being read from,
  and later gets exactly its bytes back (the shared suite checks this for the defaults).
- c-io-uring's source carries the anchors lesson 07 quotes (rust-io-uring's header and
  anchors are checked in test_rust_servers.py).
"""

from __future__ import annotations

import os
import platform
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import (
    SANDBOXES,
    SANITIZER_ENV,
    STOP_TIMEOUT_S,
    StartServer,
    Variant,
    pairs,
    pick_port,
)
from helpers import connect, exchange, run_out_of_descriptors, send_until_stalled

SOURCE = SANDBOXES / "servers" / "c" / "io-uring.c"
ANCHORS = [
    "ring-setup", "buffer-ring", "multishot-accept", "multishot-recv", "event-loop", "send",
    "send-completion", "recv-completion", "close",
]  # fmt: skip
MiB = 1 << 20

# A seccomp filter as classic BPF: if the syscall is io_uring_setup (425 on both x86_64
# and aarch64, which share the new syscall numbers) on this architecture, fail it with
# EPERM; allow everything else. Then exec the server, which inherits the filter.
SECCOMP_WRAPPER = r"""
import ctypes, os, platform, struct, sys
AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}[platform.machine()]
LD_ABS_W, JEQ_K, RET_K = 0x20, 0x15, 0x06
ALLOW, ERRNO, EPERM = 0x7FFF0000, 0x00050000, 1
program = [
    (LD_ABS_W, 0, 0, 4),            # A = seccomp_data.arch
    (JEQ_K, 0, 3, AUDIT_ARCH),      # another ABI: allow
    (LD_ABS_W, 0, 0, 0),            # A = seccomp_data.nr
    (JEQ_K, 0, 1, 425),             # io_uring_setup?
    (RET_K, 0, 0, ERRNO | EPERM),   #   yes: fail with EPERM
    (RET_K, 0, 0, ALLOW),           #   no: carry on
]
code = b"".join(struct.pack("HBBI", *insn) for insn in program)
buf = ctypes.create_string_buffer(code, len(code))
class sock_fprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]
prog = sock_fprog(len(program), ctypes.addressof(buf))
libc = ctypes.CDLL(None, use_errno=True)
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or \
   libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
    sys.exit("prctl: " + os.strerror(ctypes.get_errno()))
os.execv(sys.argv[1], sys.argv[1:])
"""

pytestmark = pytest.mark.servers("c-io-uring", "rust-io-uring")


def kernel_at_least(major: int, minor: int) -> bool:
    found = re.match(r"(\d+)\.(\d+)", os.uname().release)
    assert found, os.uname().release
    return (int(found.group(1)), int(found.group(2))) >= (major, minor)


def feature_line(server_id: str, log: str) -> str:
    for line in log.splitlines():
        if line.startswith(f"{server_id}: io_uring on Linux "):
            return line
    raise AssertionError(f"no feature line in:\n{log}")


@pytest.mark.parametrize("protocol", ["echo"])
def test_start_up_says_what_the_kernel_offers_and_what_it_uses(
    start_server: StartServer, variant: Variant, protocol: str
) -> None:
    server = start_server(protocol)
    log = server.stderr()
    line = feature_line(variant.id, log)
    knobs = dict(pairs(variant.knob_args))
    assert f"Linux {os.uname().release}:" in line, line
    assert "FAST_POLL" in line.split("features", 1)[1], line  # needed since Linux 5.7

    if knobs.get("--sqpoll") == "on":
        assert "setup flags SQPOLL;" in line, line
    elif kernel_at_least(6, 1):
        assert "setup flags SINGLE_ISSUER|DEFER_TASKRUN;" in line, line
    else:
        assert "setup flags none;" in line and "DEFER_TASKRUN not supported" in log, log

    ring_ok = kernel_at_least(5, 19)
    asked = knobs.get("--recv", "multishot")
    if asked == "plain" or not ring_ok:
        expected, shown = "one-shot recv into a buffer per connection", "plain"
    elif asked == "oneshot" or not kernel_at_least(6, 0):
        expected, shown = "one-shot recv from the buffer ring", "oneshot"
    else:
        expected, shown = "multishot recv from the buffer ring", "multishot"
    assert line.endswith(expected), line
    assert f" recv={shown} " in log, log  # the start-up line shows what it really does
    if asked == "multishot" and shown != "multishot":
        assert "not supported" in log, log  # a fallback is always explained
    assert ("multishot accept" if ring_ok else "one-shot accept") in line, line


def run_without_io_uring(binary: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", SECCOMP_WRAPPER, str(binary), "--port", "15999"],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, **SANITIZER_ENV},
    )


@pytest.mark.default_knobs
@pytest.mark.skipif(
    platform.machine() not in ("x86_64", "aarch64"), reason="the BPF filter knows x86_64/aarch64"
)
def test_without_io_uring_it_exits_1_naming_io_uring_setup_eperm_and_the_fix(
    binary: Path, variant: Variant
) -> None:
    result = run_without_io_uring(binary)
    assert result.returncode == 1, result
    err = result.stderr
    assert f"{variant.id}: io_uring_setup() failed (EPERM): Operation not permitted" in err, err
    assert "seccomp" in err and "Docker 25" in err, err
    assert "--security-opt seccomp=sandboxes/seccomp/io-uring.json" in err, err
    assert "kernel.io_uring_disabled" in err, err
    assert "listening on" not in err, err
    assert not re.search(r"Sanitizer|runtime error", err), err


@pytest.mark.default_knobs
def test_a_buffer_ring_of_one_runs_dry_and_every_byte_still_comes_back(
    start_server: StartServer, rng: random.Random
) -> None:
    server = start_server("echo", ["--buffers", "1", "--buffer-bytes", "512"])
    socks = [connect(server.port) for _ in range(20)]
    payloads = [rng.randbytes(64 * 1024 + i) for i in range(len(socks))]
    for sock, payload in zip(socks, payloads, strict=True):
        sock.sendall(payload[: 32 * 1024])  # bursts of 64 chunks queue up before we read
    for sock, payload in zip(socks, payloads, strict=True):
        got = exchange(sock, payload[32 * 1024 :], len(payload))
        assert got == payload
        sock.close()
    assert "the buffer ring ran dry" in server.stderr(), server.stderr()


def test_a_client_that_never_reads_is_throttled_in_every_receive_mode(
    start_server: StartServer, rng: random.Random
) -> None:
    server = start_server("echo")
    limit = 64 * MiB
    stream = memoryview(rng.randbytes(MiB + 7) * (limit // (MiB + 7) + 1))[:limit]
    hog = connect(server.port, small_buffers=True)
    sent = send_until_stalled(hog, stream)
    assert sent < limit, "the server kept receiving from a client that never reads"
    with connect(server.port) as other:  # others are still served meanwhile
        assert exchange(other, b"still there?", 12) == b"still there?"
    assert exchange(hog, b"", sent) == stream[:sent]
    hog.close()


@pytest.mark.default_knobs
def test_receive_buffers_beyond_1_gib_are_refused(binary: Path) -> None:
    result = subprocess.run(
        [str(binary), "--buffers", "32768", "--buffer-bytes", "1048576"],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, **SANITIZER_ENV},
    )
    assert result.returncode == 1, result
    assert "--buffers" in result.stderr and "--buffer-bytes" in result.stderr, result.stderr


@pytest.mark.default_knobs
def test_out_of_file_descriptors_it_pauses_accepting_and_resumes(
    binary: Path, tmp_path: Path
) -> None:
    """With nofile 40, later clients wait in the listen queue (EMFILE ends the multishot
    accept); each close lets the server accept again, and a waiting client is served."""
    log = run_out_of_descriptors(
        binary, pick_port(), tmp_path / "server.log", STOP_TIMEOUT_S, env=SANITIZER_ENV
    )
    assert "accept() failed; pausing until a connection closes" in log, log
    assert "Too many open files" in log and "accepting connections again" in log, log
    assert log.count("pausing") == 1, f"the pause message is rate-limited:\n{log}"
    assert not re.search(r"Sanitizer|runtime error", log), log


def test_source_marks_what_lesson_07_quotes() -> None:
    source = SOURCE.read_text()
    for anchor in ANCHORS:
        assert f"/* ANCHOR: {anchor} */" in source, anchor
        assert f"/* ANCHOR_END: {anchor} */" in source, anchor
    header = source.split("*/", 1)[0]
    facts = ["Minimum kernel", "5.19", "6.0", "6.1", "Usage:", "Test with:", "Simplifications:"]
    for fact in facts:
        assert fact in header, fact
    # Lesson 7's recording: SQPOLL still enters the kernel, and here not less often per request.
    assert "SQPOLL still makes" in header and "Not necessarily fewer" in header
