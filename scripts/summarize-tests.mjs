// Adds up the vitest JSON reports of every suite and prints one closing line: "N passed, M failed".
// Steps that are not vitest suites (typecheck: one check per tsc project; web-smoke: one run) write
// the same fields, plus optionally `checks` (what one count is) and `failed` (the names that failed).
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
let passed = 0, failed = 0, skipped = 0;
const failures = [];
const firstLines = (m = '') => m.split('\n').filter((l) => l.trim()).slice(0, 4).join(' | ').slice(0, 600);
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const r = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
  passed += r.numPassedTests; failed += r.numFailedTests; skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  const what = r.checks ? ` (${r.checks})` : '';
  const which = r.failed?.length ? `: ${r.failed.join(', ')}` : '';
  console.log(`${f.replace(/\.json$/, '').padEnd(18)} ${r.numPassedTests} passed, ${r.numFailedTests} failed${what}${r.success ? '' : ` (suite failed)${which}`}`);
  if (!r.success && r.numFailedTests === 0) failed += 1;
  // Vitest reports: name every failed test with the first lines of its message, so the closing lines
  // of a CI log (often all that is kept) say what failed, not only how many.
  for (const file of r.testResults ?? []) {
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((a) => a.status === 'failed')) {
      failures.push(`${f.replace(/\.json$/, '')} ${path.basename(file.name)}: ${firstLines(file.message)}`);
    }
    for (const a of file.assertionResults ?? []) {
      if (a.status === 'failed') failures.push(`${f.replace(/\.json$/, '')} ${path.basename(file.name)} > ${a.fullName}: ${firstLines((a.failureMessages ?? []).join('\n'))}`);
    }
  }
}
for (const line of failures) console.log(`  FAILED ${line}`);
console.log(`Total: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed || passed === 0 ? 1 : 0);
