import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestApp } from './helpers.ts';
import {
  balance, expectLedgerBalanced, get, listForSale, makeGoods, makeMarketApp, makeRelease, makeTrader, orderStatus, runJobs, signTyped, topup,
  type FakeChain, type Release, type Trader,
} from './market-helpers.ts';

/** Bids ("bargin"): placing, replacing, listing, cancelling, expiry, and the owner accepting one (signed at the bid price). */
let t: TestApp & { chain: FakeChain };
let release: Release;
beforeAll(async () => {
  t = await makeMarketApp();
  release = await makeRelease(t);
});
afterAll(async () => { await t?.close(); });

const day = 86_400_000;
const bid = (u: Trader, goodsId: number, amount: number, expiresAt = t.clock.t + day) => call(t, '/goods/v1/bargin', { goodsId, amount, expiresAt }, u.h);

/** The owner accepts: preOpenSale at the bid price with bidId, sign, agreeBargin. */
async function accept(owner: Trader, goodsId: number, bidId: number, amount: number) {
  const pre = await call(t, '/goods/v1/preOpenSale', { goodsId, price: amount, bidId }, owner.h);
  if (pre.status !== '000000') return pre;
  t.chain.approve(pre.data.tokenId, owner.address);
  return call(t, '/goods/v1/agreeBargin/', { bidId, sellerOrderId: pre.data.sellerOrderId, signature: signTyped(owner, pre.data) }, owner.h);
}

describe('placing bids', () => {
  it('validates and keeps one active bid per bidder per collectible', async () => {
    const owner = await makeTrader(t);
    const bidder = await makeTrader(t);
    const { goodsId } = await makeGoods(t, release, owner);
    const first = await bid(bidder, goodsId, 5000);
    expect(first).toMatchObject({ status: '000000', message: 'bid placed', data: { goodsId, amountFen: 5000, status: 'active', mine: true } });
    const second = await bid(bidder, goodsId, 6000);
    expect(second.data.amountFen).toBe(6000);
    const rows = await t.ctx.db.kysely.selectFrom('bids').select(['id', 'status']).where('goods_id', '=', goodsId).orderBy('id').execute();
    expect(rows.map((r) => r.status)).toEqual(['replaced', 'active']);

    expect(await bid(owner, goodsId, 5000)).toMatchObject({ status: '1017', message: 'you cannot bid on your own collectible' });
    expect(await bid(bidder, goodsId, 50)).toMatchObject({ status: '1001', message: 'the price must be between ￥1.00 and ￥1,000,000.00' });
    expect(await bid(bidder, goodsId, 5000, t.clock.t + 1000)).toMatchObject({ status: '1001', message: 'a bid must be valid for 1 minute to 30 days' });
    expect(await bid(bidder, goodsId, 5000, t.clock.t + 31 * day)).toMatchObject({ status: '1001' });
    expect(await bid(bidder, 99_999_999, 5000)).toMatchObject({ http: 404, status: '1404' });
    expect(await bid(await makeTrader(t, 'no-realname'), goodsId, 5000)).toMatchObject({ status: '1011' });
    expect(await call(t, '/goods/v1/bargin', { goodsId, amount: 5000, expiresAt: 'soon' }, bidder.h)).toMatchObject({ http: 400, status: '1001' });
    const pending = await makeGoods(t, release, owner, { minted: false });
    expect(await bid(bidder, pending.goodsId, 5000)).toMatchObject({ status: '1013' });
  });

  it('barginList shows active bids, highest first, other bidders masked; expired bids stop counting', async () => {
    const owner = await makeTrader(t);
    const [a, b, c] = [await makeTrader(t), await makeTrader(t), await makeTrader(t)];
    const { goodsId } = await makeGoods(t, release, owner);
    await bid(a, goodsId, 5000);
    await bid(b, goodsId, 7000);
    await bid(c, goodsId, 6000, t.clock.t + 120_000);
    const list = await call(t, '/goods/v1/barginList', { goodsId }, a.h);
    expect(list.data.total).toBe(3);
    expect(list.data.list.map((x: any) => x.amountFen)).toEqual([7000, 6000, 5000]);
    expect(list.data.list[2]).toMatchObject({ mine: true, bidder: { nickname: expect.not.stringContaining('***') } });
    expect(list.data.list[0].bidder.nickname).toMatch(/\*\*\*$/);
    expect(list.data.list[0].bidder.accountId).toBe('');
    const anon = await call(t, '/goods/v1/barginList', { goodsId });
    expect(anon.data.list.every((x: any) => !x.mine)).toBe(true);
    t.clock.t += 121_000;
    const later = await call(t, '/goods/v1/barginList', { goodsId });
    expect(later.data.list.map((x: any) => x.amountFen)).toEqual([7000, 5000]);
    const mine = await call(t, '/goods/v1/myBarginList', { type: 'sent' }, c.h);
    expect(mine.data.list[0]).toMatchObject({ status: 'expired', goods: { id: goodsId } });
    const stats = await call(t, '/goods/v1/barginListStatistics', {}, owner.h);
    expect(stats.data).toEqual({ sentActive: 0, sentAccepted: 0, receivedActive: 2, receivedGoods: 1, highestReceivedFen: 7000 });
    const received = await call(t, '/goods/v1/myBarginList', { type: 'received', status: 'active' }, owner.h);
    expect(received.data.total).toBe(2);
    expect(await call(t, '/goods/v1/barginList', { goodsId: 99_999_999 })).toMatchObject({ status: '1404' });
  });

  it('cancelBargin: only the bidder, only an active bid', async () => {
    const owner = await makeTrader(t);
    const bidder = await makeTrader(t);
    const { goodsId } = await makeGoods(t, release, owner);
    const b = await bid(bidder, goodsId, 5000);
    expect(await get(t, `/goods/v1/cancelBargin/?id=${b.data.id}`, owner.h)).toMatchObject({ status: '1012', message: 'this bid is not yours' });
    expect(await get(t, `/goods/v1/cancelBargin/?id=${b.data.id}`, bidder.h)).toMatchObject({ status: '000000', message: 'bid cancelled', data: { status: 'cancelled' } });
    expect(await get(t, `/goods/v1/cancelBargin/?id=${b.data.id}`, bidder.h)).toMatchObject({ status: '1017', message: 'the bid is no longer active' });
    expect(await get(t, '/goods/v1/cancelBargin/?id=99999999', bidder.h)).toMatchObject({ status: '1404', message: 'bid not found' });
    expect(await get(t, '/goods/v1/cancelBargin/?id=abc', bidder.h)).toMatchObject({ http: 400, status: '1001' });
    expect(await get(t, `/goods/v1/cancelBargin/?id=${b.data.id}`)).toMatchObject({ status: '1100' });
  });
});

