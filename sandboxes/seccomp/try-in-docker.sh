#!/usr/bin/env bash
# Tries io-uring.json for real: runs servers in containers locked down the way the runner
# does it (no capabilities, read-only root, user nobody, loopback only, nofile 20000,
# 64 pids), drives each with the load generator from a second container that joins the
# server's network namespace, and checks that
#   1. c-io-uring serves under the profile (with and without --sqpoll on),
#   2. c-epoll serves under it too (the profile is a general one, plus io_uring),
#   3. without the three io_uring calls in the profile, c-io-uring exits 1 with a message
#      naming io_uring_setup, EPERM and the fix.
#
# Usage: sandboxes/seccomp/try-in-docker.sh [SERVER_IMAGE]
#   SERVER_IMAGE defaults to c10klab/server-c:latest; build one without touching it with
#   DOCKER_BUILDKIT=0 docker build -f sandboxes/images/server-c.Dockerfile \
#       --build-arg BASE_IMAGE=c10klab/base:bookworm -t c10klab/server-c:dev sandboxes
# Needs the c10klab/loadgen:latest image (sandboxes/images/build-images.sh builds both).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
image=${1:-c10klab/server-c:latest}
loadgen=c10klab/loadgen:latest
profile=$here/io-uring.json
scratch=$(mktemp -d)
containers=()
cleanup() {
    for c in "${containers[@]}"; do docker rm -f "$c" >/dev/null 2>&1 || true; done
    rm -rf "$scratch"
}
trap cleanup EXIT

python3 "$here/make_profile.py" --check
python3 "$here/make_profile.py" --without-io-uring -o "$scratch/no-io-uring.json"

locked_down=(--cap-drop ALL --security-opt no-new-privileges --read-only --user 65534:65534
    --network none --ulimit nofile=20000:20000 --pids-limit 64)

# serve PROFILE COMMAND...: start a server, load it for 2 s, stop it; fail unless all is well.
serve() {
    local seccomp=$1
    shift
    local id
    id=$(docker run -d --security-opt "seccomp=$seccomp" "${locked_down[@]}" "$image" "$@")
    containers+=("$id")
    local summary
    summary=$(docker run --rm --network "container:$id" "$loadgen" --port 9000 \
        --connections 50 --duration-s 2 --warmup-s 0.5 | grep '"type":"summary"')
    local threads
    threads=$(docker top "$id" -eLf | tail -n +2 | wc -l)
    docker stop -t 5 "$id" >/dev/null
    local status
    status=$(docker inspect -f '{{.State.ExitCode}}' "$id")
    docker logs "$id" 2>&1 | sed 's/^/    /'
    python3 - "$summary" "$status" "$threads" "$*" <<'EOF'
import json, sys
summary, status, threads, what = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
print(f"  {what}: {summary['qps']:.0f} req/s, {summary['error_total']} errors, "
      f"{threads} threads, exit status {status}")
sys.exit(0 if summary["error_total"] == 0 and summary["requests"] > 0 and status == "0" else 1)
EOF
}

echo "1. c-io-uring under io-uring.json"
serve "$profile" /usr/local/bin/c-io-uring --port 9000
serve "$profile" /usr/local/bin/c-io-uring --port 9000 --sqpoll on

echo "2. c-epoll under io-uring.json"
serve "$profile" /usr/local/bin/c-epoll --port 9000

echo "3. c-io-uring under the same profile without io_uring_setup/enter/register"
set +e
output=$(docker run --rm --security-opt "seccomp=$scratch/no-io-uring.json" "${locked_down[@]}" \
    "$image" /usr/local/bin/c-io-uring --port 9000 2>&1)
status=$?
set -e
echo "$output" | sed 's/^/    /'
echo "  exit status $status"
if [ "$status" != 1 ] || ! grep -q 'io_uring_setup() failed (EPERM)' <<<"$output" \
    || ! grep -q 'seccomp=sandboxes/seccomp/io-uring.json' <<<"$output"; then
    echo "error: expected exit status 1 and the EPERM message" >&2
    exit 1
fi
echo "all good"
