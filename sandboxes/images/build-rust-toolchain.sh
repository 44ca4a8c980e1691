#!/usr/bin/env bash
# Make an image holding the host's Rust toolchain at /opt/rust, for Dockerfiles that
# compile Rust (build arg RUST_TOOLCHAIN_IMAGE). Toolchain downloads (rustup) are not
# reachable from our build machines, crates.io is: so the compiler comes from the
# host, the crates from the registry during `docker build`.
#
# Usage: build-rust-toolchain.sh [TAG]    (default TAG: c10klab/rust-toolchain:<rustc version>)
set -euo pipefail

sysroot=$(rustc --print sysroot)
version=$(rustc --version | awk '{print $2}')
tag=${1:-c10klab/rust-toolchain:$version}

if docker image inspect "$tag" >/dev/null 2>&1; then
    echo "rust toolchain image $tag already present"
    exit 0
fi
echo "importing the Rust $version toolchain from $sysroot as $tag"
# bin/ and lib/ are the compiler, cargo and the standard library; share/ is docs.
tar -C "$sysroot" --transform 's,^,opt/rust/,' -c bin lib | docker import \
    --change 'ENV PATH=/opt/rust/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    - "$tag" >/dev/null
echo "rust toolchain image $tag imported"
