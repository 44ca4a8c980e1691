#!/bin/sh
# profile-stacks: where a server's time goes, as call stacks through the kernel, for a
# profiled run (profile "cpu" or "offcpu").
#
# The runner starts this in a container of its own that joins the server container's PID
# namespace once the server is listening, like the syscall counter (count-syscalls.sh). It
# starts perf record on every process and thread there (inherited: what they fork or spawn
# later is recorded too) with its events off, and says "profiler: ready". Then:
#   profile-control enable   (run by the runner when the load's measured phase begins)
#   SIGINT                   (sent by the runner when the load has ended)
# turn recording on and end it. Only the measured window is recorded.
#
#   cpu     samples the stacks on the CPU (cpu-clock at FREQ Hz: a software timer, so it works
#           in a VM without hardware counters), user and kernel frames;
#   offcpu  records each switch off the CPU (sched:sched_switch) with its stack, and the
#           switches back (--switch-events), so the time between is the time blocked there.
#
# What leaves this container is names only: after recording, the script copies what perf
# needs to name the frames (the server's mapped executables and libraries, read through
# /proc/PID/root, and /proc/kallsyms) into its own /tmp, then drops to a user of its own with
# no capabilities before perf reads them (a learner's binary is parsed with no privilege at
# all, by a user the server's cannot trace), and prints each stack folded, root first, one
# line each:  stack WEIGHT comm;frame;frame_[k]   (_[k]: a kernel frame; WEIGHT: samples, or
# microseconds off the CPU). No address is ever printed: a frame perf cannot name is named by
# its file ("[libc.so.6]") or "[unknown]".
#
# Privileges (granted by the runner, nothing else): CAP_PERFMON (or CAP_SYS_ADMIN on engines
# that predate it) for perf_event_open on another user's processes and kernel stacks;
# CAP_SYSLOG to read kernel symbols' addresses in /proc/kallsyms; CAP_SYS_PTRACE to read the
# server's /proc/PID/maps and files; CAP_SETUID, CAP_SETGID and CAP_SETPCAP to drop all of
# them before parsing; CAP_CHOWN, CAP_FOWNER and CAP_DAC_OVERRIDE to hand the copies to that user.
#
# Usage: profile-stacks cpu|offcpu FREQ
set -eu
mode=$1
freq=$2
work=/tmp/profile
reader=65533 # not the server's user (65534): the server cannot trace what reads its files
mkdir -p "$work/symfs"
mkfifo "$work/control" "$work/ack"
# Held open for writing here, so perf never sees the control FIFO's writers all gone.
exec 3<>"$work/control"

pids=
for dir in /proc/[0-9]*; do
    pid=${dir#/proc/}
    [ "$pid" = $$ ] || pids=${pids:+$pids,}$pid
done

case $mode in
    cpu)
        events="-e cpu-clock -F $freq"
        fields=comm,tid,ip,sym,dso
        ;;
    offcpu)
        events="-e sched:sched_switch --switch-events"
        fields=comm,tid,time,event,ip,sym,dso,trace
        ;;
    *)
        echo "profile-stacks: unknown mode $mode (cpu or offcpu)" >&2
        exit 2
        ;;
esac

# shellcheck disable=SC2086 # $events is a list of words, split on purpose
perf record $events -g --no-buildid -o "$work/perf.data" \
    --control="fifo:$work/control,$work/ack" -D -1 -p "$pids" 2>"$work/record.log" &
perf_pid=$!
trap 'kill -INT "$perf_pid" 2>/dev/null || true' INT TERM

# perf says "Events disabled" once it has attached with its events off.
until grep -q "Events disabled" "$work/record.log" 2>/dev/null; do
    if ! kill -0 "$perf_pid" 2>/dev/null; then
        echo "profile-stacks: perf record did not start: $(tail -n 3 "$work/record.log" | tr '\n' ' ')"
        exit 3
    fi
    sleep 0.05
done
echo "profiler: ready"

# Waits until SIGINT has ended perf (a signal interrupts `wait`, so wait again).
while kill -0 "$perf_pid" 2>/dev/null; do
    wait "$perf_pid" || true
done
grep -E "^\[ perf record: Captured" "$work/record.log" || true

# The files perf names user frames from, copied as they are mapped by the processes still
# alive (a forking server's children run the same executable as their parent).
for maps in /proc/[0-9]*/maps; do
    dir=${maps%/maps}
    [ "${dir#/proc/}" = $$ ] && continue
    awk '$2 ~ /x/ && $6 ~ /^\// { print $6 }' "$maps" 2>/dev/null
done | sort -u | while read -r path; do
    [ -e "$work/symfs$path" ] && continue
    mkdir -p "$work/symfs${path%/*}"
    cp "/proc/1/root$path" "$work/symfs$path" 2>/dev/null || true
done
cp /proc/kallsyms "$work/kallsyms"
chown -R "$reader:$reader" "$work"

setpriv --reuid="$reader" --regid="$reader" --clear-groups --inh-caps=-all --bounding-set=-all -- \
    perf script -i "$work/perf.data" --symfs="$work/symfs" --kallsyms="$work/kallsyms" \
    --show-switch-events -F "$fields" 2>/dev/null |
    awk -v mode="$mode" -v main="$(cat /proc/1/comm)" -f /usr/local/share/c10klab/fold-stacks.awk
