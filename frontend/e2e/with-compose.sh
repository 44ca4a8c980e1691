#!/usr/bin/env bash
# Run the classroom's browser end-to-end test against the hosting stack, as an instructor starts
# it: docker-compose.yml up on a spare port under a project of its own, an instructor made in
# the api container, wait until /api/health says ready, run e2e/classroom, then take the whole
# stack down with its volume (and keep its last log lines in var/compose-e2e.log).
#
# Usage: frontend/e2e/with-compose.sh [PORT]          (make test-e2e; images built first)
set -euo pipefail
port=${1:-8772}
root=$(cd "$(dirname "$0")/../.." && pwd)
project=c10klab-e2e
password=e2e-password-123

if command -v docker-compose >/dev/null; then
    compose=(docker-compose)
elif docker compose version >/dev/null 2>&1; then
    compose=(docker compose)
else
    echo "neither docker-compose nor 'docker compose' is installed (make host-test)" >&2
    exit 1
fi
# The runner does not measure its host's noise first (45 s; backend/tests/runner tests that).
stack() { C10K_CALIBRATION_RUNS=0 C10K_PUBLISH=127.0.0.1:$port "${compose[@]}" -p "$project" "$@"; }

cd "$root"
stop() {
    mkdir -p var
    stack logs --no-color --tail 60 >var/compose-e2e.log 2>&1 || true
    stack down --volumes --remove-orphans >/dev/null 2>&1 || true
}
trap stop EXIT
stack down --volumes --remove-orphans >/dev/null 2>&1 || true  # what a killed run left
stack build --quiet 2>/dev/null || stack build
stack up -d

ready=""
for _ in $(seq 120); do
    ready=$(curl -sf "http://127.0.0.1:$port/api/health" 2>/dev/null | grep -o '"ready":true' || true)
    [ -n "$ready" ] && break
    sleep 1
done
if [ -z "$ready" ]; then
    echo "the stack did not become ready on port $port:" >&2
    curl -s "http://127.0.0.1:$port/api/health" >&2 || true
    stack logs --no-color --tail 40 >&2
    exit 1
fi
printf '%s\n' "$password" | stack exec -T api python3 -m c10klab instructor add Grace

cd "$root/frontend"
if ! E2E_BASE_URL="http://127.0.0.1:$port" E2E_INSTRUCTOR=Grace E2E_PASSWORD=$password \
        npm run --silent e2e:classroom; then
    # The runner's log first, the API's last: a 500's traceback is then the last thing printed.
    echo "--- runner log ---" >&2; stack logs --no-color --tail 20 runner >&2
    echo "--- api log ---" >&2; stack logs --no-color --tail 60 api >&2
    exit 1
fi
