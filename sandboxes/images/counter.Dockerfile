# The profilers that watch a server from beside it: perf, with the syscall counter
# (counter/count-syscalls.sh) and the stack profiler (counter/profile-stacks.sh); see
# backend/c10klab/runner/plan.py.
# Build context: sandboxes/.   Tag: c10klab/counter:latest.
ARG BASE_IMAGE=debian:bookworm-slim
FROM ${BASE_IMAGE}
RUN apt-get update \
    && apt-get install -y --no-install-recommends linux-perf \
    && rm -rf /var/lib/apt/lists/*
COPY counter/count-syscalls.sh /usr/local/bin/count-syscalls
COPY counter/profile-stacks.sh /usr/local/bin/profile-stacks
COPY counter/fold-stacks.awk /usr/local/share/c10klab/fold-stacks.awk
ENTRYPOINT ["/usr/local/bin/count-syscalls"]
