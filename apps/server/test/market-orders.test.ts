import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestApp } from './helpers.ts';
import {
  balance, createOrderFor, expectLedgerBalanced, get, listForSale, makeGoods, makeMarketApp, makeRelease, makeTrader, orderStatus, runJobs, topup,
  type FakeChain, type Release, type Trader,
} from './market-helpers.ts';

/** Orders: exclusive reservation, expiry, cancellation, IDOR, balance payment and settlement (with the chain double). */
let t: TestApp & { chain: FakeChain };
let release: Release;
beforeAll(async () => {
  t = await makeMarketApp({ MAX_UNPAID_ORDERS: '3' });
  release = await makeRelease(t);
});
afterAll(async () => { await t?.close(); });

async function listed(price = 5000) {
  const seller = await makeTrader(t);
  const g = await makeGoods(t, release, seller);
  const l = await listForSale(t, seller, g.goodsId, price);
  return { seller, ...g, listingId: l.listingId as number };
}

describe('createOrder', () => {
  it('reserves the listing for the payment window and returns the order with its timeline', async () => {
    const { seller, goodsId, listingId } = await listed(12345);
    const buyer = await makeTrader(t);
    const r = await createOrderFor(t, buyer, goodsId);
    expect(r).toMatchObject({ status: '000000', message: 'order placed, please pay within 5 minutes' });
    expect(r.data).toMatchObject({
      kind: 'market', status: 'created', role: 'buyer', listingId, priceFen: 12345, commissionFen: 617, royaltyFen: 0, sellerIncomeFen: null,
      goods: { id: goodsId }, payMethod: null, remainingMs: 300_000, txHash: null, timeline: [{ status: 'created', from: null }],
    });
    expect(r.data.orderNo).toMatch(/^MO\d{26}$/);
    expect(r.data.expiresAt).toBe(t.clock.t + 300_000);
    const asSeller = await call(t, '/payment/nftOrder/V1/getNftOrderDetail', { orderNo: r.data.orderNo }, seller.h);
    expect(asSeller.data).toMatchObject({ role: 'seller', sellerIncomeFen: 12345 - 617 });
    const l = await t.ctx.db.kysely.selectFrom('listings').select(['status', 'reserved_order_no']).where('id', '=', listingId).executeTakeFirstOrThrow();
    expect(l).toEqual({ status: 'reserved', reserved_order_no: r.data.orderNo });
    // by listing id too; the listing is now held
    const other = await makeTrader(t);
    expect(await call(t, '/payment/nftOrder/V1/createOrder', { listingId }, other.h)).toMatchObject({ status: '1013', message: 'someone else is buying this collectible, please try again later' });
  });

  it('200 concurrent calls on one listing create exactly one order', async () => {
    const { goodsId, listingId } = await listed();
    const buyers: Trader[] = [];
    for (let i = 0; i < 200; i++) buyers.push(await makeTrader(t));
    const results = await Promise.all(buyers.map((b) => createOrderFor(t, b, goodsId)));
    const won = results.filter((r) => r.status === '000000');
    expect(won).toHaveLength(1);
    expect(results.filter((r) => r.status === '1013').length).toBe(199);
    expect(results.every((r) => r.http === 200)).toBe(true);
    const orders = await t.ctx.db.kysely.selectFrom('orders').select('order_no').where('listing_id', '=', listingId).execute();
    expect(orders).toHaveLength(1);
    expect(orders[0]!.order_no).toBe(won[0]!.data.orderNo);
  });

  it('refuses the seller, non-traders, unknown goods, goods not on sale, and too many unpaid orders', async () => {
    const { seller, goodsId } = await listed();
    expect(await createOrderFor(t, seller, goodsId)).toMatchObject({ status: '1013', message: 'you cannot buy your own collectible' });
    expect(await createOrderFor(t, await makeTrader(t, 'no-wallet'), goodsId)).toMatchObject({ status: '1011', message: 'please link a wallet first' });
    expect(await createOrderFor(t, await makeTrader(t, 'minor'), goodsId)).toMatchObject({ status: '1011', message: 'you must be 18 or older to trade' });
    const buyer = await makeTrader(t);
    expect(await createOrderFor(t, buyer, 99_999_999)).toMatchObject({ http: 404, status: '1404', message: 'collectible not found' });
    expect(await call(t, '/payment/nftOrder/V1/createOrder', { listingId: 99_999_999 }, buyer.h)).toMatchObject({ http: 404, status: '1404', message: 'listing not found' });
    const held = await makeGoods(t, release, seller);
    expect(await createOrderFor(t, buyer, held.goodsId)).toMatchObject({ status: '1013', message: 'this collectible is no longer on sale' });
    expect(await call(t, '/payment/nftOrder/V1/createOrder', {}, buyer.h)).toMatchObject({ http: 400, status: '1001' });
    expect(await createOrderFor(t, { ...buyer, h: {} }, goodsId)).toMatchObject({ status: '1100' });
    for (let i = 0; i < 3; i++) expect((await createOrderFor(t, buyer, (await listed()).goodsId)).status).toBe('000000');
    expect(await createOrderFor(t, buyer, goodsId)).toMatchObject({ status: '1015', message: 'you have 3 unpaid orders, please pay or cancel them first' });
  });
});

