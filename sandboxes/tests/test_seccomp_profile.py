"""sandboxes/seccomp/io-uring.json, the profile the runner gives io_uring servers.

It is generated from make_profile.py (the readable, commented list): the committed JSON
must be exactly what the script writes. The profile must allow the three io_uring calls,
refuse everything it does not list with EPERM, keep out the calls a sandbox must never
make, and name only real system calls (checked with libseccomp when it is installed).
It is tried for real, in Docker, by sandboxes/seccomp/try-in-docker.sh.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import SANDBOXES

SECCOMP = SANDBOXES / "seccomp"
PROFILE = SECCOMP / "io-uring.json"
SCRIPT = SECCOMP / "make_profile.py"
IO_URING = {"io_uring_setup", "io_uring_enter", "io_uring_register"}
# What the course's servers never need and a container must not do.
# fmt: off
FORBIDDEN = {
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "ptrace",
    "process_vm_readv", "process_vm_writev", "bpf", "perf_event_open", "userfaultfd",
    "keyctl", "add_key", "request_key", "init_module", "finit_module", "delete_module",
    "kexec_load", "kexec_file_load", "reboot", "swapon", "swapoff", "acct", "settimeofday",
    "clock_settime", "adjtimex", "sethostname", "setdomainname", "open_by_handle_at",
    "name_to_handle_at", "personality", "iopl", "ioperm", "quotactl", "fanotify_init",
    "lookup_dcookie", "move_mount", "fsopen", "fsmount", "open_tree", "mknod", "mknodat",
}
# fmt: on
CLONE_NAMESPACE_FLAGS = 0x7E020000  # CLONE_NEWNS|NEWCGROUP|NEWUTS|NEWIPC|NEWUSER|NEWPID|NEWNET
# libseccomp's architecture tokens (the kernel's AUDIT_ARCH_* values)
ARCH_TOKENS = {
    "SCMP_ARCH_X86_64": 0xC000003E,
    "SCMP_ARCH_X86": 0x40000003,
    "SCMP_ARCH_X32": 0x4000003E,
    "SCMP_ARCH_AARCH64": 0xC00000B7,
    "SCMP_ARCH_ARM": 0x40000028,
}


def load() -> dict[str, Any]:
    return json.loads(PROFILE.read_text())


def allowed(profile: dict[str, Any]) -> set[str]:
    return {
        name
        for rule in profile["syscalls"]
        if rule["action"] == "SCMP_ACT_ALLOW" and "args" not in rule
        for name in rule["names"]
    }


def generate(tmp_path: Path, *flags: str) -> dict[str, Any]:
    out = tmp_path / "profile.json"
    subprocess.run([sys.executable, str(SCRIPT), *flags, "-o", str(out)], check=True)
    return json.loads(out.read_text())


def test_committed_json_is_what_the_script_writes(tmp_path: Path) -> None:
    out = tmp_path / "io-uring.json"
    subprocess.run([sys.executable, str(SCRIPT), "-o", str(out)], check=True)
    assert out.read_text() == PROFILE.read_text(), "run sandboxes/seccomp/make_profile.py"
    check = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True)
    assert check.returncode == 0, check.stderr


def test_refuses_by_default_with_eperm_on_x86_and_arm() -> None:
    profile = load()
    assert profile["defaultAction"] == "SCMP_ACT_ERRNO"
    assert profile["defaultErrnoRet"] == 1  # EPERM
    arches = {a["architecture"]: set(a["subArchitectures"]) for a in profile["archMap"]}
    assert arches == {
        "SCMP_ARCH_X86_64": {"SCMP_ARCH_X86", "SCMP_ARCH_X32"},
        "SCMP_ARCH_AARCH64": {"SCMP_ARCH_ARM"},
    }


def test_allows_io_uring_and_what_servers_need(tmp_path: Path) -> None:
    names = allowed(load())
    assert names >= IO_URING
    # fmt: off
    needed = {
        "read", "write", "close", "mmap", "munmap", "brk", "socket", "bind", "listen",
        "accept4", "setsockopt", "shutdown", "epoll_create1", "epoll_ctl", "epoll_wait",
        "epoll_pwait", "poll", "ppoll", "select", "pselect6", "futex", "rt_sigaction",
        "rt_sigprocmask", "rt_sigreturn", "pipe2", "prlimit64", "getrandom", "rseq",
        "prctl", "sched_getaffinity", "clock_gettime", "exit_group", "execve", "wait4",
        "socketpair", "uname", "set_robust_list", "set_tid_address",
    }
    # fmt: on
    assert needed <= names, needed - names
    without = allowed(generate(tmp_path, "--without-io-uring"))
    assert not IO_URING & without
    assert without == names - IO_URING


def test_keeps_out_what_a_sandbox_must_not_do() -> None:
    profile = load()
    every_name = {n for rule in profile["syscalls"] for n in rule["names"]}
    assert not FORBIDDEN & every_name, FORBIDDEN & every_name


def test_clone_may_not_create_namespaces_and_clone3_falls_back() -> None:
    rules = {tuple(rule["names"]): rule for rule in load()["syscalls"]}
    clone = rules[("clone",)]
    assert clone["action"] == "SCMP_ACT_ALLOW"
    assert clone["args"] == [
        {"index": 0, "value": CLONE_NAMESPACE_FLAGS, "valueTwo": 0, "op": "SCMP_CMP_MASKED_EQ"}
    ]
    clone3 = rules[("clone3",)]
    assert clone3["action"] == "SCMP_ACT_ERRNO" and clone3["errnoRet"] == 38  # ENOSYS


def test_every_name_is_a_system_call_somewhere() -> None:
    """A misspelt name would be silently skipped by the runtime: ask libseccomp."""
    path = ctypes.util.find_library("seccomp")
    if path is None:
        pytest.skip("libseccomp is not installed (apt-get install libseccomp2)")
    lib = ctypes.CDLL(path)
    lib.seccomp_syscall_resolve_name_arch.argtypes = [ctypes.c_uint32, ctypes.c_char_p]
    lib.seccomp_syscall_resolve_name_arch.restype = ctypes.c_int
    unknown = []
    for rule in load()["syscalls"]:
        for name in rule["names"]:
            numbers = [
                lib.seccomp_syscall_resolve_name_arch(token, name.encode())
                for token in ARCH_TOKENS.values()
            ]
            if all(n == -1 for n in numbers):  # __NR_SCMP_ERROR on every architecture
                unknown.append(name)
    assert not unknown, f"not a system call on any architecture: {unknown}"
