import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { buildApp, type App } from '../src/app.ts';
import { enqueueJob } from '../src/jobs/runner.ts';
import { freePort, waitFor } from './process-helpers.ts';

/**
 * Several server processes on ONE SQLite file (a shared DATA_DIR, CHAIN=off): three real `main.ts`
 * processes with the same configuration; one holds the worker lease and runs the jobs. The holder is
 * killed (SIGKILL): another process holds the lease within 10 s and runs the jobs enqueued after.
 * (The chain side and PostgreSQL: worker-failover.chain.test.ts.) Skipped with TEST_PG_URL (that run
 * is about PostgreSQL).
 */
const serverDir = path.resolve(import.meta.dirname, '..');

describe.skipIf(!!process.env.TEST_PG_URL)('three server processes on one SQLite file', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-procs-'));
  const children: { pid: number; child: ChildProcess; out: string; exited: boolean }[] = [];
  let tool: App;

  beforeAll(async () => {
    const env = { DEV_MODE: '1', CAPTCHA_PROVIDER: 'test', DEMO_DATA: '0', SERVE_WEB: '0', CHAIN: 'off', DATA_DIR: dataDir, PAYMENT_SANDBOX_SECRET: 'test-sandbox-secret', LOG_LEVEL: 'info' };
    // Migrates the file first; never takes the lease (MARKET_JOBS=0).
    tool = await buildApp(loadConfig({ ...env, MARKET_JOBS: '0' }, { dataDir, serveWeb: false }), { logger: false });
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(serverDir, 'src/main.ts')], { cwd: serverDir, env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'ignore'] });
      const c = { pid: child.pid!, child, out: '', exited: false };
      child.stdout!.on('data', (b: Buffer) => (c.out += b.toString('utf8')));
      child.on('exit', () => (c.exited = true));
      children.push(c);
    }
    await waitFor(async () => children.every((c) => /listening/i.test(c.out)), 90_000, 'the three servers to listen');
  }, 120_000);

  afterAll(async () => {
    for (const c of children) if (!c.exited) process.kill(c.pid, 'SIGKILL');
    await tool?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const lease = () => tool.ctx.db.kysely.selectFrom('worker_lease').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
  const job = (key: string) => tool.ctx.db.kysely.selectFrom('jobs').select(['status', 'attempts', 'lease_token']).where('job_key', '=', key).executeTakeFirstOrThrow();

  it('one holder runs the jobs; killed (SIGKILL), another holds the lease within 10 s and runs the jobs', async () => {
    const first = await waitFor(async () => {
      const l = await lease();
      return l.holder !== null && l.expires_at > 0 ? l : undefined;
    }, 20_000, 'a lease holder');
    const holder = children.find((c) => first.holder!.split(':')[1] === String(c.pid));
    expect(holder).toBeDefined();
    // Only the holder started the worker role.
    await waitFor(async () => /worker lease acquired/.test(holder!.out), 5000, 'the holder log');
    expect(children.filter((c) => /worker lease acquired/.test(c.out)).map((c) => c.pid)).toEqual([holder!.pid]);
    await enqueueJob(tool.ctx.db.kysely, { kind: 'stray-refund', key: 'procs:before', payload: { paymentId: 987_654 } });
    await waitFor(async () => (await job('procs:before')).status === 'done', 10_000, 'the job before');
    expect(await job('procs:before')).toMatchObject({ status: 'done', attempts: 1, lease_token: first.token });

    process.kill(holder!.pid, 'SIGKILL');
    const killedAt = Date.now();
    await enqueueJob(tool.ctx.db.kysely, { kind: 'stray-refund', key: 'procs:after', payload: { paymentId: 987_655 } });
    const next = await waitFor(async () => {
      const l = await lease();
      return l.token > first.token && l;
    }, 15_000, 'a new holder');
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    expect(next.holder).not.toBe(first.holder);
    await waitFor(async () => (await job('procs:after')).status === 'done', 10_000, 'the job after');
    expect(await job('procs:after')).toMatchObject({ status: 'done', attempts: 1, lease_token: next.token });
  }, 60_000);
});