describe('expiry and cancellation', () => {
  it('an unpaid order expires after the window and the listing is buyable again', async () => {
    const { goodsId, listingId } = await listed();
    const a = await makeTrader(t);
    const b = await makeTrader(t);
    const o = await createOrderFor(t, a, goodsId);
    t.clock.t += 300_001;
    await runJobs(t);
    expect(await orderStatus(t, o.data.orderNo)).toBe('expired');
    const detail = await call(t, '/payment/nftOrder/V1/getNftOrderDetail', { orderNo: o.data.orderNo }, a.h);
    expect(detail.data.timeline.map((e: any) => e.status)).toEqual(['created', 'expired']);
    expect(detail.data.remainingMs).toBe(0);
    expect(await call(t, '/payment/nftOrder/V1/pay', { orderNo: o.data.orderNo, method: 'balance' }, a.h)).toMatchObject({ status: '1015', message: 'the order has expired' });
    const again = await createOrderFor(t, b, goodsId);
    expect(again.status).toBe('000000');
    expect(again.data.listingId).toBe(listingId);
  });

  it('a reservation past its window is released even before the sweep runs', async () => {
    const { goodsId } = await listed();
    const a = await makeTrader(t);
    const b = await makeTrader(t);
    const o = await createOrderFor(t, a, goodsId);
    t.clock.t += 300_001;
    const r = await createOrderFor(t, b, goodsId);
    expect(r.status).toBe('000000');
    expect(await orderStatus(t, o.data.orderNo)).toBe('expired');
  });

  it('cannelOrder cancels an unpaid order (buyer only) and frees the listing', async () => {
    const { seller, goodsId } = await listed();
    const a = await makeTrader(t);
    const o = await createOrderFor(t, a, goodsId);
    expect(await call(t, '/payment/nftOrder/V1/cannelOrder', { orderNo: o.data.orderNo }, seller.h)).toMatchObject({ status: '1012', message: 'this order is not yours' });
    const c = await call(t, '/payment/nftOrder/V1/cannelOrder', { orderNo: o.data.orderNo }, a.h);
    expect(c).toMatchObject({ status: '000000', message: 'order cancelled', data: { status: 'cancelled' } });
    expect(await call(t, '/payment/nftOrder/V1/cannelOrder', { orderNo: o.data.orderNo }, a.h)).toMatchObject({ status: '1015', message: 'the order cannot be cancelled in its current state' });
    expect(await call(t, '/payment/nftOrder/V1/pay', { orderNo: o.data.orderNo, method: 'balance' }, a.h)).toMatchObject({ status: '1015', message: 'the order cannot be paid in its current state' });
    expect((await createOrderFor(t, await makeTrader(t), goodsId)).status).toBe('000000');
    expect(await call(t, '/payment/nftOrder/V1/cannelOrder', { orderNo: 'MO000' }, a.h)).toMatchObject({ http: 404, status: '1404', message: 'order not found' });
    expect(await call(t, '/payment/nftOrder/V1/cannelOrder', { orderNo: 'bad no!' }, a.h)).toMatchObject({ http: 400, status: '1001' });
  });
});

