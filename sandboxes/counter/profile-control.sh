#!/bin/sh
# profile-control: turns a profile-stacks recording's events on (the runner runs
# `profile-control enable` in the profiler's container when the measured phase begins) and
# waits for perf's acknowledgement, so the runner knows recording has begun.
set -eu
work=/tmp/profile
echo "$1" >"$work/control"
read -r ack <"$work/ack"
echo "profiler: $1 $ack"
