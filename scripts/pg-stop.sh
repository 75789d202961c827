#!/usr/bin/env bash
set -u
dir=${1:?data dir}
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
[ -d "$dir/data" ] || exit 0
if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$bindir/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1; else "$bindir/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1; fi
rm -rf "$dir"
