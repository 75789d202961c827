import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { afterCommit, inTx } from '../src/db/tx.ts';
import { closeUnpaidOrder, expireDueOrders } from '../src/modules/orders/close-order.ts';
import { dropStockSnapshot, foldStockReturns, STOCK_RETURN_SWEEP_AGE_MS, stockOf, sweepStockReturns } from '../src/modules/drops/stock.ts';
import { call, dbKind } from './helpers.ts';
import { makeTrader, type FakeChain } from './market-helpers.ts';
import type { TestApp } from './helpers.ts';
import { buy, makeDrop, makeDropApp, stock } from './drops-helpers.ts';

/**
 * Units given back by closed unpaid drop orders (stock.ts, giveStockAfterCommit). On PostgreSQL the
 * closing transaction writes a returns row instead of updating the release's stock row, and one
 * statement folds the returns into the row after the commit; a sweep folds what a crash left. On
 * SQLite the closing transaction still updates the row itself. Either way: every unit back exactly once.
 */
let t: TestApp & { chain: FakeChain };
beforeAll(async () => {
  t = await makeDropApp();
});
afterAll(async () => {
  await t?.close();
});

const pendingReturns = async (projectId: number) =>
  (await t.ctx.db.kysely.selectFrom('drop_stock_returns').select('units').where('project_id', '=', projectId).execute()).map((r) => Number(r.units));

