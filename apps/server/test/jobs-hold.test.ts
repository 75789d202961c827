import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob, JobRunner } from '../src/jobs/runner.ts';
import { admitted, reservationsFlowing, SELLING_QUIET_MS } from '../src/modules/drops/admission.ts';
import { call, type TestApp } from './helpers.ts';
import { makeTrader, topup, type FakeChain } from './market-helpers.ts';
import { buy, makeDrop, makeDropApp } from './drops-helpers.ts';

/**
 * Jobs held back while the process is busy (JobRunner.holdWhile) on a real database (SQLite, or
 * PostgreSQL with TEST_PG_URL): a held kind is claimed only once it is overdue by the bound, the other
 * kinds at once, everything when the process is no longer busy; a wake() waits for the interval
 * tick meanwhile. Wired for drops: while the process admits reservations, the fulfilment of paid drop
 * orders waits (DROP_FULFIL_HOLD_MS), and it is claimed once the reservations stop.
 */
const HOLD_MS = 1000;
let t: TestApp & { chain: FakeChain };
beforeAll(async () => {
  t = await makeDropApp({ DROP_FULFIL_HOLD_MS: String(HOLD_MS) });
});
afterAll(async () => {
  await t?.close();
});

const statusOf = async (key: string) => (await t.ctx.db.kysely.selectFrom('jobs').select('status').where('job_key', '=', key).executeTakeFirstOrThrow()).status;
const statusesOf = async (prefix: string) =>
  Object.fromEntries((await t.ctx.db.kysely.selectFrom('jobs').select(['job_key', 'status']).where('job_key', 'like', `${prefix}%`).execute()).map((r) => [r.job_key, r.status]));

describe('holdWhile', () => {
  it('claims a held kind only once it is overdue by the bound, the other kinds at once, and everything once not busy', async () => {
    const runner = new JobRunner(t.ctx.db, { intervalMs: 50 });
    const ran: string[] = [];
    runner.register('fulfil', async (job) => (ran.push(job.key), { done: true }));
    runner.register('settle', async (job) => (ran.push(job.key), { done: true }));
    let busy = true;
    runner.holdWhile(['fulfil'], () => busy, HOLD_MS);
    const now = Date.now();
    await enqueueJob(t.ctx.db.kysely, { kind: 'fulfil', key: 'hold:fulfil-due', payload: {}, runAt: now });
    await enqueueJob(t.ctx.db.kysely, { kind: 'fulfil', key: 'hold:fulfil-overdue', payload: {}, runAt: now - HOLD_MS - 500 });
    await enqueueJob(t.ctx.db.kysely, { kind: 'settle', key: 'hold:settle-due', payload: {}, runAt: now });

    expect(await runner.claimAndStart()).toBe(2);
    expect(ran.sort()).toEqual(['hold:fulfil-overdue', 'hold:settle-due']);
    expect(await statusOf('hold:fulfil-due')).toBe('pending');

    busy = false;
    expect(await runner.claimAndStart()).toBe(1);
    expect(ran).toContain('hold:fulfil-due');
    await runner.runOnce();
    expect(await statusesOf('hold:')).toEqual({ 'hold:fulfil-due': 'done', 'hold:fulfil-overdue': 'done', 'hold:settle-due': 'done' });
  });

  it('runOnce holds nothing', async () => {
    const runner = new JobRunner(t.ctx.db, { intervalMs: 50 });
    const ran: string[] = [];
    runner.register('fulfil', async (job) => (ran.push(job.key), { done: true }));
    runner.holdWhile(['fulfil'], () => true, HOLD_MS);
    await enqueueJob(t.ctx.db.kysely, { kind: 'fulfil', key: 'hold-once:fulfil', payload: {} });
    await runner.runOnce();
    expect(ran).toEqual(['hold-once:fulfil']);
    expect(await statusOf('hold-once:fulfil')).toBe('done');
  });

  it('lets a wake() wait for the interval tick while busy, and answers it at once when not', async () => {
    const runner = new JobRunner(t.ctx.db, { intervalMs: 60_000 });
    const ran: string[] = [];
    runner.register('settle', async (job) => (ran.push(job.key), { done: true }));
    let busy = false;
    runner.holdWhile(['fulfil'], () => busy, HOLD_MS);
    await runner.start(); // its first tick runs at once, the next one a minute later
    try {
      await new Promise((r) => setTimeout(r, 100));
      busy = true;
      await enqueueJob(t.ctx.db.kysely, { kind: 'settle', key: 'hold-wake:settle', payload: {} });
      runner.wake();
      await new Promise((r) => setTimeout(r, 300));
      expect(ran).toEqual([]);
      busy = false;
      runner.wake();
      for (let i = 0; i < 100 && !ran.length; i++) await new Promise((r) => setTimeout(r, 10));
      expect(ran).toEqual(['hold-wake:settle']);
    } finally {
      await runner.stop();
    }
  });
});

describe('a drop’s fulfilment while the process admits reservations', () => {
  it('waits while reservations are admitted, at most DROP_FULFIL_HOLD_MS past due, and runs once they stop', async () => {
    t.cacheClock.freeze();
    const { projectId } = await makeDrop(t, { supply: 10 });
    const u = await makeTrader(t);
    const o = await buy(t, u, projectId, 2);
    expect(o.status, o.message).toBe('000000');
    expect(reservationsFlowing(t.ctx)).toBe(true);
    await topup(t, u, o.data.priceFen);
    const p = await call(t, '/payment/nftOrder/V1/pay', { orderNo: o.data.orderNo, method: 'balance' }, u.h);
    expect(p.data.status, p.message).toBe('paid');
    const key = `fulfil:${o.data.orderNo}`;

    // Still admitting (another buyer's reservation): the fulfilment is held.
    await admitted(t.ctx, projectId, async () => {});
    expect(await t.ctx.jobs.claimAndStart()).toBe(0);
    expect(await statusOf(key)).toBe('pending');

    // Overdue by the bound: claimed although reservations are still admitted.
    await t.ctx.db.kysely.updateTable('jobs').set({ run_at: Date.now() - HOLD_MS - 1 }).where('job_key', '=', key).execute();
    expect(reservationsFlowing(t.ctx)).toBe(true);
    expect(await t.ctx.jobs.claimAndStart()).toBe(1);
    await t.ctx.jobs.runOnce();
    expect(await statusOf(key)).toBe('done');
    expect(await t.ctx.db.kysely.selectFrom('goods').select('id').where('drop_order_no', '=', o.data.orderNo).execute()).toHaveLength(2);

    // A second order, due now: held while admitting, claimed SELLING_QUIET_MS after the last admission.
    const o2 = await buy(t, u, projectId, 1);
    expect(o2.status, o2.message).toBe('000000');
    await topup(t, u, o2.data.priceFen);
    expect((await call(t, '/payment/nftOrder/V1/pay', { orderNo: o2.data.orderNo, method: 'balance' }, u.h)).data.status).toBe('paid');
    expect(await t.ctx.jobs.claimAndStart()).toBe(0);
    t.cacheClock.advance(SELLING_QUIET_MS);
    expect(reservationsFlowing(t.ctx)).toBe(false);
    expect(await t.ctx.jobs.claimAndStart()).toBe(1);
    await t.ctx.jobs.runOnce();
    expect(await statusOf(`fulfil:${o2.data.orderNo}`)).toBe('done');
  });
});
