# The compose stack's store: PostgreSQL from Debian bookworm's `postgresql` package, run as the
# postgres user. Built by docker-compose (the `db` service) from the course's base image, so it
# needs no registry. Its data lives on the volume at /var/lib/postgresql/data; db-start.sh
# makes the cluster, the course's user and database there on the first start.
# Build context: sandboxes/images.
ARG BASE_IMAGE=debian:bookworm-slim
FROM ${BASE_IMAGE}
# No cluster at install time (Debian's postinst would make one under /var/lib/postgresql/15):
# the volume gets its own on the first start. The server's tools go on PATH, ahead of
# postgresql-common's wrappers, which expect Debian's cluster layout.
RUN mkdir -p /etc/postgresql-common \
    && echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.conf \
    && apt-get update \
    && apt-get install -y --no-install-recommends postgresql \
    && rm -rf /var/lib/apt/lists/* \
    && ln -s /usr/lib/postgresql/*/bin/* /usr/local/bin/ \
    && install -d -o postgres -g postgres -m 0700 /var/lib/postgresql/data
COPY db-start.sh /usr/local/bin/db-start.sh
# A new named volume takes this folder's owner and mode: the postgres user's, 0700.
VOLUME /var/lib/postgresql/data
USER postgres
ENV PGHOST=/tmp
# SIGINT is PostgreSQL's fast shutdown: SIGTERM would wait for the API's pooled connections.
STOPSIGNAL SIGINT
EXPOSE 5432
CMD ["db-start.sh"]
