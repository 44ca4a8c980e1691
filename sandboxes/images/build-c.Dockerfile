# The build sandbox for learners' edited C servers: the compiler, liburing, and the course's
# own servers/c (the shared modules a model file is compiled against, with the Makefile's
# flags). The runner starts it with no network, no capabilities, a read-only root and a small
# tmpfs; see builder/build-variant.sh for what one build does.
# Build context: sandboxes/.   Tag: c10klab/build-c:latest.
ARG BASE_IMAGE=debian:bookworm-slim
FROM ${BASE_IMAGE}
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev make liburing-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
COPY servers/c /opt/c10klab/servers/c
COPY builder/build-variant.sh /usr/local/bin/build-variant
USER 65534:65534
ENTRYPOINT ["/usr/local/bin/build-variant"]
