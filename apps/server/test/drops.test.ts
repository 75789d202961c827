import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { expireDueOrders } from '../src/modules/orders/close-order.ts';
import { forgetDropReleases } from '../src/modules/drops/release.ts';
import { dropStockSnapshot, noteStock, SOLD_OUT_RECHECK_MS, stockOf } from '../src/modules/drops/stock.ts';
import { mintPendingGoods } from '../src/modules/drops/mint-batches.ts';
import { admitted } from '../src/modules/drops/admission.ts';
import { API, call, type TestApp } from './helpers.ts';
import { balance, expectLedgerBalanced, get, makeTrader, orderStatus, topup, type FakeChain, type Trader } from './market-helpers.ts';
import { buy, FakeMinter, fulfilAndMint, makeDrop, makeDropApp, sameIdentity, sandboxNotify, stock } from './drops-helpers.ts';

/**
 * The primary sale (issue #10, docs/drops.md) through the API on a real database (SQLite, or
 * PostgreSQL with TEST_PG_URL): the trading gate, the sale window by server time, no oversell
 * under 200 concurrent buyers, the per-identity limit shared by accounts of one ID number, expiry
 * returning stock and quota exactly once, pay → fulfil → mint → completed with the ledger balanced,
 * nowStint, the queueing / sold-out answers and bad input.
 */
let t: TestApp & { chain: FakeChain };
beforeAll(async () => {
  t = await makeDropApp();
});
afterAll(async () => {
  await t?.close();
});

const stint = (u: Trader, projectId: number) => get(t, `/official/stint/nowStint/?projectId=${projectId}`, u.h);

describe('createOrder {projectId, count}: the gate and the sale window', () => {
  it('answers the trading gate: login 1100, real name / 18+ / wallet 1011', async () => {
    const { projectId } = await makeDrop(t);
    expect(await call(t, '/payment/nftOrder/V1/createOrder', { projectId, count: 1 })).toMatchObject({ status: '1100' });
    for (const [kind, message] of [
      ['no-realname', 'please verify your real name first'],
      ['minor', 'you must be 18 or older to trade'],
      ['no-wallet', 'please link a wallet first'],
    ] as const) {
      const u = await makeTrader(t, kind);
      expect(await buy(t, u, projectId, 1)).toMatchObject({ status: '1011', message });
    }
    expect((await stock(t, projectId)).taken).toBe(0);
  });

  it('sells only between the start and the end, by server time', async () => {
    const { projectId } = await makeDrop(t, { startInMs: 60_000 });
    const u = await makeTrader(t);
    expect(await buy(t, u, projectId, 1)).toMatchObject({ status: '1024', message: 'the sale has not started yet' });
    expect(await buy(t, u, projectId, 1, { lang: 'zh' })).toMatchObject({ status: '1024', message: '发售尚未开始' });
    t.clock.t += 60_000; // exactly the start
    const r = await buy(t, u, projectId, 1);
    expect(r, r.message).toMatchObject({ status: '000000', data: { kind: 'drop', status: 'created', drop: { projectId, quantity: 1, unitPriceFen: 1000, items: [] } } });
    expect(r.data.orderNo).toMatch(/^DO\d{26}$/);
    await t.ctx.db.kysely.updateTable('projects').set({ sale_end_at: t.clock.t }).where('id', '=', projectId).execute();
    forgetDropReleases(t.ctx);
    expect(await buy(t, u, projectId, 1)).toMatchObject({ status: '1024', message: 'the sale has ended' });
  });

  it('refuses a release that is not sold as a drop and an unknown release', async () => {
    const u = await makeTrader(t);
    const { projectId } = await makeDrop(t);
    await t.ctx.db.kysely.updateTable('projects').set({ token_start: null, token_end: null }).where('id', '=', projectId).execute();
    forgetDropReleases(t.ctx);
    expect(await buy(t, u, projectId, 1)).toMatchObject({ status: '1024', message: 'this release cannot be bought now' });
    expect(await buy(t, u, 987_654_321, 1)).toMatchObject({ http: 404, status: '1404', message: 'release not found' });
  });

  it('answers bad input with the envelope, never a 5xx', async () => {
    const u = await makeTrader(t);
    const { projectId } = await makeDrop(t, { maxPerOrder: 3 });
    for (const bad of [{ projectId, count: 0 }, { projectId, count: -1 }, { projectId, count: 'abc' }, { projectId, count: 1.5 }, { projectId: 'x', count: 1 }, { projectId: -3 }, { projectId, count: 10_000 }]) {
      const r = await call(t, '/payment/nftOrder/V1/createOrder', bad, u.h);
      expect(r.http, JSON.stringify(bad)).toBe(400);
      expect(r.status).toBe('1001');
    }
    expect(await buy(t, u, projectId, 4)).toMatchObject({ status: '1001', message: 'at most 3 per order' });
    const raw = await t.app.inject({ method: 'POST', url: `${API}/payment/nftOrder/V1/createOrder`, headers: { 'content-type': 'application/json', ...u.h }, payload: '{"projectId":' });
    expect(raw.statusCode).toBe(400);
    expect(raw.json().status).toBe('1001');
    expect((await stock(t, projectId)).taken).toBe(0);
  });
});

