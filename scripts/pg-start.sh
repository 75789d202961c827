#!/usr/bin/env bash
# Starts a throw-away PostgreSQL 15 server on a loopback port for the test suite and prints its URL.
# Usage: scripts/pg-start.sh DIR PORT   (stop with scripts/pg-stop.sh DIR)
set -euo pipefail
dir=${1:?data dir}; port=${2:?port}
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
[ -n "$bindir" ] || { echo "PostgreSQL server binaries not found (apt-get install postgresql)" >&2; exit 1; }
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
rm -rf "$dir"; mkdir -p "$dir"
[ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
# A UTF-8 locale: with the C locale pg_trgm would ignore Chinese characters.
as_pg "$bindir/initdb" -D "$dir/data" -E UTF8 --locale=C.UTF-8 -U postgres -A trust >"$dir/initdb.log" 2>&1
as_pg "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" start >/dev/null
echo "postgres://postgres@127.0.0.1:$port/postgres"
