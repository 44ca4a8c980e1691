#!/bin/sh
# count-syscalls: counts a server's system calls at full speed, for a syscall-profile run.
#
# The runner starts this in a container of its own that joins the server container's PID
# namespace once the server is listening. It counts every process and thread there (the
# observer comes later, so it is not among them, and the load generator has a pid namespace
# of its own; what they fork or spawn afterwards is counted too) until SIGINT, which the
# runner sends when the load has ended.
#
# Why perf's tracepoints and not strace: strace stops the server at every call (ptrace), and a
# server slowed that much finds more work waiting each time it looks, so it makes fewer calls
# per request than it would at full speed.
# A tracepoint counter only adds one to a number in the kernel on each call: an event loop
# keeps within about a tenth of its uncounted rate. Each child inherits a copy of every counter,
# though, so a server that forks or starts a thread per connection is slowed by half or more
# (results/counting.md). Why per process, not per cgroup: `perf stat -G` needs the perf_event
# cgroup controller, which cgroup v1 hosts (Docker's cgroupfs driver) often lack; not per CPU:
# the rest of the host's calls on the server's CPU would count as the server's.
#
# Counted: raw_syscalls:sys_enter (every call: the total), and syscalls:sys_enter_NAME for
# each NAME given (those this kernel has), and for the NAMEs after `--errors` also the calls
# that failed (sys_exit_NAME with ret < 0: EAGAIN and the like). perf prints CSV every 250 ms
# (`-I`): its first line tells the runner counting has begun; the sum of its lines is the
# count. perf needs CAP_PERFMON, and CAP_SYS_PTRACE to watch processes of another user; the
# runner grants this container those two and nothing else, and mounts the host's tracefs
# read-only (perf reads the tracepoints' ids there).
#
# Usage: count-syscalls NAME... [--errors NAME...]
set -eu
events=/sys/kernel/tracing/events
if [ ! -r "$events/raw_syscalls/sys_enter/id" ]; then
    echo "count-syscalls: no tracepoints at $events (is tracefs mounted?)" >&2
    exit 2
fi
set -- "$@" --end
counting=enter
args="-e raw_syscalls:sys_enter"
for name in "$@"; do
    case $name in
        --errors) counting=errors; continue ;;
        --end) break ;;
    esac
    if [ "$counting" = enter ] && [ -d "$events/syscalls/sys_enter_$name" ]; then
        args="$args -e syscalls:sys_enter_$name"
    elif [ "$counting" = errors ] && [ -d "$events/syscalls/sys_exit_$name" ]; then
        args="$args -e syscalls:sys_exit_$name --filter ret<0"
    fi
done
# Every process in the namespace but this shell (which becomes perf).
pids=
for dir in /proc/[0-9]*; do
    pid=${dir#/proc/}
    [ "$pid" = $$ ] || pids=${pids:+$pids,}$pid
done
# shellcheck disable=SC2086 # $args is a list of words, split on purpose (none has spaces)
exec perf stat --no-big-num -x, -I 250 $args -p "$pids"
