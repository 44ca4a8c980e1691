#!/bin/sh
# Start the compose stack's PostgreSQL (the `db` service), as the postgres user.
#
# On the first start the volume is empty: the cluster is made in a folder beside its final
# place, with the course's user (password: C10K_DB_PASSWORD) and database, and moved into place
# only when done, so a first start that dies half-way leaves nothing that looks finished. Later
# starts keep what is there: a new C10K_DB_PASSWORD does not change the user's password
# (`ALTER ROLE c10klab PASSWORD '…'` in psql does).
#
# Usage: db-start.sh        (the CMD of db.Dockerfile; env C10K_DB_PASSWORD, C10K_DB_USER and
#                            C10K_DB_NAME, both "c10klab" by default)
set -eu

volume=/var/lib/postgresql/data
pgdata=$volume/pgdata
user=${C10K_DB_USER:-c10klab}
database=${C10K_DB_NAME:-c10klab}

if [ ! -e "$pgdata/PG_VERSION" ]; then
    : "${C10K_DB_PASSWORD:?is empty: give the course's database user a password}"
    new=$volume/pgdata.new
    rm -rf "$new"
    echo "db-start: first start, making the cluster with user $user and database $database"
    initdb --pgdata="$new" --username=postgres --auth-local=peer --auth-host=scram-sha-256 \
        --encoding=UTF8 --locale=C.UTF-8 >/dev/null
    # Only the course's user, to its own database, with its password, from the network.
    echo "host $database $user all scram-sha-256" >>"$new/pg_hba.conf"
    # A server on a socket only, for the set-up: nobody can connect meanwhile.
    pg_ctl --pgdata="$new" --silent --wait \
        --options="-c listen_addresses='' -c unix_socket_directories=/tmp" start
    # psql quotes the variables (:"name" an identifier, :'name' a literal).
    psql --quiet --no-psqlrc --set=ON_ERROR_STOP=1 --host=/tmp --username=postgres \
        --dbname=postgres --set=user="$user" --set=database="$database" \
        --set=password="$C10K_DB_PASSWORD" <<'SQL'
CREATE ROLE :"user" LOGIN PASSWORD :'password';
CREATE DATABASE :"database" OWNER :"user";
SQL
    pg_ctl --pgdata="$new" --silent --wait --mode=fast stop
    mv "$new" "$pgdata"
fi
# Its socket in /tmp (the container's root is read-only; the image sets PGHOST for psql).
exec postgres -D "$pgdata" -c listen_addresses='*' -c unix_socket_directories=/tmp
