import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, dbKind } from './helpers.ts';
import { createOrderFor, expectLedgerBalanced, listForSale, makeGoods, makeRelease, makeTrader, topup, type FakeChain, type Release } from './market-helpers.ts';
import { buy, makeDrop, makeDropApp, stock } from './drops-helpers.ts';
import { cancelBatches } from '../src/modules/orders/close-order.ts';
import type { TestApp } from './helpers.ts';

/**
 * Buyer cancellations in one group commit (orders/close-order.ts `cancelByBuyer`): cannelOrder calls
 * that arrive together share a transaction, and each buyer still gets their own answer — the drop
 * units of every cancelled order back in stock and quota exactly once, a market order's listing back
 * on sale, an order cancelled twice at once cancelled once, a paid order refused.
 */
let t: TestApp & { chain: FakeChain };
let release: Release;
beforeAll(async () => {
  t = await makeDropApp();
  release = await makeRelease(t);
});
afterAll(async () => {
  await t?.close();
});

const cancel = (orderNo: string, h: Record<string, string>) => call(t, '/payment/nftOrder/V1/cannelOrder', { orderNo }, h);

describe(`buyer cancellations in one batch (${dbKind})`, () => {
  it('answers each buyer on its own and gives every unit back exactly once', async () => {
    const { projectId } = await makeDrop(t, { supply: 50, priceFen: 1000, perIdentityLimit: 4, maxPerOrder: 2 });
    const buyers = await Promise.all(Array.from({ length: 8 }, () => makeTrader(t)));
    const orders: { no: string; h: Record<string, string>; n: number }[] = [];
    for (const [i, u] of buyers.entries()) {
      const n = (i % 2) + 1;
      const r = await buy(t, u, projectId, n);
      expect(r.status, r.message).toBe('000000');
      orders.push({ no: r.data.orderNo, h: u.h, n });
    }
    // One of them is paid first: not cancellable any more.
    const paid = orders.pop()!;
    await topup(t, buyers[7]!, 5_000);
    expect((await call(t, '/payment/nftOrder/V1/pay', { orderNo: paid.no, method: 'balance' }, paid.h)).status).toBe('000000');
    // A market order among the drop orders.
    const seller = await makeTrader(t);
    const goods = await makeGoods(t, release, seller);
    const listing = await listForSale(t, seller, goods.goodsId, 3_000);
    const marketBuyer = await makeTrader(t);
    const m = await createOrderFor(t, marketBuyer, goods.goodsId);
    expect(m.status, m.message).toBe('000000');

    const before = await stock(t, projectId);
    const taken = orders.reduce((a, o) => a + o.n, 0) + paid.n;
    expect(Number(before.taken)).toBe(taken);
    const seen = cancelBatches(t.ctx);

    // All at once: the seven drop orders, the first of them twice, the paid one, the market order.
    const answers = await Promise.all([
      ...orders.map((o) => cancel(o.no, o.h)),
      cancel(orders[0]!.no, orders[0]!.h),
      cancel(paid.no, paid.h),
      cancel(m.data.orderNo, marketBuyer.h),
    ]);
    const dropAnswers = answers.slice(0, orders.length);
    for (const a of dropAnswers) expect(a).toMatchObject({ status: '000000', message: 'order cancelled', data: { status: 'cancelled' } });
    // The same order twice: the first call cancels it, the second finds it cancelled (as a second click would).
    expect(answers[orders.length]).toMatchObject({ status: '1015', message: 'the order cannot be cancelled in its current state' });
    expect(answers[orders.length + 1]).toMatchObject({ status: '1015', message: 'the order cannot be cancelled in its current state' });
    expect(answers[orders.length + 2]).toMatchObject({ status: '000000', data: { status: 'cancelled' } });

    // Fewer transactions than cancellations: they shared batches (the first call of a turn opens one, the rest join the next).
    const now = cancelBatches(t.ctx);
    expect(now.members - seen.members).toBe(answers.length - 1); // the paid order is refused before any transaction
    expect(now.batches - seen.batches).toBeLessThan(now.members - seen.members);

    // Every unit of the cancelled orders back once; the paid order's stay taken.
    const after = await stock(t, projectId);
    expect(Number(after.taken)).toBe(paid.n);
    const quotas = await t.ctx.db.kysely.selectFrom('drop_quota').select(['taken']).where('project_id', '=', projectId).execute();
    expect(quotas.reduce((a, q) => a + Number(q.taken), 0)).toBe(paid.n);
    const statuses = await t.ctx.db.kysely.selectFrom('orders').select(['order_no', 'status', 'closed_by']).where('order_no', 'in', orders.map((o) => o.no)).execute();
    expect(statuses.map((s) => [s.status, s.closed_by])).toEqual(orders.map(() => ['cancelled', 'buyer']));
    const events = await t.ctx.db.kysely.selectFrom('order_events').select('order_no').where('order_no', '=', orders[0]!.no).where('to_status', '=', 'cancelled').execute();
    expect(events).toHaveLength(1);
    // The market order's listing is on sale again and can be bought.
    const l = await t.ctx.db.kysely.selectFrom('listings').select(['status', 'reserved_order_no']).where('id', '=', listing.listingId as number).executeTakeFirstOrThrow();
    expect(l).toEqual({ status: 'on_sale', reserved_order_no: null });
    expect((await createOrderFor(t, await makeTrader(t), goods.goodsId)).status).toBe('000000');
    // And the units can be reserved again.
    expect((await buy(t, await makeTrader(t), projectId, 2)).status).toBe('000000');
    await expectLedgerBalanced(t);
  });
});
