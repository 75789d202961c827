import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import type { JobKind } from '../src/db/schema.ts';
import { enqueueJob, JobRunner } from '../src/jobs/runner.ts';
import { dbKind, makeApp, type TestApp } from './helpers.ts';

/**
 * The durable job worker at boot (SQLite, or PostgreSQL with TEST_PG_URL): every module registers its
 * job handlers before the worker starts, so a job of any kind that is due when a server starts runs on
 * the worker's first pass; a job whose kind has no handler is "not yet" (left pending, no attempt
 * counted, no error), never a failed attempt.
 */

/** One due job of every kind, each with a payload its handler finishes at once (nothing to do). */
const DUE_AT_BOOT: Record<JobKind, Record<string, unknown>> = {
  settle: { orderNo: 'MO-none' },
  fulfil: { orderNo: 'DO-none' },
  anonymise: { requestId: 987_654 },
  'msg-sms': { messageId: 987_654 },
  'stray-refund': { paymentId: 987_654 },
  consume: { flow: 'none' },
};
const KINDS = Object.keys(DUE_AT_BOOT) as JobKind[];

let t: TestApp;
beforeAll(async () => {
  t = await makeApp({}, { MARKET_JOBS: '0' });
});
afterAll(async () => {
  await t?.close();
});

const jobRows = (prefix: string) =>
  t.ctx.db.kysely.selectFrom('jobs').select(['kind', 'job_key', 'status', 'attempts', 'last_error']).where('job_key', 'like', `${prefix}%`).orderBy('job_key').execute();

describe('job kinds without a handler', () => {
  it('are not claimed (no attempt, no error) until their handler is registered, then run once', async () => {
    const runner = new JobRunner(t.ctx.db, { intervalMs: 50 });
    await enqueueJob(t.ctx.db.kysely, { kind: 'consume', key: 'unregistered:consume', payload: {} });
    await enqueueJob(t.ctx.db.kysely, { kind: 'settle', key: 'unregistered:settle', payload: {} });
    const ran: string[] = [];
    runner.register('settle', async (job) => (ran.push(job.key), { done: true }));
    await runner.runOnce();
    await runner.runOnce();
    expect(ran).toEqual(['unregistered:settle']);
    expect(await jobRows('unregistered:')).toEqual([
      { kind: 'consume', job_key: 'unregistered:consume', status: 'pending', attempts: 0, last_error: null },
      { kind: 'settle', job_key: 'unregistered:settle', status: 'done', attempts: 1, last_error: null },
    ]);
    runner.register('consume', async (job) => (ran.push(job.key), { done: true }));
    await runner.runOnce();
    expect(ran).toEqual(['unregistered:settle', 'unregistered:consume']);
    expect((await jobRows('unregistered:consume'))[0]).toMatchObject({ status: 'done', attempts: 1, last_error: null });
  });
});

describe('a server starting with due jobs', () => {
  it('has a handler for every job kind when its worker starts, and runs a due job of each kind on the first pass', async () => {
    for (const kind of KINDS) await enqueueJob(t.ctx.db.kysely, { kind, key: `boot:${kind}`, payload: DUE_AT_BOOT[kind], runAt: 0 });
    // A second server process on the same database, this one with the job worker (MARKET_JOBS=1).
    const worker = await buildApp({ ...t.ctx.config, market: { ...t.ctx.config.market, jobs: true } }, { now: () => t.clock.t, logger: false });
    try {
      expect([...(worker.ctx.jobs.kindsAtStart ?? [])].sort()).toEqual([...KINDS].sort());
      await expect.poll(async () => (await jobRows('boot:')).filter((j) => j.status !== 'done').map((j) => j.kind), { timeout: 15_000 }).toEqual([]);
      const rows = await jobRows('boot:');
      expect(rows.map((j) => j.kind).sort()).toEqual([...KINDS].sort());
      // Each ran exactly once, by its own handler: no "no handler" failure, no retry.
      for (const j of rows) expect(j, j.kind).toMatchObject({ status: 'done', attempts: 1, last_error: null });
    } finally {
      await worker.close();
    }
  });
});

describe('the worker role on its own connections', () => {
  const appName = async () => String((await sql<{ n: string }>`select current_setting('application_name') as n`.execute(t.ctx.db.kysely)).rows[0]!.n);

  it.runIf(dbKind === 'postgres')('db.asWorker runs queries on the worker pool, also for work a request wakes later', async () => {
    expect(await appName()).toBe('cfx-market');
    expect(await t.ctx.db.asWorker(appName)).toBe('cfx-market-worker');
    // A runner started as the worker (as worker-role.ts starts it) keeps claiming and running jobs on
    // the worker pool when a request-side wake() schedules its next tick.
    const runner = new JobRunner(t.ctx.db, { intervalMs: 60_000 });
    const seen: string[] = [];
    runner.register('consume', async () => (seen.push(await appName()), { done: true }));
    await t.ctx.db.asWorker(() => runner.start());
    try {
      await enqueueJob(t.ctx.db.kysely, { kind: 'consume', key: 'worker-pool:1', payload: { flow: 'none' } });
      runner.wake();
      for (let i = 0; i < 200 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(seen).toEqual(['cfx-market-worker']);
    } finally {
      await runner.stop();
    }
  });
});
