// Adds up the vitest JSON reports of every suite and prints one closing line: "N passed, M failed".
// Steps that are not vitest suites (typecheck: one check per tsc project; web-smoke: one run) write
// the same fields, plus optionally `checks` (what one count is) and `failed` (the names that failed).
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
let passed = 0, failed = 0, skipped = 0;
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const r = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
  passed += r.numPassedTests; failed += r.numFailedTests; skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  const what = r.checks ? ` (${r.checks})` : '';
  const which = r.failed?.length ? `: ${r.failed.join(', ')}` : '';
  console.log(`${f.replace(/\.json$/, '').padEnd(18)} ${r.numPassedTests} passed, ${r.numFailedTests} failed${what}${r.success ? '' : ` (suite failed)${which}`}`);
  if (!r.success && r.numFailedTests === 0) failed += 1;
}
console.log(`Total: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed || passed === 0 ? 1 : 0);
