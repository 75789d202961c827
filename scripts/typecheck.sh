#!/usr/bin/env bash
# `npm run typecheck`, and the first step of `npm test`: `tsc --noEmit` on every TypeScript project
# (each directory below with a tsconfig.json). The web app's route types are generated first
# (`react-router typegen`). Every project is checked even after one fails; exit 1 if any failed.
# With a file argument, also writes the result there as a summary for scripts/summarize-tests.mjs.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-}
projects=(apps/server apps/web packages/contract packages/protocol packages/contracts e2e bench)
passed=() failed=()
for p in "${projects[@]}"; do
  [ -f "$p/tsconfig.json" ] || continue
  echo "[typecheck] $p"
  ok=1
  if [ "$p" = apps/web ]; then (cd apps/web && npx react-router typegen >/dev/null) || ok=0; fi
  if [ $ok = 1 ]; then npx tsc -p "$p" --noEmit || ok=0; fi
  if [ $ok = 1 ]; then passed+=("$p"); else failed+=("$p"); fi
done
echo "[typecheck] ${#passed[@]} projects clean, ${#failed[@]} with errors${failed[*]:+: ${failed[*]}}"
if [ -n "$out" ]; then
  node -e '
    const [out, passed, failed] = process.argv.slice(1);
    const p = passed ? passed.split(" ") : [], f = failed ? failed.split(" ") : [];
    require("fs").writeFileSync(out, JSON.stringify({ numPassedTests: p.length, numFailedTests: f.length, numPendingTests: 0, success: f.length === 0, checks: "tsc projects", failed: f }));
  ' "$out" "${passed[*]:-}" "${failed[*]:-}"
fi
[ ${#failed[@]} -eq 0 ]