describe('IDOR: orders are visible to their buyer and seller only', () => {
  it('refuses other users on every order call', async () => {
    const { goodsId } = await listed();
    const buyer = await makeTrader(t);
    const stranger = await makeTrader(t);
    const o = await createOrderFor(t, buyer, goodsId);
    const orderNo = o.data.orderNo;
    for (const p of ['getNftOrderDetail', 'queryAmount', 'cannelOrder', 'pay']) {
      const r = await call(t, `/payment/nftOrder/V1/${p}`, { orderNo, method: 'balance' }, stranger.h);
      expect(r, p).toMatchObject({ status: '1012', message: 'this order is not yours' });
    }
    expect((await call(t, '/payment/nftOrder/V1/queryNftOrderList', {}, stranger.h)).data).toEqual([]);
    expect((await call(t, '/payment/nftOrder/V1/pageListNftOrder', { role: 'seller' }, stranger.h)).data.total).toBe(0);
    expect(await orderStatus(t, orderNo)).toBe('created');
  });
});

describe('paying from the balance and settlement', () => {
  it('pays, settles through the chain, and moves goods and money exactly once', async () => {
    const { seller, goodsId, tokenId, listingId } = await listed(10_000);
    const buyer = await makeTrader(t);
    await topup(t, buyer, 15_000);
    const o = await createOrderFor(t, buyer, goodsId);
    const orderNo = o.data.orderNo;
    const amount = await call(t, '/payment/nftOrder/V1/queryAmount', { orderNo }, buyer.h);
    expect(amount.data).toMatchObject({ orderNo, status: 'created', amountFen: 10_000, methods: ['sandbox', 'wechat', 'balance', 'card'], balanceFen: 15_000 });
    const paid = await call(t, '/payment/nftOrder/V1/pay', { orderNo, method: 'balance' }, buyer.h);
    expect(paid).toMatchObject({ status: '000000', message: 'payment successful', data: { status: 'paid', payUrl: null, method: 'balance' } });
    expect(await balance(t, buyer)).toBe(5000);
    await expectLedgerBalanced(t);
    expect(await call(t, '/payment/nftOrder/V1/pay', { orderNo, method: 'balance' }, buyer.h)).toMatchObject({ status: '1015' });
    await runJobs(t);
    expect(await orderStatus(t, orderNo)).toBe('completed');
    const d = await call(t, '/payment/nftOrder/V1/getNftOrderDetail', { orderNo }, buyer.h);
    expect(d.data.timeline.map((e: any) => e.status)).toEqual(['created', 'paid', 'settling', 'completed']);
    expect(d.data.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(d.data.explorerUrl).toBe(`https://confluxscan.io/transaction/${d.data.txHash}`);
    expect(t.chain.owners.get(tokenId)).toBe(buyer.address);
    expect(t.chain.submitted.filter((s) => s.buyerOrderId === orderNo)).toHaveLength(1);
    // goods, listing, history, deal record, price history
    const g = await t.ctx.db.kysely.selectFrom('goods').selectAll().where('id', '=', goodsId).executeTakeFirstOrThrow();
    expect(Number(g.owner_user_id)).toBe(buyer.userId);
    expect(g.status).toBe('held');
    expect(Number(g.last_price_fen)).toBe(10_000);
    expect((await t.ctx.db.kysely.selectFrom('listings').select('status').where('id', '=', listingId).executeTakeFirstOrThrow()).status).toBe('sold');
    const actions = await t.ctx.db.kysely.selectFrom('goods_history_actions').select('action').where('goods_id', '=', goodsId).orderBy('id').execute();
    expect(actions.map((a) => a.action)).toEqual(['list', 'sale']);
    expect(await t.ctx.db.kysely.selectFrom('goods_price_history').select('price_fen').where('goods_id', '=', goodsId).execute()).toHaveLength(1);
    const deals = await call(t, '/payment/nftDealRecord/V1/pageListNftDealRecordByParams', { goodsId });
    expect(deals.data).toMatchObject({ total: 1, list: [{ orderNo, goodsId, priceFen: 10_000, txHash: d.data.txHash }] });
    expect((await call(t, '/payment/nftDealRecord/V1/pageListNftDealRecordByParams', { mine: 'sell' }, seller.h)).data.total).toBe(1);
    expect((await call(t, '/payment/nftDealRecord/V1/pageListNftDealRecordByParams', { mine: 'buy' }, seller.h)).data.total).toBe(0);
    expect((await call(t, '/payment/nftDealRecord/V1/pageListNftDealRecordByParams', { mine: 'buy' })).status).toBe('1100');
    // money: seller gets price − 5% commission; the platform the commission
    expect(await balance(t, seller)).toBe(9500);
    const commission = await t.ctx.db.kysely.selectFrom('ledger_balances').select('balance_fen').where('account', '=', 'platform:commission').executeTakeFirstOrThrow();
    expect(Number(commission.balance_fen)).toBeGreaterThanOrEqual(500);
    await expectLedgerBalanced(t);
    // running the jobs again changes nothing
    await runJobs(t);
    expect(await balance(t, seller)).toBe(9500);
    expect((await call(t, '/goods/v1/mySell', { status: 'sold' }, seller.h)).data.list[0]).toMatchObject({ goodsId, status: 'sold', orderNo, incomeFen: 9500 });
    const lists = await call(t, '/payment/nftOrder/V1/queryNftOrderList', { status: 'done' }, buyer.h);
    expect(lists.data.map((x: any) => x.orderNo)).toContain(orderNo);
    const page = await call(t, '/payment/nftOrder/V1/pageListNftOrder', { role: 'seller', status: 'all', pageSize: 1 }, seller.h);
    expect(page.data).toMatchObject({ total: 1, pageSize: 1, list: [{ orderNo, role: 'seller' }] });
    const bal = await get(t, '/payment/account/V1/queryBalance', seller.h);
    expect(bal.data).toMatchObject({ availableFen: 9500, inSettlementFen: 0, recent: [{ kind: 'settle', orderNo, amountFen: 9500 }] });
  });

  it('insufficient balance is refused and nothing moves', async () => {
    const { goodsId } = await listed(10_000);
    const buyer = await makeTrader(t);
    await topup(t, buyer, 9_999);
    const o = await createOrderFor(t, buyer, goodsId);
    expect(await call(t, '/payment/nftOrder/V1/pay', { orderNo: o.data.orderNo, method: 'balance' }, buyer.h)).toMatchObject({ status: '1016', message: 'insufficient balance' });
    expect(await orderStatus(t, o.data.orderNo)).toBe('created');
    expect(await balance(t, buyer)).toBe(9_999);
    expect(await call(t, '/payment/nftOrder/V1/pay', { orderNo: o.data.orderNo, method: 'alipay' }, buyer.h)).toMatchObject({ status: '1016', message: 'this payment method is not available' });
    await expectLedgerBalanced(t);
  });

  it('a listing that can no longer settle is refused at payment time, before money moves', async () => {
    const { goodsId, tokenId } = await listed(10_000);
    const buyer = await makeTrader(t);
    await topup(t, buyer, 10_000);
    const o = await createOrderFor(t, buyer, goodsId);
    t.chain.revoke(tokenId); // approval revoked; the indexer has not reported it yet
    expect(await call(t, '/payment/nftOrder/V1/pay', { orderNo: o.data.orderNo, method: 'balance' }, buyer.h)).toMatchObject({ status: '1013', message: 'this collectible is no longer on sale' });
    expect(await orderStatus(t, o.data.orderNo)).toBe('cancelled');
    expect(await balance(t, buyer)).toBe(10_000);
    expect(await createOrderFor(t, await makeTrader(t), goodsId)).toMatchObject({ status: '1013', message: 'this collectible is no longer on sale' });
  });

  it('settlement failing for good refunds the buyer and closes the listing', async () => {
    const { seller, goodsId, tokenId, listingId } = await listed(10_000);
    const buyer = await makeTrader(t);
    await topup(t, buyer, 10_000);
    const o = await createOrderFor(t, buyer, goodsId);
    expect((await call(t, '/payment/nftOrder/V1/pay', { orderNo: o.data.orderNo, method: 'balance' }, buyer.h)).status).toBe('000000');
    // the seller moves the token away after payment, before settlement
    t.chain.transfer(tokenId, (await makeTrader(t)).address);
    await runJobs(t);
    expect(await orderStatus(t, o.data.orderNo)).toBe('refunded');
    expect(await balance(t, buyer)).toBe(10_000);
    expect(await balance(t, seller)).toBe(0);
    const d = await call(t, '/payment/nftOrder/V1/getNftOrderDetail', { orderNo: o.data.orderNo }, buyer.h);
    expect(d.data.failReason).toBe('settlement failed: NotOnShelf') // a transfer clears the approval; the contract checks it first;
    expect(d.data.timeline.map((e: any) => e.status)).toEqual(['created', 'paid', 'settling', 'refunded']);
    expect((await t.ctx.db.kysely.selectFrom('listings').select('status').where('id', '=', listingId).executeTakeFirstOrThrow()).status).toBe('invalid');
    const g = await t.ctx.db.kysely.selectFrom('goods').select(['owner_user_id', 'status']).where('id', '=', goodsId).executeTakeFirstOrThrow();
    expect(g.status).toBe('held');
    await expectLedgerBalanced(t);
  });

  it('a lost transaction is resubmitted and the order settles once', async () => {
    const { goodsId, tokenId } = await listed(10_000);
    const buyer = await makeTrader(t);
    await topup(t, buyer, 10_000);
    const o = await createOrderFor(t, buyer, goodsId);
    t.chain.nextOutcome = 'lost';
    await call(t, '/payment/nftOrder/V1/pay', { orderNo: o.data.orderNo, method: 'balance' }, buyer.h);
    await runJobs(t);
    expect(await orderStatus(t, o.data.orderNo)).toBe('completed');
    const keys = t.chain.submitted.filter((s) => s.buyerOrderId === o.data.orderNo).map((s) => s.key);
    expect(keys).toEqual([`settle:${o.data.orderNo}`, `settle:${o.data.orderNo}:1`]);
    expect(t.chain.owners.get(tokenId)).toBe(buyer.address);
    await expectLedgerBalanced(t);
  });

  it('a transaction reported lost that did execute completes the order without a second transaction', async () => {
    const { goodsId } = await listed(10_000);
    const buyer = await makeTrader(t);
    await topup(t, buyer, 10_000);
    const o = await createOrderFor(t, buyer, goodsId);
    t.chain.autoMine = false;
    await call(t, '/payment/nftOrder/V1/pay', { orderNo: o.data.orderNo, method: 'balance' }, buyer.h);
    const job = runJobs(t);
    await new Promise((r) => setTimeout(r, 50));
    // executed on chain, but the queue reports the row failed (e.g. no receipt within the retry limit)
    t.chain.autoMine = true;
    t.chain.mine();
    const [tx] = [...t.chain.txs.entries()].filter(([, v]) => v.key === `settle:${o.data.orderNo}`);
    t.chain.txs.set(tx![0], { ...tx![1], state: 'failed', error: 'no receipt after the retry limit' });
    await job;
    await runJobs(t);
    expect(await orderStatus(t, o.data.orderNo)).toBe('completed');
    expect(t.chain.submitted.filter((s) => s.buyerOrderId === o.data.orderNo)).toHaveLength(1);
    await expectLedgerBalanced(t);
  });

  it('while the chain is unreachable the paid order waits in escrow, then settles', async () => {
    const { goodsId } = await listed(10_000);
    const buyer = await makeTrader(t);
    await topup(t, buyer, 10_000);
    const o = await createOrderFor(t, buyer, goodsId);
    await call(t, '/payment/nftOrder/V1/pay', { orderNo: o.data.orderNo, method: 'balance' }, buyer.h);
    t.ctx.market!.attachSettlement(undefined);
    await runJobs(t);
    expect(await orderStatus(t, o.data.orderNo)).toBe('paid');
    await expectLedgerBalanced(t);
    t.ctx.market!.attachSettlement(t.chain);
    await t.ctx.db.kysely.updateTable('jobs').set({ run_at: 0 }).where('job_key', '=', `settle:${o.data.orderNo}`).execute();
    await runJobs(t);
    expect(await orderStatus(t, o.data.orderNo)).toBe('completed');
    await expectLedgerBalanced(t);
  });
});
