import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestApp } from './helpers.ts';
import {
  balance, createOrderFor, expectLedgerBalanced, listForSale, makeGoods, makeMarketApp, makeRelease, makeTrader, orderStatus, runJobs, topup,
  type FakeChain, type Release,
} from './market-helpers.ts';
import { inTx } from '../src/db/tx.ts';
import { completeMarketOrders } from '../src/modules/orders/complete-market-orders.ts';
import { moveOrder } from '../src/modules/orders/transitions.ts';

/** The settlement jobs' bursts, "paid → settling" and completion (orders/settle-order.ts, orders/complete-market-orders.ts): a few statements per burst, each sale exactly once. */
let t: TestApp & { chain: FakeChain };
let release: Release;
beforeAll(async () => {
  t = await makeMarketApp({ MAX_UNPAID_ORDERS: '10' });
  release = await makeRelease(t);
});
afterAll(async () => { await t?.close(); });

/** A listed collectible bought and paid from the buyer's balance (the settlement job not run yet). */
async function paidSale(price: number) {
  const seller = await makeTrader(t);
  const g = await makeGoods(t, release, seller);
  const l = await listForSale(t, seller, g.goodsId, price);
  const buyer = await makeTrader(t);
  await topup(t, buyer, price);
  const o = await createOrderFor(t, buyer, g.goodsId);
  expect(o.status, o.message).toBe('000000');
  const paid = await call(t, '/payment/nftOrder/V1/pay', { orderNo: o.data.orderNo, method: 'balance' }, buyer.h);
  expect(paid.status, paid.message).toBe('000000');
  return { seller, buyer, goodsId: g.goodsId, tokenId: g.tokenId, listingId: Number(l.listingId), orderNo: o.data.orderNo as string, price, commission: Number(o.data.commissionFen) };
}

const rows = (table: 'deals' | 'goods_price_history' | 'goods_history_actions', goodsId: number) =>
  t.ctx.db.kysely.selectFrom(table).selectAll().where('goods_id', '=', goodsId).execute();