describe(`afterCommit (${dbKind})`, () => {
  it('runs after the commit, with the change visible, and inTx waits for it; never after a rollback', async () => {
    const seen: string[] = [];
    const out = await inTx(t.ctx, async (trx) => {
      await trx.insertInto('drop_stock_returns').values({ project_id: -1, units: 7, created_at: 0 }).execute();
      expect(
        afterCommit(trx, async () => {
          // Another connection (SQLite: the same one, outside the transaction) sees the committed row.
          const r = await t.ctx.db.kysely.selectFrom('drop_stock_returns').select('units').where('project_id', '=', -1).execute();
          seen.push(`after ${r.length}`);
        }),
      ).toBe(true);
      seen.push('in');
      return 'done';
    });
    expect(out).toBe('done');
    expect(seen).toEqual(['in', 'after 1']);

    await expect(
      inTx(t.ctx, async (trx) => {
        afterCommit(trx, () => seen.push('rolled back'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    // A callback that fails does not fail the committed transaction.
    await expect(inTx(t.ctx, async (trx) => (afterCommit(trx, () => Promise.reject(new Error('late'))), 1))).resolves.toBe(1);
    expect(seen).toEqual(['in', 'after 1']);
    await t.ctx.db.kysely.deleteFrom('drop_stock_returns').where('project_id', '=', -1).execute();
  });

  it('on the plain handle runs at once; in a transaction not opened by inTx it refuses', async () => {
    let ran = false;
    expect(afterCommit(t.ctx.db.kysely, () => (ran = true))).toBe(true);
    await new Promise((r) => setTimeout(r, 0));
    expect(ran).toBe(true);
    const inForeign = await t.ctx.db.kysely.transaction().execute(async (trx) => afterCommit(trx, () => undefined));
    expect(inForeign).toBe(false);
  });
});

describe(`units given back (${dbKind})`, () => {
  it('a cancellation and an expiry give their units back once; nothing stays pending', async () => {
    const { projectId } = await makeDrop(t, { supply: 10, perIdentityLimit: 10, maxPerOrder: 5 });
    const buyers = await Promise.all([1, 2, 3, 4].map(() => makeTrader(t)));
    const orders = await Promise.all(buyers.map((u, i) => buy(t, u, projectId, i + 1)));
    expect(orders.map((o) => o.status)).toEqual(['000000', '000000', '000000', '000000']);
    expect((await stock(t, projectId)).taken).toBe(10);
    // Four cancellations at once (each twice): each order's units come back once.
    const c = await Promise.all(buyers.flatMap((u, i) => [1, 2].map(() => call(t, '/payment/nftOrder/V1/cannelOrder', { orderNo: orders[i]!.data.orderNo }, u.h))));
    expect(c.filter((x) => x.status === '000000')).toHaveLength(4);
    expect(c.filter((x) => x.status === '1015')).toHaveLength(4);
    // The moves that lost the race wrote no event (PostgreSQL: the move and its event are one statement).
    const events = await t.ctx.db.kysely.selectFrom('order_events').select(['order_no', 'from_status']).where('to_status', '=', 'cancelled').where('order_no', 'in', orders.map((o) => o.data.orderNo as string)).execute();
    expect(events.map((e) => e.from_status)).toEqual(['created', 'created', 'created', 'created']);
    // The cancel answered once its units were folded into the row.
    expect((await stock(t, projectId)).taken).toBe(0);
    expect(await pendingReturns(projectId)).toEqual([]);
    dropStockSnapshot(t.ctx, projectId);
    expect((await stockOf(t.ctx, projectId))!.taken).toBe(0);
    // Sold out again, then every order expires in one sweep: one return for them all.
    const again = await Promise.all(buyers.map((u, i) => buy(t, u, projectId, i + 1)));
    expect(again.map((o) => o.status)).toEqual(['000000', '000000', '000000', '000000']);
    t.clock.t += t.ctx.config.market.paymentWindowMs + 1;
    await Promise.all([expireDueOrders(t.ctx), expireDueOrders(t.ctx)]);
    expect((await stock(t, projectId)).taken).toBe(0);
    expect(await pendingReturns(projectId)).toEqual([]);
  });

  it.skipIf(dbKind !== 'postgres')('PostgreSQL: a cancellation commits without waiting for the stock row; its units are for sale before the fold', async () => {
    const { projectId } = await makeDrop(t, { supply: 3, perIdentityLimit: 3, maxPerOrder: 3 });
    const u = await makeTrader(t);
    const o = await buy(t, u, projectId, 3);
    expect(o.status).toBe('000000');
    // Another transaction holds the release's stock row (as a reservation batch does, a moment at a time).
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = t.ctx.db.kysely.transaction().execute(async (trx) => {
      await sql`select 1 from drop_stock where project_id = ${projectId} for update`.execute(trx);
      locked();
      await held;
    });
    await isLocked;
    const cancelling = closeUnpaidOrder(t.ctx, o.data.orderNo, 'cancelled', { byBuyer: true });
    // The cancellation commits (the order closed, its return written) while the row is still held.
    await expect.poll(async () => (await t.ctx.db.kysely.selectFrom('orders').select('status').where('order_no', '=', o.data.orderNo).executeTakeFirstOrThrow()).status, { timeout: 5000 }).toBe('cancelled');
    expect(await pendingReturns(projectId)).toEqual([3]);
    expect((await stock(t, projectId)).taken).toBe(3);
    // The snapshot counts the returned units as for sale already.
    dropStockSnapshot(t.ctx, projectId);
    expect(await stockOf(t.ctx, projectId)).toMatchObject({ supply: 3, taken: 0 });
    release();
    await holder;
    expect(await cancelling).toBe(true);
    expect((await stock(t, projectId)).taken).toBe(0);
    expect(await pendingReturns(projectId)).toEqual([]);
    expect((await buy(t, u, projectId, 3)).status).toBe('000000');
  });

  it.skipIf(dbKind !== 'postgres')('PostgreSQL: returns a crash left behind are folded by the sweep exactly once, however many folds run', async () => {
    const { projectId } = await makeDrop(t, { supply: 20, perIdentityLimit: 20, maxPerOrder: 5 });
    const buyers = await Promise.all([1, 2, 3].map(() => makeTrader(t)));
    for (const u of buyers) expect((await buy(t, u, projectId, 5)).status).toBe('000000');
    // As if the process died between the closing commit and its fold: the returns are there, the row not yet moved.
    const now = t.ctx.now();
    await t.ctx.db.kysely
      .insertInto('drop_stock_returns')
      .values([
        { project_id: projectId, units: 4, created_at: now },
        { project_id: projectId, units: 2, created_at: now },
      ])
      .execute();
    dropStockSnapshot(t.ctx, projectId);
    expect(await stockOf(t.ctx, projectId)).toMatchObject({ supply: 20, taken: 9 });
    // Too young for the sweep (the fold after the commit may still be coming).
    expect(await sweepStockReturns(t.ctx)).toBe(0);
    t.clock.t += STOCK_RETURN_SWEEP_AGE_MS;
    const folded = await Promise.all([sweepStockReturns(t.ctx), sweepStockReturns(t.ctx), foldStockReturns(t.ctx, projectId), foldStockReturns(t.ctx, projectId)]);
    expect(folded.reduce((a, b) => a + b, 0)).toBe(6);
    expect((await stock(t, projectId)).taken).toBe(9);
    expect(await pendingReturns(projectId)).toEqual([]);
    expect(await foldStockReturns(t.ctx, projectId)).toBe(0);
  });

  it.skipIf(dbKind !== 'postgres')('PostgreSQL: a fold that would count more units back than were taken fails whole and keeps its returns', async () => {
    const { projectId } = await makeDrop(t, { supply: 5 });
    const u = await makeTrader(t);
    expect((await buy(t, u, projectId, 1)).status).toBe('000000');
    await t.ctx.db.kysely.insertInto('drop_stock_returns').values({ project_id: projectId, units: 2, created_at: t.ctx.now() }).execute();
    await expect(foldStockReturns(t.ctx, projectId)).rejects.toMatchObject({ code: '23514' });
    expect(await pendingReturns(projectId)).toEqual([2]);
    expect((await stock(t, projectId)).taken).toBe(1);
    await t.ctx.db.kysely.deleteFrom('drop_stock_returns').where('project_id', '=', projectId).execute();
  });
});
