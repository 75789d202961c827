import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/database.ts';
import { enqueueJob, JobRunner } from '../src/jobs/runner.ts';
import { checkFence, LeaseLostError, WorkerLease } from '../src/jobs/worker-lease.ts';
import { makeApp, type TestApp } from './helpers.ts';

/**
 * The worker lease (jobs/worker-lease.ts) and the job runner's fencing, on the test database (SQLite,
 * or PostgreSQL with TEST_PG_URL). Each "process" has its own connection (pool) to the same database.
 */
let t: TestApp;
let dbs: Db[] = [];
beforeAll(async () => {
  t = await makeApp({}, { MARKET_JOBS: '0' });
  dbs = [0, 1, 2].map(() => openDatabase({ databaseUrl: t.ctx.config.databaseUrl, dataDir: t.ctx.config.dataDir }));
});
afterAll(async () => {
  for (const d of dbs) await d.close();
  await t?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const leaseRow = () => t.ctx.db.kysely.selectFrom('worker_lease').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
const fenceOk = async (db: Db, lease: WorkerLease) => {
  try {
    await db.kysely.transaction().execute((trx) => checkFence(trx, lease.source));
    return true;
  } catch (err) {
    if (err instanceof LeaseLostError) return false;
    throw err;
  }
};

describe('worker lease', () => {
  it('one holder at a time; renewals keep it; after the expiry another takes it with a larger token; the stale holder is refused', async () => {
    const a = new WorkerLease(dbs[0]!, { ttlMs: 1000, holder: 'A' });
    const b = new WorkerLease(dbs[1]!, { ttlMs: 1000, holder: 'B' });
    const c = new WorkerLease(dbs[2]!, { ttlMs: 1000, holder: 'C' });
    const before = Number((await leaseRow()).token);
    const tokenA = await a.tryAcquire();
    expect(tokenA).toBe(before + 1);
    expect(await b.tryAcquire()).toBeUndefined();
    expect(await c.tryAcquire()).toBeUndefined();
    expect(await leaseRow()).toMatchObject({ holder: 'A', token: tokenA });
    // Renewed within the lease: nobody can take it, however long A holds it.
    for (let i = 0; i < 4; i++) {
      await sleep(300);
      expect(await a.renew()).toBe(true);
      expect(await b.tryAcquire()).toBeUndefined();
    }
    expect(await fenceOk(dbs[0]!, a)).toBe(true);
    expect(await fenceOk(dbs[1]!, b)).toBe(false);
    // A stops renewing (paused): locally its fence is gone once the lease ran out…
    await sleep(1100);
    expect(a.fence).toBeUndefined();
    // …and one of B and C, trying at the same time, takes it over with the next token; the other does not.
    const [tb, tc] = await Promise.all([b.tryAcquire(), c.tryAcquire()]);
    expect([tb, tc].filter((x) => x !== undefined)).toEqual([tokenA! + 1]);
    const [next, other] = tb !== undefined ? [b, c] : [c, b];
    expect(await leaseRow()).toMatchObject({ holder: next.holder, token: tokenA! + 1 });
    // A cannot renew, and its fence (even one captured before the pause) is refused by the database.
    expect(await a.renew()).toBe(false);
    expect(await fenceOk(dbs[0]!, a)).toBe(false);
    await expect(dbs[0]!.kysely.transaction().execute((trx) => checkFence(trx, () => ({ holder: 'A', token: tokenA! })))).rejects.toBeInstanceOf(LeaseLostError);
    expect(await fenceOk(dbs[1]!, next)).toBe(true);
    expect(await fenceOk(dbs[2]!, other)).toBe(false);
    // A clean release lets the next one take it at once.
    await next.release();
    expect(await leaseRow()).toMatchObject({ holder: null, token: tokenA! + 1 });
    expect(await other.tryAcquire()).toBe(tokenA! + 2);
    expect(await fenceOk(dbs[1]!, next)).toBe(false);
    await other.release();
  });
});

describe('fenced transactions on PostgreSQL (a shared advisory lock, migration 0037)', () => {
  it.skipIf(!process.env.TEST_PG_URL)('the holder’s fenced transactions do not wait for each other, nor the renewal for them; a takeover waits for the one in flight, and the old holder is refused after it', async () => {
    // Free the lease from the test above (its last holder may still hold it).
    await t.ctx.db.kysely.updateTable('worker_lease').set({ holder: null, expires_at: 0 }).where('id', '=', 1).execute();
    const a = new WorkerLease(dbs[0]!, { ttlMs: 1500, holder: 'PA' });
    const tokenA = await a.tryAcquire();
    expect(tokenA).toBeDefined();
    expect(a.fence?.dialect).toBe('postgres');
    const staleA = { holder: 'PA', token: tokenA!, dialect: 'postgres' as const };

    // A fenced transaction of the holder, held open.
    let commit!: () => void;
    const open = new Promise<void>((r) => (commit = r));
    let checked!: () => void;
    const inside = new Promise<void>((r) => (checked = r));
    const first = dbs[1]!.kysely.transaction().execute(async (trx) => {
      await checkFence(trx, a.source);
      checked();
      await open;
    });
    await inside;

    // Another one passes its check at once, and the renewal goes through, while the first is open.
    const race = <T>(p: Promise<T>, ms: number) => Promise.race([p.then(() => 'done' as const), sleep(ms).then(() => 'waiting' as const)]);
    expect(await race(dbs[2]!.kysely.transaction().execute((trx) => checkFence(trx, a.source)), 1000)).toBe('done');
    expect(await race(a.renew(), 1000)).toBe('done');

    // The lease runs out while the first is still open: a standby's takeover waits for it.
    await sleep(1700);
    const b = new WorkerLease(dbs[2]!, { ttlMs: 1500, holder: 'PB' });
    const taking = b.tryAcquire();
    expect(await race(taking, 400)).toBe('waiting');
    commit();
    await first;
    expect(await taking).toBe(tokenA! + 1);
    // The old holder's next fenced transaction is refused.
    await expect(dbs[1]!.kysely.transaction().execute((trx) => checkFence(trx, () => staleA))).rejects.toBeInstanceOf(LeaseLostError);
    expect(await fenceOk(dbs[0]!, b)).toBe(true);
    await b.release();
  });
});

describe('job runner under the lease', () => {
  it('a holder paused past its lease finishes no job; the new holder runs the job again and finishes it', async () => {
    const a = new WorkerLease(dbs[0]!, { ttlMs: 1000, holder: 'runner-A' });
    const b = new WorkerLease(dbs[1]!, { ttlMs: 1000, holder: 'runner-B' });
    expect(await a.tryAcquire()).toBeDefined();
    const runnerA = new JobRunner(dbs[0]!, { intervalMs: 50 });
    const runnerB = new JobRunner(dbs[1]!, { intervalMs: 50 });
    runnerA.fenced(a.source);
    runnerB.fenced(b.source);
    let release: () => void = () => {};
    const blocked = new Promise<void>((r) => (release = r));
    const ranBy: string[] = [];
    runnerA.register('settle', async (job) => {
      ranBy.push(`A:${job.key}`);
      await blocked; // paused mid-job
      return { done: true };
    });
    runnerB.register('settle', async (job) => (ranBy.push(`B:${job.key}`), { done: true }));
    await enqueueJob(t.ctx.db.kysely, { kind: 'settle', key: 'fenced:1', payload: {} });
    expect(await runnerA.claimAndStart()).toBe(1);
    const job = () => t.ctx.db.kysely.selectFrom('jobs').select(['status', 'attempts', 'lease_token']).where('job_key', '=', 'fenced:1').executeTakeFirstOrThrow();
    expect(await job()).toMatchObject({ status: 'running', attempts: 1, lease_token: a.fence!.token });
    // B cannot claim anything while A holds the lease (its fence is not held).
    expect(await runnerB.claimAndStart()).toBe(0);
    await sleep(1100);
    const tokenB = await b.tryAcquire();
    expect(tokenB).toBeDefined();
    // A wakes up: its job's result is refused (local fence gone, and the row is not under its token).
    release();
    await sleep(50);
    await enqueueJob(t.ctx.db.kysely, { kind: 'settle', key: 'fenced:2', payload: {} });
    expect(await runnerA.claimAndStart()).toBe(0);
    expect(runnerA.fencedRefusals).toBe(1);
    expect(await job()).toMatchObject({ status: 'running', lease_token: a.fence?.token ?? tokenB! - 1 });
    // B's start makes A's orphaned job due again and runs it, and the new job.
    await runnerB.start();
    await expect.poll(async () => (await job()).status, { timeout: 5000 }).toBe('done');
    await runnerB.stop();
    expect(await job()).toMatchObject({ status: 'done', attempts: 2, lease_token: tokenB });
    expect(ranBy.sort()).toEqual(['A:fenced:1', 'B:fenced:1', 'B:fenced:2']);
    // A still holding an old fence in hand: its claim is refused by the database too.
    await enqueueJob(t.ctx.db.kysely, { kind: 'settle', key: 'fenced:3', payload: {} });
    const stale = new JobRunner(dbs[0]!, { intervalMs: 50 });
    stale.fenced(() => ({ holder: 'runner-A', token: tokenB! - 1 }));
    stale.register('settle', async () => ({ done: true }));
    expect(await stale.claimAndStart()).toBe(0);
    await b.release();
  });
});

describe.skipIf(!!process.env.TEST_PG_URL)('worker lease on SQLite: waiting for the write lock of its own process', () => {
  it("a renewal waits for this process's request connection's transaction without stopping the event loop", async () => {
    const lease = new WorkerLease(dbs[0]!, { ttlMs: 5000, holder: 'same-process' });
    // Free, whatever the tests above left.
    await t.ctx.db.kysely.updateTable('worker_lease').set({ holder: null, expires_at: 0 }).where('id', '=', 1).execute();
    expect(await lease.tryAcquire()).toBeDefined();
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    try {
      let holding!: () => void;
      const held = new Promise<void>((r) => (holding = r));
      // The request connection writes and then awaits a timer inside its transaction (the write lock is held).
      const request = t.ctx.db.kysely.transaction().execute(async (trx) => {
        await trx.updateTable('worker_lease').set({ acquired_at: (eb) => eb('acquired_at', '+', 0) }).where('id', '=', 1).execute();
        holding();
        await sleep(300);
      });
      await held;
      const started = performance.now();
      const ticksBefore = ticks;
      // Before: the renewal slept inside SQLite for busy_timeout's 5 s (the transaction above could not
      // commit meanwhile) and then failed with SQLITE_BUSY.
      expect(await lease.renew()).toBe(true);
      const waited = performance.now() - started;
      await request;
      expect(waited).toBeGreaterThan(200);
      expect(waited).toBeLessThan(3000);
      expect(ticks - ticksBefore).toBeGreaterThanOrEqual(10);
      await lease.release();
      expect(await leaseRow()).toMatchObject({ holder: null });
    } finally {
      clearInterval(timer);
    }
  }, 30_000);
});
