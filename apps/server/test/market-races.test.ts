import { fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentNotifyPaths } from '@cfx/contract/routes.ts';
import { signContent } from '../src/providers/payment/types.ts';
import { expireDueOrders } from '../src/modules/orders/close-order.ts';
import { reserveListing } from '../src/modules/orders/create-order.ts';
import { invalidateListing } from '../src/modules/market/invalidate-listing.ts';
import { inTx } from '../src/db/tx.ts';
import { call, type TestApp } from './helpers.ts';
import {
  balance, createOrderFor, expectLedgerBalanced, listForSale, makeGoods, makeMarketApp, makeRelease, makeTrader, orderStatus, runJobs, signTyped, topup,
  type FakeChain, type Release, type Trader,
} from './market-helpers.ts';

/** Races between payment, cancellation, expiry and notifies, and random operation sequences checked against the money and ownership invariants. */
let t: TestApp & { chain: FakeChain };
let release: Release;
beforeAll(async () => {
  t = await makeMarketApp({ MAX_UNPAID_ORDERS: '1000' });
  release = await makeRelease(t);
});
afterAll(async () => { await t?.close(); });

function notify(orderNo: string, tradeNo: string, fen: number) {
  const p = { out_trade_no: orderNo, trade_no: tradeNo, total_amount: `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`, trade_status: 'TRADE_SUCCESS', sign_type: 'HMAC-SHA256' };
  const params = { ...p, sign: crypto.createHmac('sha256', 'test-sandbox-secret').update(signContent(p)).digest('hex') };
  return t.app.inject({ method: 'POST', url: PaymentNotifyPaths.sandbox, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(params).toString() });
}

async function listed(seller: Trader, price = 10_000) {
  const g = await makeGoods(t, release, seller);
  await listForSale(t, seller, g.goodsId, price);
  return g;
}

/** What one racer process (fixtures/order-racer.ts) reports. */
interface RacerReport {
  results: { http: number; status: string; message: string; orderNo: string | null }[];
  spans: { start: number; end: number }[];
  maxOpen: number;
  /** When the process's first BEGIN was sent. */
  beganAt: number;
}

/**
 * Runs `tokens.length` createOrder calls for `goodsId` spread over `processes` child processes, each
 * with its own app and database connection on this test's database, held at the two gates that
 * fixtures/order-racer.ts describes. Resolves with every process's report.
 */
async function raceInProcesses(processes: number, tokens: string[], goodsId: number): Promise<RacerReport[]> {
  const children: ChildProcess[] = [];
  const kill = () => children.forEach((c) => c.exitCode === null && c.kill('SIGKILL'));
  try {
    const waiting = new Array<number>(processes).fill(0);
    let inTx = 0;
    let begun = 0;
    // Gate 2 (see fixtures/order-racer.ts): PostgreSQL — a transaction open in every process;
    // SQLite — every process at its BEGIN while one holds the write lock (BEGIN IMMEDIATE).
    const gate2Open = () => (t.dbKind === 'postgres' ? inTx === processes : inTx >= 1 && begun === processes);
    let gate2Sent = false;
    const maybeGate2 = () => {
      if (!gate2Sent && gate2Open()) {
        gate2Sent = true;
        children.forEach((c) => c.send({ type: 'go2' }));
      }
    };
    const reports = await new Promise<RacerReport[]>((resolve, reject) => {
      const out: RacerReport[] = [];
      let ready = 0;
      for (let i = 0; i < processes; i++) {
        const child = fork(path.join(import.meta.dirname, 'fixtures/order-racer.ts'), [t.ctx.config.dataDir, t.ctx.config.databaseUrl ?? '', String(t.clock.t)], {
          execArgv: ['--import', 'tsx'],
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        });
        children.push(child);
        child.once('exit', (code) => code !== 0 && reject(new Error(`racer ${i} exited with ${code}`)));
        child.on('message', (m: { type: string; n?: number } & RacerReport) => {
          if (m.type === 'ready' && ++ready === processes) {
            const share = Math.ceil(tokens.length / processes);
            children.forEach((c, j) => c.send({ type: 'race', tokens: tokens.slice(j * share, (j + 1) * share), goodsId }));
          } else if (m.type === 'waiting') {
            waiting[i] = m.n!;
            // Gate 1: every call of every process has read the listing on sale and waits at its transaction.
            if (waiting.reduce((a, b) => a + b, 0) === tokens.length) children.forEach((c) => c.send({ type: 'go' }));
          } else if (m.type === 'begin') {
            begun++;
            maybeGate2();
          } else if (m.type === 'in-tx') {
            inTx++;
            maybeGate2();
          } else if (m.type === 'done') {
            out[i] = m;
            if (out.filter(Boolean).length === processes) resolve(out);
          }
        });
      }
    });
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined)));
    return reports;
  } finally {
    kill();
  }
}

