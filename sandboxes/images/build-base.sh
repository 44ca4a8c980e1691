#!/usr/bin/env bash
# Make the base image every sandbox Dockerfile starts FROM (build arg BASE_IMAGE).
#
# Tries a registry pull first; where no registry is reachable (as on the course's
# CI machines) it builds the same Debian bookworm root with debootstrap from the
# Debian mirror and turns it into an image with `docker import`.
#
# The image trusts the same extra CA certificates as the host that builds it
# (/usr/local/share/ca-certificates), so package downloads inside `docker build` work
# wherever they work on the host, TLS-inspecting proxies included.
#
# Usage: build-base.sh [TAG]        (default TAG: c10klab/base:bookworm)
set -euo pipefail

tag=${1:-c10klab/base:bookworm}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

if docker image inspect "$tag" >/dev/null 2>&1; then
    echo "base image $tag already present"
    exit 0
fi

if timeout 60 docker pull debian:bookworm-slim >/dev/null 2>&1; then
    docker tag debian:bookworm-slim "$tag"
    echo "base image $tag tagged from debian:bookworm-slim"
    exit 0
fi

if ! command -v debootstrap >/dev/null; then
    echo "error: no registry reachable and debootstrap is missing; install it (apt-get install debootstrap)" >&2
    exit 1
fi

root=$(mktemp -d /tmp/c10klab-base.XXXXXX)
trap 'rm -rf "$root"' EXIT
echo "no registry reachable: building $tag with debootstrap from $mirror (a few minutes)"
debootstrap --variant=minbase --include=ca-certificates bookworm "$root" "$mirror" >/tmp/c10klab-debootstrap.log 2>&1 || {
    echo "error: debootstrap failed; see /tmp/c10klab-debootstrap.log" >&2
    exit 1
}
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
    chroot "$root" update-ca-certificates >/dev/null
fi
# Keep the image small and its apt sources usable inside later builds.
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
echo "deb $mirror bookworm main" >"$root/etc/apt/sources.list"
tar -C "$root" -c . | docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["/bin/bash"]' - "$tag" >/dev/null
echo "base image $tag imported"
