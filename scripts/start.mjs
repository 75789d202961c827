#!/usr/bin/env node
// `npm start`: builds whatever is missing or stale (web app, server bundle, contract artifacts), then
// runs the server bundle (apps/server/dist/main.js) with plain node on its embedded defaults.
// Honours PORT, HOST, DATA_DIR and the rest of the README's settings.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

if (!fs.existsSync(path.join(root, 'node_modules'))) {
  console.log('[start] installing npm packages (npm ci)…');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

/** Newest modification time of the files under `dir` (skipping build output and deps). */
function newest(dir) {
  let t = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', 'build', '.react-router'].includes(e.name)) continue;
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

const webEntry = path.join(root, 'apps/web/build/server/index.js');
const webStale = !fs.existsSync(webEntry) || newest(path.join(root, 'apps/web/app')) > fs.statSync(webEntry).mtimeMs;
if (webStale && process.env.SKIP_WEB_BUILD !== '1') {
  console.log('[start] building the web app…');
  run('npm', ['run', 'build', '-w', 'apps/web']);
}
// The server bundle (apps/server/scripts/build.mjs): rebuilt when a server or workspace-package source is newer.
const serverEntry = path.join(root, 'apps/server/dist/main.js');
const serverSources = ['apps/server/src', 'packages/contract/src', 'packages/protocol/src', 'packages/contracts/src', 'packages/contracts/scripts'];
const serverStale = !fs.existsSync(serverEntry)
  || Math.max(...serverSources.map((d) => newest(path.join(root, d)))) > fs.statSync(serverEntry).mtimeMs;
if (serverStale) {
  console.log('[start] building the server…');
  run('npm', ['run', 'build', '-w', 'apps/server']);
}
// Contract artifacts: compiled only when the Solidity sources changed.
run(process.execPath, [path.join(root, 'packages/contracts/scripts/compile.mjs'), '--if-stale']);

// A 64 MB young generation per semi-space (V8's default is 16): in a drop's flood the garbage collector took
// 6–8 % of a server process, 2–3 % with this (bench/RESULTS.md); up to ≈ 100 MB more memory under load.
const child = spawn(process.execPath, ['--max-semi-space-size=64', serverEntry], {
  cwd: process.cwd(),
  stdio: 'inherit',
  // A laptop run is development: sandbox providers and demo data, announced in the log and on every page.
  // DEV_MODE=0 (with real providers configured) runs the production checks instead.
  env: { NODE_ENV: 'production', DEV_MODE: '1', ...process.env },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
