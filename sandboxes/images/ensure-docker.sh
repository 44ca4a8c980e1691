#!/usr/bin/env bash
# Make sure a Docker engine answers. On Debian as root, install docker.io where it is missing
# and start dockerd in the background; anywhere else, say what to do.
set -euo pipefail
log=${DOCKERD_LOG:-/var/log/c10klab-dockerd.log}

if docker info >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "error: no Docker engine answers. Start Docker (e.g. 'sudo systemctl start docker')," >&2
    echo "       or add yourself to the docker group, then run this again." >&2
    exit 1
fi
if ! command -v dockerd >/dev/null; then
    echo "installing docker.io (Debian's Docker engine)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >/dev/null
fi
if ! command -v docker >/dev/null; then
    echo "error: dockerd is installed but there is no docker client on PATH" >&2
    exit 1
fi
if ! pgrep -x dockerd >/dev/null; then
    echo "starting dockerd (log: $log)"
    nohup dockerd >"$log" 2>&1 &
fi
for _ in $(seq 60); do
    docker info >/dev/null 2>&1 && exit 0
    sleep 0.5
done
echo "error: dockerd did not answer within 30 s; see $log" >&2
exit 1
