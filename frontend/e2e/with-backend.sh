#!/usr/bin/env bash
# Run the browser end-to-end tests against the real course: start the API and the runner on a
# spare port with a throwaway store, wait until /api/health says ready, run the tests, stop both.
#
#   solo       (default) the learner's course: e2e/run-benchmark and e2e/every-lesson
#   classroom  C10K_MODE=classroom with one instructor made first (Grace): e2e/classroom
#
# SUITE, the npm script to run, defaults to the mode's (e2e, e2e:classroom); e2e:gradebook runs
# in classroom mode too. A SUITE ending in .mjs is one test file (e2e/lab.e2e.mjs).
#
# Usage: frontend/e2e/with-backend.sh [PORT] [solo|classroom] [SUITE]     (make test-e2e)
set -euo pipefail
port=${1:-8765}
mode=${2:-solo}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/c10klab-e2e.XXXXXX)
log=$work/course.log
store=$work/store.sqlite3
password=e2e-password-123

case $mode in
    solo) suite=e2e ;;
    classroom)
        suite=e2e:classroom
        printf '%s\n' "$password" | C10K_DB_PATH=$store "$root/.venv/bin/python" -m c10klab \
            instructor add Grace ;;
    *) echo "usage: $0 [PORT] [solo|classroom] [SUITE]" >&2; exit 2 ;;
esac
suite=${3:-$suite}

# The runner does not measure its host's noise first (45 s; backend/tests/runner tests that).
# Nor does it call a round disturbed: Chromium and this suite run on the measured cores, and
# the pages' flow, not the host's quiet, is under test here (the stability check has its own
# test, backend/tests/runner/test_stability_docker.py).
C10K_CALIBRATION_RUNS=0 C10K_MAX_INTERFERENCE_SERVER=1 C10K_MAX_INTERFERENCE_LOADGEN=1 \
    C10K_MODE=$mode C10K_PORT=$port C10K_DB_PATH=$store \
    "$root/.venv/bin/python" -m c10klab up >"$log" 2>&1 &
course=$!
stop() {
    kill "$course" 2>/dev/null || true
    wait "$course" 2>/dev/null || true
    rm -rf "$work"
}
trap stop EXIT

ready=""
for _ in $(seq 120); do
    if ! kill -0 "$course" 2>/dev/null; then
        echo "the course exited early:" >&2; cat "$log" >&2; exit 1
    fi
    ready=$(curl -sf "http://127.0.0.1:$port/api/health" 2>/dev/null | grep -o '"ready":true' || true)
    [ -n "$ready" ] && break
    sleep 0.5
done
if [ -z "$ready" ]; then
    echo "the course did not become ready on port $port:" >&2
    curl -s "http://127.0.0.1:$port/api/health" >&2 || true
    tail -n 30 "$log" >&2
    exit 1
fi

cd "$root/frontend"
case $suite in
    *.mjs) run=(node --test "$suite") ;;   # one file, e.g. e2e/lab.e2e.mjs
    *) run=(npm run --silent "$suite") ;;
esac
if ! E2E_BASE_URL="http://127.0.0.1:$port" E2E_INSTRUCTOR=Grace E2E_PASSWORD=$password \
        "${run[@]}"; then
    echo "--- course log ---" >&2; tail -n 40 "$log" >&2
    exit 1
fi
