#!/usr/bin/env bash
# Make sure the host's tracefs is mounted: a run with `profile: syscalls` counts the server's
# system calls with perf on the kernel's tracepoints, which perf finds in tracefs
# (backend/c10klab/runner/plan.py mounts /sys/kernel/tracing into the counter, read-only).
# Most distributions mount it at boot; a minimal VM or container host may not. As root, mount
# it; otherwise say what to do. Never fatal: without tracefs a profiled run still runs, and its
# profile says it could not count.
set -euo pipefail
tracing=/sys/kernel/tracing

[ -d "$tracing/events" ] && exit 0
if [ "$(id -u)" = 0 ] && grep -qw tracefs /proc/filesystems \
    && mount -t tracefs nodev "$tracing" 2>/dev/null && [ -d "$tracing/events" ]; then
    echo "mounted tracefs on $tracing (for system call profiles)"
    exit 0
fi
echo "note: no tracefs at $tracing, so profiled runs cannot count system calls;" \
    "as root: mount -t tracefs nodev $tracing" >&2
