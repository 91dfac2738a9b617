#!/bin/sh
# The first start makes the cluster, its user (password auth over the network) and its
# database, as the upstream postgres image does; every start then runs the server.
set -eu
: "${POSTGRES_USER:?set POSTGRES_USER}" "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}"
POSTGRES_DB=${POSTGRES_DB:-$POSTGRES_USER}
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$pwfile" -E UTF8 --locale=C.UTF-8 --auth-local=trust \
    --auth-host=scram-sha-256
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  if [ "$POSTGRES_DB" != postgres ]; then
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start
    createdb -U "$POSTGRES_USER" "$POSTGRES_DB"
    pg_ctl -D "$PGDATA" -m fast -w stop
  fi
fi
exec postgres -D "$PGDATA" -c listen_addresses='*'
