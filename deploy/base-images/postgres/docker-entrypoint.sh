#!/bin/sh
# The official postgres image's start-up, reduced to what docker-compose.yml uses: as root,
# own the data folder and drop to `postgres`; on an empty PGDATA, initdb with
# POSTGRES_PASSWORD for `postgres` (scram-sha-256 over TCP), run /docker-entrypoint-initdb.d/*.sql
# on a socket-only server, then serve on every address.
set -eu
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown -R postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}"
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb -U postgres --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 -D "$PGDATA"
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start
  for f in /docker-entrypoint-initdb.d/*.sql; do
    [ -e "$f" ] || continue
    echo "running $f"
    psql -v ON_ERROR_STOP=1 -U postgres -f "$f"
  done
  pg_ctl -D "$PGDATA" -m fast -w stop
fi
if [ "${1:-}" = postgres ]; then shift; exec postgres -c listen_addresses='*' "$@"; fi
exec "$@"