describe('completing settled sales in a burst', () => {
  it('receipts that arrive together complete every sale with its own transaction hash, goods, deal, history and ledger', async () => {
    const sales = [];
    for (const price of [10_000, 12_345, 20_000, 777]) sales.push(await paidSale(price));
    t.chain.autoMine = false;
    const jobs = runJobs(t);
    // every sale submitted, none mined: then all receipts at once (one burst of completions)
    for (let i = 0; i < 100 && t.chain.submitted.length < sales.length; i++) await new Promise((r) => setTimeout(r, 10));
    expect(t.chain.submitted.map((s) => s.buyerOrderId).sort()).toEqual(sales.map((s) => s.orderNo).sort());
    t.chain.autoMine = true;
    t.chain.mine();
    await jobs;

    const hashOf = (orderNo: string) => [...t.chain.txs.values()].find((x) => x.key === `settle:${orderNo}`)!.txHash;
    expect(new Set(sales.map((s) => hashOf(s.orderNo))).size).toBe(sales.length);
    for (const s of sales) {
      const o = await t.ctx.db.kysely.selectFrom('orders').select(['status', 'tx_hash', 'completed_at', 'chain_tx_id']).where('order_no', '=', s.orderNo).executeTakeFirstOrThrow();
      expect(o).toMatchObject({ status: 'completed', tx_hash: hashOf(s.orderNo) });
      expect(Number(o.chain_tx_id)).toBe(t.chain.keys.get(`settle:${s.orderNo}`));
      expect(o.completed_at).not.toBeNull();
      const events = await t.ctx.db.kysely.selectFrom('order_events').select(['from_status', 'to_status', 'note']).where('order_no', '=', s.orderNo).where('to_status', 'in', ['settling', 'completed']).orderBy('id').execute();
      expect(events).toEqual([
        { from_status: 'paid', to_status: 'settling', note: `operator transaction #${t.chain.keys.get(`settle:${s.orderNo}`)}` },
        { from_status: 'settling', to_status: 'completed', note: `settled on chain ${hashOf(s.orderNo)}` },
      ]);
      const g = await t.ctx.db.kysely.selectFrom('goods').select(['owner_user_id', 'status', 'sale_price_fen', 'listed_at', 'last_price_fen']).where('id', '=', s.goodsId).executeTakeFirstOrThrow();
      expect({ ...g, owner_user_id: Number(g.owner_user_id), last_price_fen: Number(g.last_price_fen) }).toEqual({ owner_user_id: s.buyer.userId, status: 'held', sale_price_fen: null, listed_at: null, last_price_fen: s.price });
      const l = await t.ctx.db.kysely.selectFrom('listings').select('status').where('id', '=', s.listingId).executeTakeFirstOrThrow();
      expect(l.status).toBe('sold');
      const deals = await rows('deals', s.goodsId);
      expect(deals.map((d) => ({ order_no: d.order_no, project_id: Number(d.project_id), listing_id: Number(d.listing_id), seller: Number(d.seller_user_id), buyer: Number(d.buyer_user_id), price: Number(d.price_fen), commission: Number(d.commission_fen), tx_hash: d.tx_hash }))).toEqual([
        { order_no: s.orderNo, project_id: release.projectId, listing_id: s.listingId, seller: s.seller.userId, buyer: s.buyer.userId, price: s.price, commission: s.commission, tx_hash: hashOf(s.orderNo) },
      ]);
      expect((await rows('goods_price_history', s.goodsId)).map((h) => Number(h.price_fen))).toEqual([s.price]);
      const sale = (await rows('goods_history_actions', s.goodsId)).filter((h) => h.action === 'sale');
      expect(sale.map((h) => [Number(h.from_user_id), Number(h.to_user_id), Number(h.price_fen), h.tx_hash])).toEqual([[s.seller.userId, s.buyer.userId, s.price, hashOf(s.orderNo)]]);
      expect(await balance(t, s.seller)).toBe(s.price - s.commission);
      expect(await balance(t, s.buyer)).toBe(0);
      const sold = await t.ctx.db.kysely.selectFrom('messages').select('params').where('user_id', '=', s.seller.userId).where('kind', '=', 'sold').execute();
      const named = await t.ctx.db.kysely.selectFrom('goods').select(['name', 'serial']).where('id', '=', s.goodsId).executeTakeFirstOrThrow();
      expect(sold.map((m) => JSON.parse(m.params))).toEqual([{ name: named.name, serial: Number(named.serial), orderNo: s.orderNo, priceFen: s.price, incomeFen: s.price - s.commission }]);
      expect(t.chain.owners.get(s.tokenId)).toBe(s.buyer.address);
    }
    await expectLedgerBalanced(t);
  });

  it('an order named twice, one already completed and an unknown number complete nothing more; a repeat changes nothing', async () => {
    const a = await paidSale(5_000);
    const b = await paidSale(6_000);
    await inTx(t.ctx, async (trx) => {
      for (const s of [a, b]) expect(await moveOrder(trx, s.orderNo, 'paid', 'settling', t.ctx.now(), { chain_tx_id: null })).toBe('paid');
    });
    const complete = (fills: { orderNo: string; txHash: string | null }[]) => inTx(t.ctx, (trx) => completeMarketOrders(t.ctx, trx, fills, t.ctx.now()));
    expect(await complete([
      { orderNo: a.orderNo, txHash: '0xaa' },
      { orderNo: a.orderNo, txHash: '0xaa' },
      { orderNo: b.orderNo, txHash: '0xbb' },
      { orderNo: 'MO00000000000000000000000000', txHash: '0xaa' },
    ])).toEqual([true, false, true, false]);
    expect(await complete([{ orderNo: a.orderNo, txHash: '0xcc' }, { orderNo: b.orderNo, txHash: null }])).toEqual([false, false]);
    for (const [s, hash] of [[a, '0xaa'], [b, '0xbb']] as const) {
      expect(await orderStatus(t, s.orderNo)).toBe('completed');
      expect((await t.ctx.db.kysely.selectFrom('orders').select('tx_hash').where('order_no', '=', s.orderNo).executeTakeFirstOrThrow()).tx_hash).toBe(hash);
      expect(await rows('deals', s.goodsId)).toHaveLength(1);
      expect(await rows('goods_price_history', s.goodsId)).toHaveLength(1);
      const txns = await t.ctx.db.kysely.selectFrom('ledger_entries').select(['account', 'amount_fen']).where('txn_id', '=', `settle:${s.orderNo}`).execute();
      expect(txns).toHaveLength(3);
      expect(await balance(t, s.seller)).toBe(s.price - s.commission);
    }
    // the settlement jobs then find the orders completed and stop
    await runJobs(t);
    expect(t.chain.submitted.filter((x) => x.buyerOrderId === a.orderNo || x.buyerOrderId === b.orderNo)).toEqual([]);
    await expectLedgerBalanced(t);
  });
});
