import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The production server is the esbuild bundle of `npm run build` (scripts/build.mjs), run with plain
 * `node` — no tsx. Built here into a scratch directory inside the checkout, then started on this Node
 * (the suite runs on Node 20 and again on Node 24) with CHAIN=off, and the create-staff tool run from it.
 */
const serverDir = path.resolve(import.meta.dirname, '..');
const repo = path.resolve(serverDir, '../..');
const outdir = path.join(serverDir, `dist-test-${process.pid}`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-dist-'));

beforeAll(() => {
  const r = spawnSync(process.execPath, [path.join(serverDir, 'scripts/build.mjs'), '--outdir', outdir], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
}, 120_000);
afterAll(() => {
  fs.rmSync(outdir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe(`server bundle on Node ${process.versions.node}`, () => {
  it('main.js starts without tsx, migrates, answers /healthz; the web build is looked for in apps/web/build', async () => {
    const proc = spawn(process.execPath, [path.join(outdir, 'main.js')], {
      cwd: os.tmpdir(), // nothing may depend on the working directory
      env: { PATH: process.env.PATH, NODE_ENV: 'production', DEV_MODE: '1', DATA_DIR: path.join(dataDir, 'main'), CHAIN: 'off', DEMO_DATA: '0', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    proc.stdout.on('data', (d) => (log += d));
    proc.stderr.on('data', (d) => (log += d));
    try {
      const port = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listen line in 60 s:\n${log}`)), 60_000);
        proc.stdout.on('data', () => {
          const m = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(log);
          if (m) { clearTimeout(timer); resolve(Number(m[1])); }
        });
        proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`exited ${code}:\n${log}`)); });
      });
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(await res.json()).toMatchObject({ status: '000000', data: { db: 'sqlite', chain: 'off' } });
      // The web build is resolved against the source tree, not the bundle's directory.
      const missing = /web build not found at (\S+):/.exec(log)?.[1];
      if (missing) expect(missing).toBe(path.join(repo, 'apps/web/build/server/index.js'));
      else expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
      expect(log).not.toMatch(/Assertion failed|ERR_MODULE_NOT_FOUND/);
    } finally {
      proc.kill('SIGTERM');
    }
  }, 90_000);

  it('create-staff.js runs as a tool: creates the owner and prints a one-time password', () => {
    const r = spawnSync(process.execPath, [path.join(outdir, 'create-staff.js'), '--username', 'boss', '--role', 'owner'], {
      cwd: os.tmpdir(),
      env: { PATH: process.env.PATH, DATA_DIR: path.join(dataDir, 'tool') },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/one-time password: [a-z0-9]{4}(-[a-z0-9]{4}){3}/);
  }, 60_000);
});
