# The Rust servers (rust-tokio, rust-io-uring), compiled inside Docker with the host's
# toolchain (image made by build-rust-toolchain.sh) and crates fetched from crates.io.
# Build context: sandboxes/.   Tagged once per server id: c10klab/server:<id>.
ARG BASE_IMAGE=debian:bookworm-slim
ARG RUST_TOOLCHAIN_IMAGE=c10klab/rust-toolchain:latest

FROM ${RUST_TOOLCHAIN_IMAGE} AS toolchain

FROM ${BASE_IMAGE} AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev ca-certificates \
    && rm -rf /var/lib/apt/lists/*
COPY --from=toolchain /opt/rust /opt/rust
ENV PATH=/opt/rust/bin:$PATH CARGO_HOME=/cargo
# Frame pointers, so a cpu or offcpu profile can walk its stacks (results/profile.md).
ENV RUSTFLAGS="-C force-frame-pointers=yes"
COPY servers/rust /src
WORKDIR /src
RUN cargo build --release --locked --bins

FROM ${BASE_IMAGE}
COPY --from=build /src/target/release/rust-tokio /src/target/release/rust-io-uring /usr/local/bin/
# Servers never need root: they listen on ports above 1024.
USER 65534:65534