describe('races', () => {
  it('200 createOrder calls from 4 processes (own connection each) for one listing: all read it on sale, their transactions contend, exactly one wins', async () => {
    const seller = await makeTrader(t);
    const g = await listed(seller);
    const listing = await t.ctx.db.kysely.selectFrom('listings').select(['id']).where('goods_id', '=', g.goodsId).where('status', '=', 'on_sale').executeTakeFirstOrThrow();
    const buyers: Trader[] = [];
    for (let i = 0; i < 200; i++) buyers.push(await makeTrader(t));
    const reports = await raceInProcesses(4, buyers.map((b) => b.token), g.goodsId);

    // Interleaving happened: every call reached its reserving transaction having seen the listing on
    // sale (gate 1 opened only then), and the transactions of the 4 connections contended.
    const spans = reports.flatMap((r, p) => r.spans.map((s) => ({ ...s, p }))).sort((a, b) => a.start - b.start);
    expect(spans.length).toBeGreaterThanOrEqual(200);
    let overlap = 0;
    for (const s of spans) overlap = Math.max(overlap, spans.filter((o) => o.start <= s.start && o.end > s.start).length);
    for (const r of reports) expect(r.spans.length).toBeGreaterThanOrEqual(50);
    if (t.dbKind === 'postgres') {
      // Row locks: transactions of different connections were open at the same time.
      expect(overlap).toBeGreaterThanOrEqual(4);
    } else {
      // SQLite transactions begin IMMEDIATE: they hold the file's write lock, so they never overlap
      // (a deferred transaction that read first could not wait for the lock at its UPDATE — "database
      // is locked" — see db/database.ts). The race is real all the same: every call read the listing
      // on sale before its transaction (gate 1), every process was already waiting at its BEGIN while
      // the first transaction was open, and each process's transactions ran after another process's
      // commit, deciding by the conditional UPDATE alone. SQLite's busy waiting is not fair (a
      // waiter polls; the holder's next call begins at once), so the lock changes hands in few,
      // long runs rather than call by call: at least once into every process.
      expect(overlap).toBe(1);
      for (const r of reports) expect(r.beganAt).toBeLessThan(spans[0]!.end);
      let handovers = 0;
      for (let i = 1; i < spans.length; i++) if (spans[i]!.p !== spans[i - 1]!.p) handovers++;
      expect(handovers).toBeGreaterThanOrEqual(3);
    }

    // Exactly one winner; every other call lost the conditional UPDATE (1013) and wrote nothing.
    const results = reports.flatMap((r) => r.results);
    expect(results).toHaveLength(200);
    const won = results.filter((r) => r.status === '000000');
    expect(won).toHaveLength(1);
    const lost = results.filter((r) => r.status !== '000000');
    expect(lost.every((r) => r.http === 200 && r.status === '1013' && r.message === 'someone else is buying this collectible, please try again later')).toBe(true);
    const orders = await t.ctx.db.kysely.selectFrom('orders').select(['order_no', 'status']).where('listing_id', '=', Number(listing.id)).execute();
    expect(orders).toEqual([{ order_no: won[0]!.orderNo, status: 'created' }]);
    const events = await t.ctx.db.kysely.selectFrom('order_events').select(['order_no', 'to_status']).where('order_no', 'in', orders.map((o) => o.order_no)).execute();
    expect(events).toEqual([{ order_no: won[0]!.orderNo, to_status: 'created' }]);
    const orphans = await t.ctx.db.kysely
      .selectFrom('order_events')
      .leftJoin('orders', 'orders.order_no', 'order_events.order_no')
      .select('order_events.order_no')
      .where('orders.order_no', 'is', null)
      .execute();
    expect(orphans).toEqual([]);
    const l = await t.ctx.db.kysely.selectFrom('listings').select(['status', 'reserved_order_no']).where('id', '=', Number(listing.id)).executeTakeFirstOrThrow();
    expect(l).toEqual({ status: 'reserved', reserved_order_no: won[0]!.orderNo });
    await expectLedgerBalanced(t);
  }, 120_000);

  it('a listing closed between the buyer\'s read and the reservation answers "no longer on sale", not "someone else is buying"', async () => {
    // createOrder reads the listing on sale, then reserves it with a conditional update. When the indexer
    // closes the listing in between (token moved, approval revoked), the update changes nothing: the row,
    // read again in the reservation's transaction, says why.
    const seller = await makeTrader(t);
    const other = await makeTrader(t);
    const g = await listed(seller);
    const listing = await t.ctx.db.kysely.selectFrom('listings').select('id').where('goods_id', '=', g.goodsId).where('status', '=', 'on_sale').executeTakeFirstOrThrow();
    const id = Number(listing.id);
    const reserve = (orderNo: string) => inTx(t.ctx, (trx) => reserveListing(trx, id, orderNo));
    // Held by another buyer's order: busy (try again).
    const held = await createOrderFor(t, other, g.goodsId);
    expect(held.status, held.message).toBe('000000');
    await expect(reserve('MOraceA')).rejects.toMatchObject({ status: '1013', key: 'listingBusy' });
    // Closed by the indexer after the buyer's read: gone.
    expect(await invalidateListing(t.ctx, id, 'token_moved')).toBe(true);
    await expect(reserve('MOraceB')).rejects.toMatchObject({ status: '1013', key: 'listingGone' });
    const row = await t.ctx.db.kysely.selectFrom('listings').select(['status', 'reserved_order_no']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'invalid', reserved_order_no: null });
  });

  it('two balance payments racing for one balance: exactly one is paid', async () => {
    const seller = await makeTrader(t);
    const buyer = await makeTrader(t);
    await topup(t, buyer, 10_000);
    const a = await createOrderFor(t, buyer, (await listed(seller)).goodsId);
    const b = await createOrderFor(t, buyer, (await listed(seller)).goodsId);
    const r = await Promise.all([a, b].map((o) => call(t, '/payment/nftOrder/V1/pay', { orderNo: o.data.orderNo, method: 'balance' }, buyer.h)));
    expect(r.map((x) => x.status).sort()).toEqual(['000000', '1016']);
    expect(await balance(t, buyer)).toBe(0);
    await expectLedgerBalanced(t);
  });

  it('pay racing cancel, 20 times: each order ends paid or cancelled, never both, and money adds up', async () => {
    const seller = await makeTrader(t);
    const buyer = await makeTrader(t);
    await topup(t, buyer, 200_000);
    const orders: string[] = [];
    for (let i = 0; i < 20; i++) orders.push((await createOrderFor(t, buyer, (await listed(seller)).goodsId)).data.orderNo);
    await Promise.all(orders.flatMap((orderNo) => [
      call(t, '/payment/nftOrder/V1/pay', { orderNo, method: 'balance' }, buyer.h),
      call(t, '/payment/nftOrder/V1/cannelOrder', { orderNo }, buyer.h),
    ]));
    await runJobs(t);
    const statuses = await Promise.all(orders.map((o) => orderStatus(t, o)));
    expect(statuses.every((s) => s === 'completed' || s === 'cancelled')).toBe(true);
    const completed = statuses.filter((s) => s === 'completed').length;
    expect(await balance(t, buyer)).toBe(200_000 - completed * 10_000);
    await expectLedgerBalanced(t);
  });

  it('a notify racing the expiry sweep, 20 times: paid and settled, or expired with the money on the balance', async () => {
    const seller = await makeTrader(t);
    const buyer = await makeTrader(t);
    const orders: string[] = [];
    for (let i = 0; i < 20; i++) {
      const o = (await createOrderFor(t, buyer, (await listed(seller)).goodsId)).data.orderNo;
      await call(t, '/payment/nftOrder/V1/pay', { orderNo: o, method: 'sandbox' }, buyer.h);
      orders.push(o);
    }
    t.clock.t += 300_001;
    await Promise.all([expireDueOrders(t.ctx), ...orders.map((o, i) => notify(o, `SBXrace${i}`, 10_000))]);
    await runJobs(t);
    const statuses = await Promise.all(orders.map((o) => orderStatus(t, o)));
    expect(statuses.every((s) => s === 'completed' || s === 'expired')).toBe(true);
    expect(await balance(t, buyer)).toBe(statuses.filter((s) => s === 'expired').length * 10_000);
    await expectLedgerBalanced(t);
  });
});

