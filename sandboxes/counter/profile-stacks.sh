#!/bin/sh
# profile-stacks: where a server's time goes, as call stacks through the kernel, for a
# profiled run (profile "cpu" or "offcpu").
#
# The runner starts this in a container of its own that joins the server container's PID
# namespace once the server is listening, like the syscall counter (count-syscalls.sh). It
# starts perf record on the server's CPUs (-a -C CPUS) with its events off, and says
# "profiler: ready". Then:
#   SIGUSR1   (sent by the runner when the load's measured phase begins)
#   SIGINT    (sent by the runner when the load has ended)
# turn recording on and end it. Only the measured window is recorded. Signals, not a command
# run in this container: on a busy host starting one took longer than a 1 s measured phase.
#
# Why the server's CPUs and not its processes (perf record -p, inherited): a per-task clock
# starts each new thread or process on a full period (2 ms at 499 Hz), so a server that
# starts one per request, each living well under that, is hardly ever sampled: its profile
# showed a quarter of the time the server used. And every fork copies inherited events, which
# costs such a server speed. Recording the CPUs, perf gives each sample the pid of the task in
# this PID namespace: the server's tasks have theirs, every task outside it (the idle task,
# the kernel's threads, any other program) has 0, so the fold keeps the server's stacks and
# counts the rest as idle or other work.
#
#   cpu     samples the CPUs' stacks (cpu-clock at FREQ Hz: a software timer, so it works in a
#           VM without hardware counters), user and kernel frames;
#   offcpu  records every switch on those CPUs (sched:sched_switch) with the stack of the task
#           switched out, so the time until that task is switched back in is time it spent
#           off the CPU, there.
#
# What leaves this container is names only: after recording, the script copies what perf
# needs to name the frames (the server's mapped executables and libraries, read through
# /proc/PID/root, and /proc/kallsyms) into its own /tmp, then drops to a user of its own with
# no capabilities before perf reads them (a learner's binary is parsed with no privilege at
# all, by a user the server's cannot trace), and fold-stacks.awk prints each stack folded,
# root first: `stack WEIGHT comm;frame;frame_[k]` (_[k]: a kernel frame; WEIGHT: samples,
# or microseconds off the CPU). No address is ever printed.
#
# Privileges (granted by the runner, nothing else): CAP_PERFMON (or CAP_SYS_ADMIN on engines
# that predate it) for perf_event_open on CPUs and kernel stacks; CAP_SYSLOG to read kernel
# symbols' addresses in /proc/kallsyms; CAP_SYS_PTRACE to read the server's /proc/PID/maps
# and files; CAP_SETUID, CAP_SETGID and CAP_SETPCAP to drop all of them before parsing;
# CAP_CHOWN, CAP_FOWNER and CAP_DAC_OVERRIDE to hand the copies to that user.
#
# Usage: profile-stacks cpu|offcpu FREQ CPUS
set -eu
mode=$1
freq=$2
cpus=$3
work=/tmp/profile
reader=65533 # not the server's user (65534): the server cannot trace what reads its files
mkdir -p "$work/symfs"
mkfifo "$work/control" "$work/ack"
# Held open for writing here, so perf never sees the control FIFO's writers all gone.
exec 3<>"$work/control"

case $mode in
    cpu)
        events="-e cpu-clock -F $freq"
        fields=comm,pid,tid,ip,sym,dso
        ;;
    offcpu)
        events="-e sched:sched_switch"
        fields=comm,pid,tid,time,event,ip,sym,dso,trace
        ;;
    *)
        echo "profile-stacks: unknown mode $mode (cpu or offcpu)" >&2
        exit 2
        ;;
esac

# shellcheck disable=SC2086 # $events is a list of words, split on purpose
perf record $events -g --no-buildid -o "$work/perf.data" \
    --control="fifo:$work/control,$work/ack" -D -1 -a -C "$cpus" 2>"$work/record.log" &
perf_pid=$!
trap 'kill -INT "$perf_pid" 2>/dev/null || true' INT TERM
# perf reads its control FIFO: "enable" turns its events on.
trap 'echo enable >&3' USR1

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
    -F "$fields" 2>/dev/null |
    awk -v mode="$mode" -v main="$(cat /proc/1/comm)" -v ours="$$ $perf_pid" \
        -f /usr/local/share/c10klab/fold-stacks.awk
