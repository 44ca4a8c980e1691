#!/usr/bin/env bash
# Run the browser end-to-end test against the real course: start the API and the runner on a
# spare port with a throwaway store, wait until /api/health says ready, run the test, stop both.
#
# Usage: frontend/e2e/with-backend.sh [PORT]     (make test-e2e)
set -euo pipefail
port=${1:-8765}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/c10klab-e2e.XXXXXX)
log=$work/course.log

C10K_PORT=$port C10K_DB_PATH=$work/store.sqlite3 "$root/.venv/bin/python" -m c10klab up >"$log" 2>&1 &
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
if ! E2E_BASE_URL="http://127.0.0.1:$port" npm run --silent e2e; then
    echo "--- course log ---" >&2; tail -n 40 "$log" >&2
    exit 1
fi
