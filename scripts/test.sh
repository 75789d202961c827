#!/usr/bin/env bash
# `npm test`: installs what the tests need (Debian chromium, CJK fonts, PostgreSQL; npm packages),
# typechecks every TypeScript project, lints, builds, then runs every suite: server API tests on SQLite and
# on a real PostgreSQL server, contract tests on a real Conflux node, and browser tests in headless
# Chromium. A failed typecheck or smoke counts as a failed suite in the closing summary.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
tmp="$root/.tmp"; mkdir -p "$tmp/results"; rm -f "$tmp/results"/*.json

sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
fc-list 2>/dev/null | grep -i 'Noto Sans CJK' >/dev/null || need+=(fonts-noto-cjk) # no -q: an early exit would SIGPIPE fc-list and fail the pipeline
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
if [ ${#need[@]} -gt 0 ]; then
  echo "[test] installing Debian packages: ${need[*]}"
  sudo_ env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
[ -d node_modules ] || npm ci --no-audit --no-fund

status=0
# A step that is not a vitest suite, recorded for the summary: result name passed failed what-one-count-is
result() { node -e 'const [f, p, n, c] = process.argv.slice(1); require("fs").writeFileSync(f, JSON.stringify({ numPassedTests: +p, numFailedTests: +n, numPendingTests: 0, success: +n === 0, checks: c }))' "$tmp/results/$1.json" "$2" "$3" "$4"; }

# Typecheck first (tsc on every project, web route types generated): the suites still run after a failure.
echo; echo "[test] ── typecheck"
bash scripts/typecheck.sh "$tmp/results/typecheck.json" || { status=1; [ -f "$tmp/results/typecheck.json" ] || result typecheck 0 1 "tsc projects"; }

# The linter (ESLint + typescript-eslint + React hooks rules, eslint.config.mjs), counted like the typecheck.
echo; echo "[test] ── lint"
if npx eslint --max-warnings 0 apps packages e2e bench scripts eslint.config.mjs; then result lint 1 0 'eslint run'; else echo "[test] lint FAILED"; result lint 0 1 'eslint run'; status=1; fi

# Module boundaries (dependency-cruiser, .dependency-cruiser.cjs; docs/architecture.md "Module map"):
# no cycles in the server, modules only through their index.ts, no module code in migrations or core,
# no web feature importing another. A violation is printed and counts as a failed suite.
echo; echo "[test] ── boundaries"
if npm run -s check:boundaries; then result boundaries 1 0 'dependency-cruiser run'; else echo "[test] boundaries FAILED"; result boundaries 0 1 'dependency-cruiser run'; status=1; fi

# Every installed npm package must admit Node 20, 22 and 24 in its engines (scripts/check-engines.mjs).
echo; echo "[test] ── engines"
node scripts/check-engines.mjs --json "$tmp/results/engines.json" || status=1

echo "[test] building"
npm run build --silent
node packages/contracts/scripts/compile.mjs --if-stale

pgdir=/tmp/cfx-test-pg-$$
pgport=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
cleanup() { bash scripts/pg-stop.sh "$pgdir"; }
trap cleanup EXIT
pgurl=$(bash scripts/pg-start.sh "$pgdir" "$pgport")

suite() { # name dir [env...]
  local name=$1 dir=$2; shift 2
  echo; echo "[test] ── $name"
  if ! (cd "$dir" && env "$@" npx vitest run --reporter=default --reporter=json --outputFile="$tmp/results/$name.json"); then status=1; fi
}
suite server-sqlite apps/server CI="${CI:-}"
suite server-postgres apps/server TEST_PG_URL="$pgurl"
suite server-chain apps/server TEST_CHAIN=1
# Failover of the worker lease: three real server processes on the PostgreSQL above and one embedded node
# (test/worker-failover.chain.test.ts, skipped in the SQLite chain suite): SIGKILL of the holder during a drop's
# minting and during settlement, SIGSTOP past the lease then SIGCONT.
echo; echo "[test] ── server-failover-postgres"
if ! (cd apps/server && TEST_CHAIN=1 TEST_PG_URL="$pgurl" npx vitest run test/worker-failover.chain.test.ts --reporter=default --reporter=json --outputFile="$tmp/results/server-failover-postgres.json"); then status=1; fi
suite web-unit apps/web CI="${CI:-}"
# SSR smoke of the build against the real server, and the initial-JS budget of every public page (≤ 150 KiB gzip).
echo; echo "[test] ── web-smoke (SSR checks, initial JS ≤ 150 KiB gzip per public page)"
if (cd apps/web && node scripts/smoke.mjs); then result web-smoke 1 0 'SSR smoke run'; else echo "[test] web-smoke FAILED"; result web-smoke 0 1 'SSR smoke run'; status=1; fi
# Node 24 (the newest on npm, installed into .cache/node24 by scripts/node24.sh): the server suite on SQLite
# and the SSR smoke again. The PostgreSQL and chain suites do not depend on the Node version's SQLite driver.
echo; echo "[test] ── Node 24"
if node24=$(bash scripts/node24.sh); then
  suite server-sqlite-node24 apps/server CI="${CI:-}" PATH="$node24:$PATH"
  echo; echo "[test] ── web-smoke-node24"
  if (cd apps/web && PATH="$node24:$PATH" node scripts/smoke.mjs); then result web-smoke-node24 1 0 'SSR smoke run on Node 24'; else echo "[test] web-smoke-node24 FAILED"; result web-smoke-node24 0 1 'SSR smoke run on Node 24'; status=1; fi
else
  echo "[test] Node 24 install FAILED"; result node24 0 1 'Node 24 install'; status=1
fi
[ -d packages/protocol/test ] && suite protocol packages/protocol CI="${CI:-}"
[ -d packages/contracts/test ] && suite contracts packages/contracts CI="${CI:-}"
[ -d e2e/tests ] && suite e2e e2e CI="${CI:-}"

node scripts/summarize-tests.mjs "$tmp/results" || status=1
exit $status