describe('accepting a bid', () => {
  it('the owner signs at the bid price; the listing price is not used; the bidder pays and the sale settles at the bid', async () => {
    const owner = await makeTrader(t);
    const bidder = await makeTrader(t);
    const { goodsId, tokenId } = await makeGoods(t, release, owner);
    await listForSale(t, owner, goodsId, 9000);
    const b = await bid(bidder, goodsId, 8000);
    // the signed price must be the bid's
    expect(await call(t, '/goods/v1/preOpenSale', { goodsId, price: 8500, bidId: b.data.id }, owner.h)).toMatchObject({ status: '1017', message: 'the signed price does not match the bid' });
    // a stranger cannot accept
    const stranger = await makeTrader(t);
    expect(await call(t, '/goods/v1/preOpenSale', { goodsId, price: 8000, bidId: b.data.id }, stranger.h)).toMatchObject({ status: '1012' });
    // a signature for the public listing cannot accept the bid
    const pre = await call(t, '/goods/v1/preOpenSale', { goodsId, price: 8000, bidId: b.data.id }, owner.h);
    expect(await call(t, '/goods/v1/agreeBargin/', { bidId: b.data.id, sellerOrderId: pre.data.sellerOrderId, signature: signTyped(stranger, pre.data) }, owner.h)).toMatchObject({ status: '1008' });
    const r = await call(t, '/goods/v1/agreeBargin/', { bidId: b.data.id, sellerOrderId: pre.data.sellerOrderId, signature: signTyped(owner, pre.data) }, owner.h);
    expect(r).toMatchObject({ status: '000000', message: 'bid accepted, waiting for the buyer to pay', data: { kind: 'bid', status: 'created', role: 'seller', priceFen: 8000, sellerIncomeFen: 7600 } });
    const orderNo = r.data.orderNo;
    expect(orderNo).toMatch(/^BO/);
    // the public listing is closed and nobody else can buy it
    expect(await call(t, '/payment/nftOrder/V1/createOrder', { goodsId }, stranger.h)).toMatchObject({ status: '1013', message: 'this collectible is no longer on sale' });
    expect((await call(t, '/goods/v1/barginList', { goodsId })).data.total).toBe(0);
    expect((await call(t, '/goods/v1/myBarginList', {}, bidder.h)).data.list[0]).toMatchObject({ status: 'accepted', orderNo });
    // accepting twice does not work
    expect((await accept(owner, goodsId, b.data.id, 8000)).status).toBe('1017');
    // the bidder pays within the window
    await topup(t, bidder, 8000);
    expect((await call(t, '/payment/nftOrder/V1/pay', { orderNo, method: 'balance' }, bidder.h)).status).toBe('000000');
    await runJobs(t);
    expect(await orderStatus(t, orderNo)).toBe('completed');
    expect(t.chain.owners.get(tokenId)).toBe(bidder.address);
    expect(await balance(t, owner)).toBe(7600);
    const deals = await call(t, '/payment/nftDealRecord/V1/pageListNftDealRecordByParams', { goodsId });
    expect(deals.data.list[0]).toMatchObject({ orderNo, priceFen: 8000 });
    expect((await call(t, '/goods/v1/barginListStatistics', {}, bidder.h)).data.sentAccepted).toBe(1);
    await expectLedgerBalanced(t);
  });

  it('an expired bid cannot be accepted; an unpaid bid order expires and its private listing closes', async () => {
    const owner = await makeTrader(t);
    const bidder = await makeTrader(t);
    const g = await makeGoods(t, release, owner);
    const b = await bid(bidder, g.goodsId, 5000, t.clock.t + 120_000);
    t.clock.t += 121_000;
    expect(await accept(owner, g.goodsId, b.data.id, 5000)).toMatchObject({ status: '1017', message: 'the bid is no longer active' });

    const b2 = await bid(bidder, g.goodsId, 5000);
    const r = await accept(owner, g.goodsId, b2.data.id, 5000);
    expect(r.status).toBe('000000');
    t.clock.t += 300_001;
    await runJobs(t);
    expect(await orderStatus(t, r.data.orderNo)).toBe('expired');
    const l = await t.ctx.db.kysely.selectFrom('listings').select(['status', 'close_reason']).where('goods_id', '=', g.goodsId).where('kind', '=', 'bid').where('status', '!=', 'draft').execute();
    expect(l).toEqual([{ status: 'closed', close_reason: 'bid_order_closed' }]);
    // the owner may list again, once the bid listing's signed order is cancelled on chain
    const bidOrder = await t.ctx.db.kysely.selectFrom('listings').select('seller_order_id').where('goods_id', '=', g.goodsId).where('kind', '=', 'bid').where('status', '=', 'closed').executeTakeFirstOrThrow();
    expect((await listForSale(t, owner, g.goodsId, 6000)).cancelled).toEqual([bidOrder.seller_order_id]);
    await expectLedgerBalanced(t);
  });

  it('a bid cannot be accepted while a buyer holds the public listing', async () => {
    const owner = await makeTrader(t);
    const bidder = await makeTrader(t);
    const buyer = await makeTrader(t);
    const g = await makeGoods(t, release, owner);
    await listForSale(t, owner, g.goodsId, 9000);
    const b = await bid(bidder, g.goodsId, 8000);
    expect((await call(t, '/payment/nftOrder/V1/createOrder', { goodsId: g.goodsId }, buyer.h)).status).toBe('000000');
    expect(await accept(owner, g.goodsId, b.data.id, 8000)).toMatchObject({ status: '1013', message: 'someone else is buying this collectible, please try again later' });
  });
});