describe('random operation sequences keep every invariant', () => {
  type Op =
    | { k: 'list' | 'close' | 'revoke'; g: number; price: number }
    | { k: 'order' | 'payBalance' | 'paySandbox' | 'cancel' | 'notifyTwice'; b: number; g: number }
    | { k: 'transfer'; g: number; to: number }
    | { k: 'bid'; b: number; g: number; price: number }
    | { k: 'accept'; g: number }
    | { k: 'tick' | 'jobs' };
  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 3, arbitrary: fc.record({ k: fc.constantFrom('list' as const, 'list' as const, 'close' as const, 'revoke' as const), g: fc.nat(5), price: fc.integer({ min: 100, max: 50_000 }) }) },
    { weight: 5, arbitrary: fc.record({ k: fc.constantFrom('order' as const, 'order' as const, 'payBalance' as const, 'payBalance' as const, 'paySandbox' as const, 'cancel' as const, 'notifyTwice' as const), b: fc.nat(2), g: fc.nat(5) }) },
    { weight: 1, arbitrary: fc.record({ k: fc.constant('transfer' as const), g: fc.nat(5), to: fc.nat(5) }) },
    { weight: 1, arbitrary: fc.record({ k: fc.constant('bid' as const), b: fc.nat(2), g: fc.nat(5), price: fc.integer({ min: 100, max: 50_000 }) }) },
    { weight: 1, arbitrary: fc.record({ k: fc.constant('accept' as const), g: fc.nat(5) }) },
    { weight: 2, arbitrary: fc.record({ k: fc.constantFrom('tick' as const, 'jobs' as const, 'jobs' as const) }) },
  );

  it('ledger balances, nothing stays paid, chain and database agree on owners', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 15, maxLength: 40, size: 'max' }), async (ops) => {
        run++;
        const people = [await makeTrader(t), await makeTrader(t), await makeTrader(t), await makeTrader(t), await makeTrader(t), await makeTrader(t)];
        const buyers = people.slice(3);
        for (const b of buyers) await topup(t, b, 100_000);
        const goods: { goodsId: number; tokenId: string }[] = [];
        for (let i = 0; i < 6; i++) goods.push(await makeGoods(t, release, people[i % 3]!));
        const ownerOf = async (gi: number) => {
          const row = await t.ctx.db.kysely.selectFrom('goods').select('owner_user_id').where('id', '=', goods[gi]!.goodsId).executeTakeFirstOrThrow();
          return people.find((p) => p.userId === Number(row.owner_user_id))!;
        };
        const lastOrder = new Map<number, string>();
        /** Picks among our goods in a given state, so that most operations do something. */
        const pick = async (i: number, status: 'held' | 'on_sale') => {
          const rows = await t.ctx.db.kysely.selectFrom('goods').select('id').where('id', 'in', goods.map((g) => g.goodsId)).where('status', '=', status).execute();
          if (!rows.length) return i;
          const id = Number(rows[i % rows.length]!.id);
          return goods.findIndex((g) => g.goodsId === id);
        };
        let trade = 0;
        for (const o of ops) {
          switch (o.k) {
            case 'list': {
              o.g = await pick(o.g, 'held');
              const owner = await ownerOf(o.g);
              const pre = await call(t, '/goods/v1/preOpenSale', { goodsId: goods[o.g]!.goodsId, price: o.price }, owner.h);
              if (pre.status !== '000000') break;
              if (t.chain.owners.get(goods[o.g]!.tokenId) === owner.address) t.chain.approve(goods[o.g]!.tokenId, owner.address);
              const rr = await call(t, '/goods/v1/openSale', { goodsId: goods[o.g]!.goodsId, price: o.price, sellerOrderId: pre.data.sellerOrderId, signature: signTyped(owner, pre.data) }, owner.h);
              void rr;
              break;
            }
            case 'close':
              await call(t, '/goods/v1/closeSale', { goodsId: goods[o.g]!.goodsId }, (await ownerOf(o.g)).h);
              break;
            case 'revoke':
              t.chain.revoke(goods[o.g]!.tokenId);
              t.chain.emit([{ event: 'Approval', tokenId: goods[o.g]!.tokenId, from: null, to: null }]);
              break;
            case 'transfer': {
              const to = people[o.to]!;
              t.chain.transfer(goods[o.g]!.tokenId, to.address);
              t.chain.emit([{ event: 'Transfer', tokenId: goods[o.g]!.tokenId, from: (await ownerOf(o.g)).address, to: to.address }]);
              break;
            }
            case 'order': {
              o.g = await pick(o.g, 'on_sale');
              const r = await createOrderFor(t, buyers[o.b]!, goods[o.g]!.goodsId);
              if (r.status === '000000') lastOrder.set(o.b, r.data.orderNo);
              break;
            }
            case 'payBalance':
            case 'paySandbox':
            case 'cancel':
            case 'notifyTwice': {
              const orderNo = lastOrder.get(o.b);
              if (!orderNo) break;
              const h = buyers[o.b]!.h;
              if (o.k === 'payBalance') await call(t, '/payment/nftOrder/V1/pay', { orderNo, method: 'balance' }, h);
              else if (o.k === 'paySandbox') await call(t, '/payment/nftOrder/V1/pay', { orderNo, method: 'sandbox' }, h);
              else if (o.k === 'cancel') await call(t, '/payment/nftOrder/V1/cannelOrder', { orderNo }, h);
              else {
                const price = Number((await t.ctx.db.kysely.selectFrom('orders').select('price_fen').where('order_no', '=', orderNo).executeTakeFirstOrThrow()).price_fen);
                const id = `SBXprop${run}-${trade++}`;
                await notify(orderNo, id, price);
                await notify(orderNo, id, price);
              }
              break;
            }
            case 'bid':
              await call(t, '/goods/v1/bargin', { goodsId: goods[o.g]!.goodsId, amount: o.price, expiresAt: t.clock.t + 86_400_000 }, buyers[o.b]!.h);
              break;
            case 'accept': {
              const owner = await ownerOf(o.g);
              const bids = await call(t, '/goods/v1/barginList', { goodsId: goods[o.g]!.goodsId });
              const top = bids.data?.list?.[0];
              if (!top) break;
              const pre = await call(t, '/goods/v1/preOpenSale', { goodsId: goods[o.g]!.goodsId, price: top.amountFen, bidId: top.id }, owner.h);
              if (pre.status !== '000000') break;
              if (t.chain.owners.get(goods[o.g]!.tokenId) === owner.address) t.chain.approve(goods[o.g]!.tokenId, owner.address);
              const r = await call(t, '/goods/v1/agreeBargin/', { bidId: top.id, sellerOrderId: pre.data.sellerOrderId, signature: signTyped(owner, pre.data) }, owner.h);
              if (r.status === '000000') {
                const buyerId = Number((await t.ctx.db.kysely.selectFrom('orders').select('buyer_user_id').where('order_no', '=', r.data.orderNo).executeTakeFirstOrThrow()).buyer_user_id);
                const b = buyers.findIndex((x) => x.userId === buyerId);
                if (b >= 0) lastOrder.set(b, r.data.orderNo);
              }
              break;
            }
            case 'tick':
              t.clock.t += 301_000;
              break;
            case 'jobs':
              await runJobs(t);
              break;
          }
        }
        await new Promise((r) => setTimeout(r, 20)); // watcher callbacks
        await runJobs(t);
        await expectLedgerBalanced(t);
        const stuck = await t.ctx.db.kysely.selectFrom('orders').select(['order_no', 'status']).where('status', 'in', ['paid', 'settling']).execute();
        expect(stuck).toEqual([]);
        for (const g of goods) {
          const row = await t.ctx.db.kysely.selectFrom('goods').select('owner_user_id').where('id', '=', g.goodsId).executeTakeFirstOrThrow();
          const owner = people.find((p) => p.userId === Number(row.owner_user_id))!;
          expect(t.chain.owners.get(g.tokenId), `goods ${g.goodsId}`).toBe(owner.address);
          const live = await t.ctx.db.kysely.selectFrom('listings').select(['id', 'kind']).where('goods_id', '=', g.goodsId).where('status', 'in', ['on_sale', 'reserved']).execute();
          expect(live.length).toBeLessThanOrEqual(1);
          // the catalog's goods.status says on sale exactly when a public listing is live
          const gs = await t.ctx.db.kysely.selectFrom('goods').select('status').where('id', '=', g.goodsId).executeTakeFirstOrThrow();
          expect(gs.status === 'on_sale', `goods ${g.goodsId} status`).toBe(live.some((l) => l.kind === 'market'));
        }
        // every completed order paid its seller once; every refunded one its buyer once
        const done = await t.ctx.db.kysely.selectFrom('orders').select(['order_no', 'status']).where('status', 'in', ['completed', 'refunded']).execute();
        const txns = new Set((await t.ctx.db.kysely.selectFrom('ledger_txns').select('id').execute()).map((r) => r.id));
        for (const d of done) expect(txns.has(`${d.status === 'completed' ? 'settle' : 'refund'}:${d.order_no}`)).toBe(true);
      }),
      { numRuns: 40, seed: 20261121 },
    );
  }, 120_000);
});