describe('stock and the per-identity limit', () => {
  it('never oversells: 50 in stock, 200 concurrent buyers retrying on 1021 → exactly 50 reserved', async () => {
    const app = await makeDropApp({ DROP_MAX_IN_FLIGHT: '8' });
    try {
      const { projectId } = await makeDrop(app, { supply: 50 });
      const buyers = await Promise.all(Array.from({ length: 200 }, () => makeTrader(app)));
      const answers: string[] = [];
      await Promise.all(
        buyers.map(async (u) => {
          for (let i = 0; i < 200; i++) {
            const r = await buy(app, u, projectId, 1);
            answers.push(r.status);
            expect(r.http).toBeLessThan(500);
            if (r.status !== '1021') return r.status;
            await new Promise((res) => setTimeout(res, 20 + Math.random() * 30)); // the client's back-off after 排队中
          }
          throw new Error('still queueing after 200 tries');
        }),
      );
      expect(answers.filter((s) => s === '000000')).toHaveLength(50);
      expect(new Set(answers)).toSatisfy((s: Set<string>) => [...s].every((x) => ['000000', '1021', '1022'].includes(x)));
      const s = await stock(app, projectId);
      expect(s).toMatchObject({ supply: 50, taken: 50 });
      const orders = await app.ctx.db.kysely.selectFrom('orders').select(['quantity']).where('project_id', '=', projectId).execute();
      expect(orders.reduce((a, o) => a + Number(o.quantity), 0)).toBe(50);
      // Sold out is answered at once from the cached stock.
      expect(await buy(app, buyers[0]!, projectId, 1)).toMatchObject({ status: '1022', message: 'sold out' });
    } finally {
      await app.close();
    }
  });

  it('a snapshot that counts a reservation twice does not refuse the units still for sale', async () => {
    // A committed reservation can be read by a reload of the snapshot (another PostgreSQL pool connection, a read
    // queued behind the COMMIT) before its caller adjusts the snapshot for it: then it is counted twice.
    const { projectId } = await makeDrop(t, { supply: 2 });
    expect((await buy(t, await makeTrader(t), projectId, 1)).status).toBe('000000');
    dropStockSnapshot(t.ctx, projectId);
    expect((await stockOf(t.ctx, projectId))!.taken).toBe(1); // the reload counts it
    noteStock(t.ctx, projectId, 1); // the late adjustment counts it again
    expect((await stockOf(t.ctx, projectId))!.taken).toBe(2); // the snapshot says sold out
    expect((await buy(t, await makeTrader(t), projectId, 1)).status).toBe('000000'); // the row says one is left
    expect(await buy(t, await makeTrader(t), projectId, 1)).toMatchObject({ status: '1022', message: 'sold out' });
    expect(await stock(t, projectId)).toMatchObject({ supply: 2, taken: 2 });
  });

  it('asks for more than is left: 库存不足 with the remaining count', async () => {
    const { projectId } = await makeDrop(t, { supply: 3, maxPerOrder: 5, perIdentityLimit: 5 });
    const a = await makeTrader(t);
    expect((await buy(t, a, projectId, 2)).status).toBe('000000');
    expect(await buy(t, await makeTrader(t), projectId, 2, { lang: 'zh' })).toMatchObject({ status: '1022', message: '库存不足，仅剩1份' });
  });

  it('shares the limit between the accounts of one ID number (nowStint shows it to both)', async () => {
    const { projectId } = await makeDrop(t, { perIdentityLimit: 3, maxPerOrder: 3 });
    const a = await makeTrader(t);
    const b = await makeTrader(t);
    await sameIdentity(t, a, b);
    expect((await stint(a, projectId)).data).toMatchObject({ projectId, limit: 3, bought: 0, remaining: 3, maxPerOrder: 3, verified: true });
    expect((await buy(t, a, projectId, 2)).status).toBe('000000');
    expect(await buy(t, b, projectId, 2)).toMatchObject({ status: '1023', message: 'over the purchase limit: you can buy 1 more' });
    expect((await stint(b, projectId)).data).toMatchObject({ bought: 2, remaining: 1 });
    expect((await buy(t, b, projectId, 1)).status).toBe('000000');
    expect(await buy(t, a, projectId, 1, { lang: 'zh' })).toMatchObject({ status: '1023', message: '已达限购数量（每人限购3份）' });
    expect((await stint(a, projectId)).data).toMatchObject({ bought: 3, remaining: 0 });
    // Another identity is not affected.
    expect((await buy(t, await makeTrader(t), projectId, 3)).status).toBe('000000');
    expect((await stock(t, projectId)).taken).toBe(6);
  });

  it('expiry and cancellation give stock and quota back exactly once', async () => {
    const { projectId } = await makeDrop(t, { supply: 10, perIdentityLimit: 4, maxPerOrder: 4 });
    const u = await makeTrader(t);
    const o1 = await buy(t, u, projectId, 3);
    const o2 = await buy(t, u, projectId, 1);
    expect((await stock(t, projectId)).taken).toBe(4);
    expect((await stint(u, projectId)).data.remaining).toBe(0);
    // cancel o2 twice at once: one wins
    const c = await Promise.all([1, 2].map(() => call(t, '/payment/nftOrder/V1/cannelOrder', { orderNo: o2.data.orderNo }, u.h)));
    expect(c.map((x) => x.status).sort()).toEqual(['000000', '1015']);
    expect((await stock(t, projectId)).taken).toBe(3);
    // past the payment window: the sweep, a read and a second sweep race; the units come back once
    t.clock.t += t.ctx.config.market.paymentWindowMs + 1;
    await Promise.all([expireDueOrders(t.ctx), expireDueOrders(t.ctx), call(t, '/payment/nftOrder/V1/getNftOrderDetail', { orderNo: o1.data.orderNo }, u.h)]);
    expect(await orderStatus(t, o1.data.orderNo)).toBe('expired');
    expect((await stock(t, projectId)).taken).toBe(0);
    const q = await t.ctx.db.kysely.selectFrom('drop_quota').select('taken').where('project_id', '=', projectId).execute();
    expect(q.map((r) => Number(r.taken))).toEqual([0]);
    dropStockSnapshot(t.ctx, projectId);
    expect((await stint(u, projectId)).data).toMatchObject({ bought: 0, remaining: 4, stockRemaining: 10 });
    expect((await buy(t, u, projectId, 4)).status).toBe('000000');
  });
});

