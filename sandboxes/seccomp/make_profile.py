#!/usr/bin/env python3
"""Writes io-uring.json, the seccomp profile Docker gets for servers that need io_uring.

Why it exists: Docker 25 and later (and containerd 2.0) dropped io_uring_setup,
io_uring_enter and io_uring_register from their default seccomp profile, so an io_uring
server fails there with EPERM. The runner passes this profile (security_opt
"seccomp=<json>") only to servers whose catalog entry says "needs_io_uring": true; every
other server keeps the engine's default.

Why Docker dropped them: an operation submitted through an io_uring ring (open a file,
connect a socket, ...) is carried out by the kernel without the matching system call, so
a seccomp filter never sees it. Allowing io_uring therefore lets a process do, through
the ring, some of what this profile forbids as system calls. The course's servers are our
own code, started with no capabilities, a read-only root, no network but loopback and as
user nobody; that is the trade we make to teach io_uring.

How it is written: an allowlist. Anything not listed fails with EPERM (errno 1). The list
is what a static or glibc-linked server (C or Rust) needs to start, serve sockets with
threads or processes, and exit, plus what runc needs between installing the filter and
starting the server (execve, and without no-new-privileges the capability and uid calls).
Names that do not exist on an architecture are skipped by the runtime (libseccomp).

Usage:
    python3 sandboxes/seccomp/make_profile.py              # rewrite io-uring.json
    python3 sandboxes/seccomp/make_profile.py --check      # exit 1 if io-uring.json is stale
    python3 sandboxes/seccomp/make_profile.py --without-io-uring -o /tmp/no-uring.json
                                                           # the same minus io_uring, to
                                                           # see the server's EPERM message
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROFILE = HERE / "io-uring.json"
EPERM = 1
ENOSYS = 38

# Each group: (comment, syscall names). Order is kept in the JSON, so the file reads the same.
# fmt: off
ALLOWED: list[tuple[str, list[str]]] = [
    (
        "io_uring: the reason this profile exists (Docker >= 25 blocks these by default)",
        ["io_uring_setup", "io_uring_enter", "io_uring_register"],
    ),
    (
        "memory: the heap, mapped rings and buffers, thread stacks",
        [
            "brk", "mmap", "mmap2", "munmap", "mremap", "mprotect", "madvise", "mincore",
            "msync", "membarrier", "get_mempolicy",
        ],
    ),
    (
        "file descriptors: reading, writing, inspecting and closing them",
        [
            "read", "write", "readv", "writev", "pread64", "pwrite64", "preadv", "pwritev",
            "preadv2", "pwritev2", "lseek", "_llseek", "close", "close_range", "dup", "dup2",
            "dup3", "fcntl", "fcntl64", "ioctl", "fstat", "fstat64", "fstatfs", "fstatfs64",
            "fsync", "fdatasync", "ftruncate", "ftruncate64", "fadvise64", "fadvise64_64",
            "sendfile", "sendfile64", "splice", "tee", "pipe", "pipe2", "eventfd", "eventfd2",
            "memfd_create",
        ],
    ),
    (
        "paths: opening libraries, /proc and /sys files (the root is read-only anyway)",
        [
            "open", "openat", "openat2", "stat", "stat64", "lstat", "lstat64", "newfstatat",
            "fstatat64", "statx", "statfs", "statfs64", "access", "faccessat", "faccessat2",
            "readlink", "readlinkat", "getdents", "getdents64", "getcwd", "chdir", "fchdir",
            "umask",
        ],
    ),
    (
        "sockets (socketcall is how 32-bit x86 makes every socket call)",
        [
            "socket", "socketpair", "bind", "listen", "accept", "accept4", "connect",
            "getsockname", "getpeername", "getsockopt", "setsockopt", "shutdown", "sendto",
            "recvfrom", "sendmsg", "recvmsg", "sendmmsg", "recvmmsg", "recvmmsg_time64",
            "socketcall",
        ],
    ),
    (
        "waiting for file descriptors: select, poll, epoll",
        [
            "select", "_newselect", "pselect6", "pselect6_time64", "poll", "ppoll",
            "ppoll_time64", "epoll_create", "epoll_create1", "epoll_ctl", "epoll_wait",
            "epoll_pwait", "epoll_pwait2",
        ],
    ),
    (
        "threads and locks (clone itself is below, with its flags restricted)",
        [
            "futex", "futex_time64", "futex_waitv", "set_robust_list", "get_robust_list",
            "set_tid_address", "gettid", "rseq", "arch_prctl", "set_thread_area",
            "get_thread_area", "prctl",
        ],
    ),
    (
        "processes: fork/vfork, waiting for children, exiting, runc's execve of the server",
        [
            "fork", "vfork", "execve", "execveat", "wait4", "waitpid", "waitid", "exit",
            "exit_group", "getpid", "getppid", "getpgrp", "getpgid", "getsid", "setsid",
            "setpgid",
        ],
    ),
    (
        "signals: handlers, masks, the self-pipe's SIGTERM, killing own children",
        [
            "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigreturn", "sigaltstack",
            "rt_sigpending", "rt_sigsuspend", "rt_sigtimedwait", "rt_sigtimedwait_time64",
            "rt_sigqueueinfo", "rt_tgsigqueueinfo", "signalfd", "signalfd4", "sigaction",
            "sigprocmask", "signal", "pause", "restart_syscall", "kill", "tkill", "tgkill",
        ],
    ),
    (
        "time and timers",
        [
            "clock_gettime", "clock_gettime64", "clock_getres", "clock_getres_time64",
            "clock_nanosleep", "clock_nanosleep_time64", "nanosleep", "gettimeofday", "time",
            "timerfd_create", "timerfd_settime", "timerfd_settime64", "timerfd_gettime",
            "timerfd_gettime64", "timer_create", "timer_settime", "timer_settime64",
            "timer_gettime", "timer_gettime64", "timer_getoverrun", "timer_delete",
            "getitimer", "setitimer", "alarm",
        ],
    ),
    (
        "scheduling and CPU placement (thread pools size themselves from the affinity mask)",
        [
            "sched_yield", "sched_getaffinity", "sched_setaffinity", "sched_getparam",
            "sched_setparam", "sched_getscheduler", "sched_setscheduler",
            "sched_get_priority_max", "sched_get_priority_min", "sched_rr_get_interval",
            "sched_rr_get_interval_time64", "sched_getattr", "sched_setattr", "getcpu",
            "getpriority", "setpriority",
        ],
    ),
    (
        (
            "identity and limits: who am I, nofile (raised to the hard limit), resource usage; "
            "runc drops to the container's user and capabilities with these when "
            "no-new-privileges is off"
        ),
        [
            "getuid", "geteuid", "getgid", "getegid", "getuid32", "geteuid32", "getgid32",
            "getegid32", "getresuid", "getresgid", "getresuid32", "getresgid32", "getgroups",
            "getgroups32", "setuid", "setgid", "setuid32", "setgid32", "setresuid", "setresgid",
            "setresuid32", "setresgid32", "setreuid", "setregid", "setreuid32", "setregid32",
            "setgroups", "setgroups32", "setfsuid", "setfsgid", "setfsuid32", "setfsgid32",
            "capget", "capset", "getrlimit", "ugetrlimit", "setrlimit", "prlimit64",
            "getrusage", "times",
        ],
    ),
    (
        "the rest of a C or Rust runtime's start-up",
        ["uname", "sysinfo", "getrandom"],
    ),
]
# fmt: on

# clone(2) creates threads and processes; with a CLONE_NEW* flag it would create
# namespaces (an unprivileged user namespace is the first step of many kernel exploits).
# Allowed only when none of those flags is set, as Docker's default profile does.
# The flags are clone's first argument on x86 and arm (s390 swaps them; not supported here).
CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
CLONE_NAMESPACE_FLAGS = (
    CLONE_NEWNS
    | CLONE_NEWCGROUP
    | CLONE_NEWUTS
    | CLONE_NEWIPC
    | CLONE_NEWUSER
    | CLONE_NEWPID
    | CLONE_NEWNET
)

# Architectures the filter is built for: 64-bit x86 with its 32-bit and x32 ABIs, and
# 64-bit ARM with 32-bit ARM. A call from any other ABI is refused by the runtime.
ARCH_MAP = [
    {"architecture": "SCMP_ARCH_X86_64", "subArchitectures": ["SCMP_ARCH_X86", "SCMP_ARCH_X32"]},
    {"architecture": "SCMP_ARCH_AARCH64", "subArchitectures": ["SCMP_ARCH_ARM"]},
]

IO_URING_CALLS = {"io_uring_setup", "io_uring_enter", "io_uring_register"}


def build_profile(with_io_uring: bool = True) -> dict[str, object]:
    syscalls: list[dict[str, object]] = []
    for comment, names in ALLOWED:
        kept = [n for n in names if with_io_uring or n not in IO_URING_CALLS]
        if kept:
            syscalls.append({"comment": comment, "names": kept, "action": "SCMP_ACT_ALLOW"})
    syscalls.append(
        {
            "comment": "clone: threads and processes, but no new namespaces",
            "names": ["clone"],
            "action": "SCMP_ACT_ALLOW",
            "args": [
                {
                    "index": 0,
                    "value": CLONE_NAMESPACE_FLAGS,
                    "valueTwo": 0,
                    "op": "SCMP_CMP_MASKED_EQ",
                }
            ],
        }
    )
    syscalls.append(
        {
            "comment": "clone3 takes its flags in memory, which seccomp cannot inspect: answer "
            "ENOSYS so that glibc and Rust fall back to clone, checked above",
            "names": ["clone3"],
            "action": "SCMP_ACT_ERRNO",
            "errnoRet": ENOSYS,
        }
    )
    return {
        "comment": "Generated by sandboxes/seccomp/make_profile.py - edit that, then run it.",
        "defaultAction": "SCMP_ACT_ERRNO",
        "defaultErrnoRet": EPERM,
        "archMap": ARCH_MAP,
        "syscalls": syscalls,
    }


def render(profile: dict[str, object]) -> str:
    return json.dumps(profile, indent=2) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="fail if io-uring.json is stale")
    parser.add_argument(
        "--without-io-uring", action="store_true", help="leave out the three io_uring calls"
    )
    parser.add_argument("-o", "--output", type=Path, default=PROFILE, help="where to write")
    args = parser.parse_args()

    text = render(build_profile(with_io_uring=not args.without_io_uring))
    if args.check:
        if not PROFILE.is_file() or PROFILE.read_text() != text:
            print(f"{PROFILE} is stale: run {Path(__file__).name}", file=sys.stderr)
            return 1
        return 0
    args.output.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
