#!/usr/bin/env bash
# Build every sandbox image: the base, the Rust toolchain, the C servers (tagged once per
# catalog id), the load generator, the syscall counter and the build sandbox for learners'
# edited servers. Docker's layer cache makes a second run quick.
#
# Usage: sandboxes/images/build-images.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sandboxes=$(dirname "$here")

base=c10klab/base:bookworm
toolchain=c10klab/rust-toolchain:$(rustc --version | awk '{print $2}')

"$here/build-base.sh" "$base"
"$here/build-rust-toolchain.sh" "$toolchain"

# The engine may be older than the client and lack BuildKit; the classic builder does all we need.
export DOCKER_BUILDKIT=0
build() { # build TAG DOCKERFILE [BUILD_ARG…]
    local tag=$1 file=$2
    shift 2
    echo "building $tag"
    local out
    if ! out=$(docker build -t "$tag" -f "$here/$file" --build-arg "BASE_IMAGE=$base" "$@" \
        "$sandboxes" 2>&1); then
        echo "$out" >&2
        echo "error: building $tag failed (output above)" >&2
        return 1
    fi
}

build c10klab/server-c:latest server-c.Dockerfile
build c10klab/loadgen:latest loadgen.Dockerfile --build-arg "RUST_TOOLCHAIN_IMAGE=$toolchain"
build c10klab/server-rust:latest server-rust.Dockerfile --build-arg "RUST_TOOLCHAIN_IMAGE=$toolchain"
build c10klab/counter:latest counter.Dockerfile
build c10klab/build-c:latest build-c.Dockerfile

# One tag per server id, so the id names the image everywhere.
ids_in() { # ids_in LANGUAGE
    python3 -c 'import json, sys
catalog = json.load(open(sys.argv[1]))
print(" ".join(s["id"] for s in catalog["servers"] if s["language"] == sys.argv[2]))' \
        "$sandboxes/catalog.json" "$1"
}
for language in c rust; do
    for id in $(ids_in "$language"); do
        docker tag "c10klab/server-$language:latest" "c10klab/server:$id"
        echo "tagged c10klab/server:$id"
    done
done
