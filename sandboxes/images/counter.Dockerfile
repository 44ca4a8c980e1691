# The syscall counter: perf, and the script a syscall-profile run starts beside the server
# (see counter/count-syscalls.sh and backend/c10klab/runner/plan.py).
# Build context: sandboxes/.   Tag: c10klab/counter:latest.
ARG BASE_IMAGE=debian:bookworm-slim
FROM ${BASE_IMAGE}
RUN apt-get update \
    && apt-get install -y --no-install-recommends linux-perf \
    && rm -rf /var/lib/apt/lists/*
COPY counter/count-syscalls.sh /usr/local/bin/count-syscalls
ENTRYPOINT ["/usr/local/bin/count-syscalls"]
