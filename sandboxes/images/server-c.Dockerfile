# The C servers (one binary per I/O model), compiled inside Docker.
# Build context: sandboxes/.   Tagged once per server id: c10klab/server:<id>.
ARG BASE_IMAGE=debian:bookworm-slim

FROM ${BASE_IMAGE} AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev make liburing-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
COPY servers/c /src
RUN make -C /src clean all && make -C /src install PREFIX=/out

FROM ${BASE_IMAGE}
COPY --from=build /out/ /usr/local/bin/
# Servers never need root: they listen on ports above 1024.
USER 65534:65534
