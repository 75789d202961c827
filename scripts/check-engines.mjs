#!/usr/bin/env node
// Fails when an installed npm package's `engines.node` excludes a Node version the project supports.
// Walks every node_modules/**/package.json under the root and the workspaces (only what npm installed:
// optional platform packages for other systems are absent and so not checked) and tests each range with
// semver against this Node, the newest 22 and 24 releases (the ones scripts/node24.sh and CI use), and
// the lowest version of each major that the root package.json's `engines.node` admits.
//   node scripts/check-engines.mjs [--json <file>]   exit 1 and one line per package that excludes one
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const semver = createRequire(path.join(root, 'package.json'))('semver');

const rootPkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
// Newest releases checked besides this Node's own version (update with scripts/node24.sh's pin).
const CURRENT = ['22.23.3', '24.21.0'];
const lowest = [20, 22, 24].map((major) => semver.minSatisfying(
  Array.from({ length: 40 }, (_, minor) => `${major}.${minor}.0`), rootPkg.engines.node));
const versions = [...new Set([process.versions.node, ...CURRENT, ...lowest.filter(Boolean)])]
  .sort(semver.compare);

/** package.json files of the packages installed under `dir`/node_modules, nested ones included. */
function* installed(dir) {
  const nm = path.join(dir, 'node_modules');
  let entries;
  try { entries = fs.readdirSync(nm, { withFileTypes: true }); } catch { return; }
  for (const e of entries) {
    if (e.name.startsWith('.') || !(e.isDirectory() || e.isSymbolicLink())) continue;
    const p = path.join(nm, e.name);
    if (e.isSymbolicLink()) continue; // workspace links: checked as workspaces
    if (e.name.startsWith('@')) {
      for (const s of fs.readdirSync(p, { withFileTypes: true })) {
        if (s.isDirectory()) yield* pkgAt(path.join(p, s.name));
      }
    } else yield* pkgAt(p);
  }
}
function* pkgAt(dir) {
  const file = path.join(dir, 'package.json');
  if (fs.existsSync(file)) yield file;
  yield* installed(dir);
}

const workspaces = ['.', ...rootPkg.workspaces];
const files = workspaces.flatMap((w) => [...installed(path.join(root, w))]);
const bad = [];
for (const file of files) {
  let pkg;
  try { pkg = JSON.parse(fs.readFileSync(file, 'utf8')); } catch { continue; }
  const range = pkg.engines?.node;
  if (typeof range !== 'string' || !pkg.name) continue;
  const excluded = versions.filter((v) => !semver.satisfies(v, range, { includePrerelease: true }));
  if (excluded.length) bad.push({ name: pkg.name, version: pkg.version, range, excluded, where: path.relative(root, path.dirname(file)) });
}
// The workspaces' own engines must admit the same versions.
for (const w of workspaces) {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, w, 'package.json'), 'utf8'));
  const range = pkg.engines?.node;
  if (typeof range !== 'string') { bad.push({ name: pkg.name, version: pkg.version ?? '', range: '(none)', excluded: ['engines.node missing'], where: w }); continue; }
  const excluded = versions.filter((v) => !semver.satisfies(v, range));
  if (excluded.length) bad.push({ name: pkg.name, version: pkg.version ?? '', range, excluded, where: w });
}

console.log(`[engines] ${files.length} installed packages checked against Node ${versions.join(', ')}`);
for (const b of bad) console.log(`[engines] ${b.name}@${b.version} (${b.where}) engines.node "${b.range}" excludes ${b.excluded.join(', ')}`);
const out = process.argv.indexOf('--json');
if (out > 0) {
  fs.writeFileSync(process.argv[out + 1], JSON.stringify({
    numPassedTests: bad.length ? 0 : 1, numFailedTests: bad.length ? 1 : 0, numPendingTests: 0,
    success: !bad.length, checks: 'engines check', failed: bad.map((b) => `${b.name}@${b.version}`),
  }));
}
if (bad.length) { console.log(`[engines] ${bad.length} package(s) exclude a supported Node version`); process.exit(1); }
console.log('[engines] every installed package admits every supported Node version');