describe('pay → fulfil → mint → completed', () => {
  it('sandbox notify (replayed) → collectibles with distinct serials → minted → completed; ledger credits creator and platform', async () => {
    const { projectId, tokenStart } = await makeDrop(t, { supply: 20, priceFen: 1234, perIdentityLimit: 5, maxPerOrder: 5 });
    const creator = Number((await t.ctx.db.kysely.selectFrom('projects').innerJoin('creators', 'creators.id', 'projects.creator_id').select('creators.user_id').where('projects.id', '=', projectId).executeTakeFirstOrThrow()).user_id);
    const u = await makeTrader(t);
    const v = await makeTrader(t);
    const order = await buy(t, u, projectId, 3);
    expect(order.data).toMatchObject({ priceFen: 3702, commissionFen: 370, role: 'buyer', goods: { id: 0, serial: 0 }, drop: { quantity: 3, unitPriceFen: 1234 } });
    const other = await buy(t, v, projectId, 2);
    const orderNo = order.data.orderNo as string;
    const amount = await call(t, '/payment/nftOrder/V1/queryAmount', { orderNo }, u.h);
    expect(amount.data).toMatchObject({ amountFen: 3702, status: 'created' });
    const pay = await call(t, '/payment/nftOrder/V1/pay', { orderNo, method: 'sandbox' }, u.h);
    expect(pay).toMatchObject({ status: '000000', data: { status: 'paying' } });
    const cashier = await get(t, pay.data.payUrl.replace(API, ''));
    expect(cashier.raw).toMatch(/×3/);
    for (let i = 0; i < 2; i++) expect((await sandboxNotify(t, orderNo, 'SBXdrop1', 3702)).body).toBe('success');
    expect(await t.ctx.db.kysely.selectFrom('payments').selectAll().where('order_no', '=', orderNo).execute()).toHaveLength(1);
    expect(await orderStatus(t, orderNo)).toBe('paid');
    // the other buyer pays from the balance
    await topup(t, v, 2468);
    expect((await call(t, '/payment/nftOrder/V1/pay', { orderNo: other.data.orderNo, method: 'balance' }, v.h)).data.status).toBe('paid');
    await expectLedgerBalanced(t);

    // fulfilment: serials allocated, collectibles pending; running it again changes nothing
    await t.ctx.jobs.runOnce();
    await t.ctx.jobs.runOnce();
    expect(await orderStatus(t, orderNo)).toBe('settling');
    const goods = await t.ctx.db.kysely.selectFrom('goods').selectAll().where('project_id', '=', projectId).orderBy('serial').execute();
    expect(goods).toHaveLength(5);
    expect(goods.map((g) => g.serial)).toEqual([1, 2, 3, 4, 5]);
    expect(goods.every((g) => Number(g.token_id) === Number(tokenStart) + g.serial - 1)).toBe(true);
    expect(goods.every((g) => g.chain_status === 'pending')).toBe(true);
    expect(goods.filter((g) => g.drop_order_no === orderNo).map((g) => Number(g.owner_user_id))).toEqual([u.userId, u.userId, u.userId]);
    const s = await stock(t, projectId);
    expect(s).toMatchObject({ taken: 5, paid: 5, next_serial: 6 });
    const detail = await call(t, '/payment/nftOrder/V1/getNftOrderDetail', { orderNo }, u.h);
    expect(detail.data.drop.items).toHaveLength(3);
    expect(detail.data.drop.items.every((i: { chainStatus: string }) => i.chainStatus === 'pending')).toBe(true);
    await expectLedgerBalanced(t);

    // minting (a test double of the chain): batches, then the orders complete with the tx hash
    const minter = new FakeMinter();
    await fulfilAndMint(t, minter);
    expect(await orderStatus(t, orderNo)).toBe('completed');
    expect(await orderStatus(t, other.data.orderNo)).toBe('completed');
    const done = await call(t, '/payment/nftOrder/V1/getNftOrderDetail', { orderNo }, u.h);
    expect(done.data.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(done.data.drop.items.every((i: { chainStatus: string }) => i.chainStatus === 'minted')).toBe(true);
    expect(done.data.goods.id).toBe(done.data.drop.items[0].goodsId);
    expect(done.data.timeline.map((e: { status: string }) => e.status)).toEqual(['created', 'paying', 'paid', 'settling', 'completed']);
    for (const g of goods) expect(minter.tokens.get(String(g.token_id))).toBe(g.owner_user_id === u.userId ? u.address : v.address);
    // money: escrow → creator (total − 10%) + platform commission
    expect(await balance(t, u)).toBe(0);
    const creatorBalance = await t.ctx.db.kysely.selectFrom('ledger_balances').select('balance_fen').where('account', '=', `user:${creator}`).executeTakeFirstOrThrow();
    expect(Number(creatorBalance.balance_fen)).toBe(3702 - 370 + (2468 - 246));
    await expectLedgerBalanced(t);
    // the personal center lists them; the order lists show the drop
    const home = await call(t, '/goods/v1/list/home', { pageNum: 1, pageSize: 10 }, u.h);
    expect(home.data.list.filter((g: { projectId: number }) => g.projectId === projectId)).toHaveLength(3);
    const list = await call(t, '/payment/nftOrder/V1/pageListNftOrder', { pageNum: 1, pageSize: 10, status: 'done' }, u.h);
    expect(list.data.list[0]).toMatchObject({ orderNo, kind: 'drop', status: 'completed', drop: { quantity: 3 } });
    // nothing left to mint
    const mintAgain = await mintPendingGoods(t.ctx, minter);
    expect(mintAgain).toBe(0);
  });

  it('mints in batches of MINT_BATCH_SIZE and falls back to single mints when a batch fails', async () => {
    const { projectId } = await makeDrop(t, { supply: 200, perIdentityLimit: 200, maxPerOrder: 200 });
    const buyers = [await makeTrader(t), await makeTrader(t), await makeTrader(t)];
    const orders: string[] = [];
    for (const [i, u] of buyers.entries()) {
      const o = await buy(t, u, projectId, [60, 45, 20][i]!);
      expect(o.status, o.message).toBe('000000');
      await topup(t, u, o.data.priceFen);
      await call(t, '/payment/nftOrder/V1/pay', { orderNo: o.data.orderNo, method: 'balance' }, u.h);
      orders.push(o.data.orderNo);
    }
    await t.ctx.jobs.runOnce();
    const minter = new FakeMinter();
    minter.failBatches = true;
    // the first batch fails: its goods are minted one by one
    await mintPendingGoods(t.ctx, minter, { limit: 50 });
    minter.failBatches = false;
    await fulfilAndMint(t, minter);
    const sizes = minter.batchSizes();
    expect(sizes.every((n) => n <= 50)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(125);
    expect(sizes.filter((n) => n > 1).length).toBeGreaterThan(0);
    expect(sizes.filter((n) => n === 1).length).toBeGreaterThanOrEqual(50);
    for (const o of orders) expect(await orderStatus(t, o)).toBe('completed');
    await expectLedgerBalanced(t);
  });
});

describe('nowStint and the busy answers', () => {
  it('nowStint needs a login, knows unknown releases, and answers code 200 on success', async () => {
    const { projectId } = await makeDrop(t, { supply: 7 });
    expect((await get(t, `/official/stint/nowStint/?projectId=${projectId}`)).status).toBe('1100');
    const u = await makeTrader(t);
    expect(await stint(u, 999_999_999)).toMatchObject({ status: '1404' });
    expect(await get(t, `/official/stint/nowStint/?projectId=abc`, u.h)).toMatchObject({ http: 400, status: '1001' });
    const r = await stint(u, projectId);
    expect(r).toMatchObject({ status: '000000', code: 200, data: { supply: 7, sold: 0, stockRemaining: 7, status: 'on_sale', limit: 5 } });
    const nr = await makeTrader(t, 'no-realname');
    expect((await stint(nr, projectId)).data).toMatchObject({ verified: false, bought: 0, remaining: 0 });
  });

  it('answers 1021 排队中 with Retry-After when the release is full, and too many attempts the same way', async () => {
    const app = await makeDropApp({ DROP_MAX_IN_FLIGHT: '1', DROP_ATTEMPTS_PER_SECOND: '3' });
    try {
      const { projectId } = await makeDrop(app, { supply: 100 });
      // Hold the release's only admission slot (as a reservation in flight would): the next buyer is told to queue.
      let release!: () => void;
      const held = admitted(app.ctx, projectId, () => new Promise<void>((r) => (release = r)));
      const u0 = await makeTrader(app);
      const res = await app.app.inject({ method: 'POST', url: `${API}/payment/nftOrder/V1/createOrder`, headers: { 'content-type': 'application/json', channel: 'pc', ...u0.h, lang: 'zh' }, payload: JSON.stringify({ projectId, count: 1 }) });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: '1021', message: '排队中，请稍后再试', data: null });
      expect(res.headers['retry-after']).toBe('1');
      expect((await stock(app, projectId)).taken).toBe(0);
      release();
      await held;
      expect((await buy(app, u0, projectId, 1)).status).toBe('000000');
      // a fourth attempt within a second by one user
      const u = await makeTrader(app);
      const tries = [];
      for (let i = 0; i < 4; i++) tries.push(await buy(app, u, projectId, 1, { lang: 'zh' }));
      expect(tries[3]).toMatchObject({ status: '1021', message: '操作过于频繁，请稍后再试' });
    } finally {
      await app.close();
    }
  });

  it('the attempt window, the release cache and the stock snapshot run on the cache clock (tests advance it, no sleeping)', async () => {
    const app = await makeDropApp({ DROP_ATTEMPTS_PER_SECOND: '2', DROP_STOCK_CACHE_MS: '1000' });
    try {
      app.cacheClock.freeze();
      const { projectId } = await makeDrop(app, { supply: 100, perIdentityLimit: 50, maxPerOrder: 5 });
      const u = await makeTrader(app);
      expect((await buy(app, u, projectId, 1)).status).toBe('000000');
      expect((await buy(app, u, projectId, 1)).status).toBe('000000');
      expect((await buy(app, u, projectId, 1)).status).toBe('1021'); // a third attempt in the same second
      app.cacheClock.advance(999);
      expect((await buy(app, u, projectId, 1)).status).toBe('1021');
      app.cacheClock.advance(1);
      expect((await buy(app, u, projectId, 1)).status).toBe('000000'); // a new window, with no real second passed
      // The release read by createOrder is kept for a second of cache time: an end set behind the cache's back
      // is not seen until the clock moves past it.
      app.clock.t += 10;
      await app.ctx.db.kysely.updateTable('projects').set({ sale_end_at: app.clock.t - 1 }).where('id', '=', projectId).execute();
      const v = await makeTrader(app);
      expect((await buy(app, v, projectId, 1)).status).toBe('000000');
      app.cacheClock.advance(1001);
      expect(await buy(app, v, projectId, 1)).toMatchObject({ status: '1024', message: 'the sale has ended' });
      // The stock snapshot: another process's reservations (a direct update) show once it is older than DROP_STOCK_CACHE_MS.
      // Read afresh first: the snapshot is stale by now, and a read would reload it in the background, which could read the update below.
      dropStockSnapshot(app.ctx, projectId);
      const before = (await stockOf(app.ctx, projectId))!;
      await app.ctx.db.kysely.updateTable('drop_stock').set({ taken: before.taken + 7 }).where('project_id', '=', projectId).execute();
      expect((await stockOf(app.ctx, projectId))!.taken).toBe(before.taken);
      app.cacheClock.advance(1000);
      expect((await stockOf(app.ctx, projectId))!.taken).toBe(before.taken); // still fresh at exactly its lifetime
      app.cacheClock.advance(1);
      await stockOf(app.ctx, projectId); // stale: answered at once, reloaded in the background
      await expect.poll(async () => (await stockOf(app.ctx, projectId))!.taken, { timeout: 15_000 }).toBe(before.taken + 7);
    } finally {
      await app.close();
    }
  });

  it('a sold-out snapshot is read again after SOLD_OUT_RECHECK_MS: a unit given back elsewhere is for sale within it, not after DROP_STOCK_CACHE_MS', async () => {
    const app = await makeDropApp({ DROP_STOCK_CACHE_MS: '1000' });
    try {
      app.cacheClock.freeze();
      const { projectId } = await makeDrop(app, { supply: 3, perIdentityLimit: 5, maxPerOrder: 5 });
      expect((await buy(app, await makeTrader(app), projectId, 3)).status).toBe('000000');
      const late = await makeTrader(app);
      expect(await buy(app, late, projectId, 1, { lang: 'zh' })).toMatchObject({ status: '1022', message: '已售罄' });
      // Another process (or this one's worker thread) gives a unit back: a direct update, not this snapshot's adjustment.
      await app.ctx.db.kysely.updateTable('drop_stock').set({ taken: sql`taken - 1` }).where('project_id', '=', projectId).execute();
      app.cacheClock.advance(SOLD_OUT_RECHECK_MS);
      expect((await buy(app, late, projectId, 1)).status).toBe('1022'); // still fresh at exactly its lifetime
      app.cacheClock.advance(1);
      await stockOf(app.ctx, projectId); // stale: answered at once, reloaded in the background
      await expect.poll(async () => (await stockOf(app.ctx, projectId))!.taken, { timeout: 15_000 }).toBe(2);
      expect((await buy(app, late, projectId, 1)).status).toBe('000000'); // 899 ms before a 1 s snapshot would have been read again
      // While units are left the snapshot keeps its full lifetime.
      expect((await stockOf(app.ctx, projectId))!.taken).toBe(3); // sold out again (adjusted by the buy)
      await app.ctx.db.kysely.updateTable('drop_stock').set({ taken: sql`taken - 2` }).where('project_id', '=', projectId).execute();
      app.cacheClock.advance(SOLD_OUT_RECHECK_MS + 1);
      await stockOf(app.ctx, projectId);
      await expect.poll(async () => (await stockOf(app.ctx, projectId))!.taken, { timeout: 15_000 }).toBe(1);
      await app.ctx.db.kysely.updateTable('drop_stock').set({ taken: sql`taken + 1` }).where('project_id', '=', projectId).execute();
      app.cacheClock.advance(SOLD_OUT_RECHECK_MS + 1);
      expect((await stockOf(app.ctx, projectId))!.taken).toBe(1);
      app.cacheClock.advance(1000 - SOLD_OUT_RECHECK_MS);
      await stockOf(app.ctx, projectId);
      await expect.poll(async () => (await stockOf(app.ctx, projectId))!.taken, { timeout: 15_000 }).toBe(2);
    } finally {
      await app.close();
    }
  });

  it('the release page shows the live stock', async () => {
    const { projectId } = await makeDrop(t, { supply: 9 });
    await buy(t, await makeTrader(t), projectId, 2);
    const sale = await get(t, `/goods/v1/project/subSale/?id=${projectId}`);
    expect(sale.data).toMatchObject({ supply: 9, sold: 2, remaining: 7, status: 'on_sale' });
  });
});
