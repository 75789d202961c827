import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chinaDayStart } from '../src/modules/orders/create-order.ts';
import { call, type TestApp } from './helpers.ts';
import {
  cancelOnChain, createOrderFor, expectLedgerBalanced, listForSale, makeGoods, makeMarketApp, makeRelease, makeTrader, orderStatus, runJobs, signTyped, topup,
  type FakeChain, type Release, type Trader,
} from './market-helpers.ts';

/**
 * Issue #9 on the consignment market, with the chain double:
 * - an old signed order can never fill: off shelf answers what to cancel on chain, and every
 *   earlier signed order of a collectible still open on chain must be cancelled before the
 *   seller's next signature is accepted (preOpenSale pendingCancels, openSale / agreeBargin 1019);
 * - a buyer cannot hold a listing by create / cancel loops: a cooldown per buyer and listing after
 *   a cancelled or expired unpaid order, and a daily cap of those per buyer (1020).
 */
let t: TestApp & { chain: FakeChain };
let release: Release;
beforeAll(async () => {
  t = await makeMarketApp();
  release = await makeRelease(t);
});
afterAll(async () => { await t?.close(); });

const pre = (u: Trader, goodsId: number, price: number, extra: Record<string, unknown> = {}) => call(t, '/goods/v1/preOpenSale', { goodsId, price, ...extra }, u.h);
const open = (u: Trader, goodsId: number, price: number, p: { data: any }, h = u.h) =>
  call(t, '/goods/v1/openSale', { goodsId, price, sellerOrderId: p.data.sellerOrderId, signature: signTyped(u, p.data) }, h);
const listingOf = (sellerOrderId: string) => t.ctx.db.kysely.selectFrom('listings').selectAll().where('seller_order_id', '=', sellerOrderId).executeTakeFirstOrThrow();

describe('an old listing signature can never fill', () => {
  it('closeSale answers the order to cancel on chain; left uncancelled, the next listing waits for it (1019), then goes live', async () => {
    const seller = await makeTrader(t);
    const { goodsId, tokenId } = await makeGoods(t, release, seller);
    const first = await listForSale(t, seller, goodsId, 5000);
    expect(first.cancelled).toEqual([]);
    const closed = await call(t, '/goods/v1/closeSale', { goodsId }, seller.h);
    expect(closed).toMatchObject({ status: '000000', data: { cancel: { exchange: t.chain.exchange, exchangeHex: t.chain.exchangeHex, sellerOrderId: first.sellerOrderId } } });

    // The seller refused the cancel step in the wallet (and did not even revoke): the old order is
    // still open on chain, so it comes back before the next listing.
    const p = await pre(seller, goodsId, 9000);
    expect(p.data.pendingCancels).toEqual([first.sellerOrderId]);
    expect(await open(seller, goodsId, 9000, p)).toMatchObject({
      status: '1019',
      message: '1 earlier listing order(s) of this collectible are not cancelled on chain yet; cancel them in your wallet first',
    });
    const p2 = await pre(seller, goodsId, 9000);
    // (the draft refused just above was signed: it counts too)
    expect(await open(seller, goodsId, 9000, p2, { ...seller.h, lang: 'zh' })).toMatchObject({ status: '1019', message: '该藏品还有2笔旧挂单未在链上撤销，请先在钱包中撤销后再挂单' });
    expect((await t.ctx.db.kysely.selectFrom('goods').select('status').where('id', '=', goodsId).executeTakeFirstOrThrow()).status).toBe('held');

    // The wallet cancels it: the event marks the listing, the next signature is accepted.
    cancelOnChain(t, seller, [first.sellerOrderId]);
    await expect.poll(async () => (await listingOf(first.sellerOrderId)).chain_cancelled_at, { timeout: 15_000 }).not.toBeNull();
    // The two signed-but-refused drafts above are signed orders too: both must be cancelled.
    const p3 = await pre(seller, goodsId, 9000);
    expect(p3.data.pendingCancels).toEqual([p.data.sellerOrderId, p2.data.sellerOrderId]);
    cancelOnChain(t, seller, p3.data.pendingCancels);
    expect(await open(seller, goodsId, 9000, p3)).toMatchObject({ status: '000000', data: { status: 'on_sale', priceFen: 9000 } });

    // On chain the old order is dead: even with the exchange approved, executing it fails for good.
    const old = await listingOf(first.sellerOrderId);
    const verdict = await t.chain.check({
      key: 'x', order: { seller: seller.address, nftToken: t.chain.collectibleHex, tokenId, amount: 5000, sellerOrderId: first.sellerOrderId },
      signature: old.signature!, buyer: seller.address, buyerOrderId: 'MOx',
    });
    expect(verdict).toEqual({ ok: false, permanent: true, reason: 'SellerOrderIdUsed' });
  });

  it('a draft the seller never signed needs no cancel; one whose openSale was refused after signing does', async () => {
    const seller = await makeTrader(t);
    const { goodsId, tokenId } = await makeGoods(t, release, seller);
    const unsigned = await pre(seller, goodsId, 5000);
    expect(unsigned.data.pendingCancels).toEqual([]);
    // signed, but the exchange is not approved yet: refused (1014) — the signature exists now
    const signed = await pre(seller, goodsId, 5000);
    expect(await open(seller, goodsId, 5000, signed)).toMatchObject({ status: '1014' });
    const next = await pre(seller, goodsId, 5000);
    expect(next.data.pendingCancels).toEqual([signed.data.sellerOrderId]);
    // the refused draft itself can still be opened (it is the order being listed, not an earlier one)
    t.chain.approve(tokenId, seller.address);
    expect(await open(seller, goodsId, 5000, signed)).toMatchObject({ status: '000000' });
  });

  it('a listing invalidated by a transfer comes back to cancel when the token returns', async () => {
    const seller = await makeTrader(t);
    const { goodsId, tokenId } = await makeGoods(t, release, seller);
    const first = await listForSale(t, seller, goodsId, 5000);
    t.chain.transfer(tokenId, '0x1aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa');
    t.chain.emit([{ event: 'Transfer', tokenId, from: seller.address, to: '0x1aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' }]);
    await expect.poll(async () => (await listingOf(first.sellerOrderId)).status, { timeout: 15_000 }).toBe('invalid');
    t.chain.transfer(tokenId, seller.address); // back in the seller's wallet: the old signature would be valid again once approved
    const again = await listForSale(t, seller, goodsId, 6000);
    expect(again.cancelled).toEqual([first.sellerOrderId]);
  });

  it('a cancel seen only by reading the chain (no event yet) is recorded and not asked for again', async () => {
    const seller = await makeTrader(t);
    const { goodsId } = await makeGoods(t, release, seller);
    const first = await listForSale(t, seller, goodsId, 5000);
    await call(t, '/goods/v1/closeSale', { goodsId }, seller.h);
    t.chain.quietCancels = true;
    try {
      cancelOnChain(t, seller, [first.sellerOrderId]);
      expect((await listingOf(first.sellerOrderId)).chain_cancelled_at).toBeNull();
      const p = await pre(seller, goodsId, 5000);
      expect(p.data.pendingCancels).toEqual([]);
      expect((await listingOf(first.sellerOrderId)).chain_cancelled_at).not.toBeNull();
      expect(await open(seller, goodsId, 5000, p)).toMatchObject({ status: '000000' });
    } finally {
      t.chain.quietCancels = false;
    }
  });

  it('the chain unreachable: preOpenSale still lists the unknown order to cancel, openSale answers 1018', async () => {
    const seller = await makeTrader(t);
    const { goodsId } = await makeGoods(t, release, seller);
    const first = await listForSale(t, seller, goodsId, 5000);
    await call(t, '/goods/v1/closeSale', { goodsId }, seller.h);
    const p = await pre(seller, goodsId, 5000);
    t.chain.down = true;
    try {
      expect((await pre(seller, goodsId, 5000)).data.pendingCancels).toEqual([first.sellerOrderId]);
      expect(await open(seller, goodsId, 5000, p)).toMatchObject({ status: '1018' });
    } finally {
      t.chain.down = false;
    }
  });

  it('a live listing whose order the seller cancels from the wallet is no longer buyable', async () => {
    const seller = await makeTrader(t);
    const buyer = await makeTrader(t);
    const { goodsId } = await makeGoods(t, release, seller);
    const l = await listForSale(t, seller, goodsId, 5000);
    cancelOnChain(t, seller, [l.sellerOrderId]);
    await expect.poll(async () => (await listingOf(l.sellerOrderId)).status, { timeout: 15_000 }).toBe('invalid');
    expect((await listingOf(l.sellerOrderId)).close_reason).toBe('order_cancelled');
    expect(await createOrderFor(t, buyer, goodsId)).toMatchObject({ status: '1013', message: 'this collectible is no longer on sale' });
    // nothing left to cancel before listing again
    expect((await listForSale(t, seller, goodsId, 5000)).cancelled).toEqual([]);
  });

  it('agreeBargin refuses (1019) while an earlier order is open; a sold listing is filled, never asked for', async () => {
    const owner = await makeTrader(t);
    const bidder = await makeTrader(t);
    const { goodsId, tokenId } = await makeGoods(t, release, owner);
    const first = await listForSale(t, owner, goodsId, 5000);
    await call(t, '/goods/v1/closeSale', { goodsId }, owner.h);
    const b = await call(t, '/goods/v1/bargin', { goodsId, amount: 4000, expiresAt: t.clock.t + 86_400_000 }, bidder.h);
    const p = await pre(owner, goodsId, 4000, { bidId: b.data.id });
    expect(p.data.pendingCancels).toEqual([first.sellerOrderId]);
    t.chain.approve(tokenId, owner.address);
    const agree = (q: { data: any }) => call(t, '/goods/v1/agreeBargin/', { bidId: b.data.id, sellerOrderId: q.data.sellerOrderId, signature: signTyped(owner, q.data) }, owner.h);
    expect(await agree(p)).toMatchObject({ status: '1019' });
    cancelOnChain(t, owner, [first.sellerOrderId]);
    const p2 = await pre(owner, goodsId, 4000, { bidId: b.data.id });
    expect(p2.data.pendingCancels).toEqual([p.data.sellerOrderId]);
    cancelOnChain(t, owner, p2.data.pendingCancels);
    const accepted = await agree(p2);
    expect(accepted).toMatchObject({ status: '000000' });
    // the bidder pays; the sale settles on chain
    await topup(t, bidder, 4000);
    expect((await call(t, '/payment/nftOrder/V1/pay', { orderNo: accepted.data.orderNo, method: 'balance' }, bidder.h)).status).toBe('000000');
    await runJobs(t);
    await expect.poll(() => orderStatus(t, accepted.data.orderNo), { timeout: 15_000 }).toBe('completed');
    // the new owner resells to the old one, who lists again: the sold (filled) order is not asked for
    const resale = await listForSale(t, bidder, goodsId, 4500);
    await topup(t, owner, 4500);
    const o = await createOrderFor(t, owner, goodsId);
    await call(t, '/payment/nftOrder/V1/pay', { orderNo: o.data.orderNo, method: 'balance' }, owner.h);
    await runJobs(t);
    await expect.poll(() => orderStatus(t, o.data.orderNo), { timeout: 15_000 }).toBe('completed');
    expect(resale.cancelled).toEqual([]);
    expect((await pre(owner, goodsId, 5000)).data.pendingCancels).toEqual([]);
    await expectLedgerBalanced(t);
  });
});

describe('re-ordering after a cancel: cooldown and daily cap', () => {
  async function listed(price = 5000) {
    const seller = await makeTrader(t);
    const g = await makeGoods(t, release, seller);
    const l = await listForSale(t, seller, g.goodsId, price);
    return { seller, ...g, listingId: l.listingId as number };
  }
  const cancel = (u: Trader, orderNo: string) => call(t, '/payment/nftOrder/V1/cannelOrder', { orderNo }, u.h);

  it('after cancelling, the same buyer waits ORDER_RETRY_COOLDOWN_SECONDS for that listing; another buyer orders at once', async () => {
    const { goodsId } = await listed();
    const a = await makeTrader(t);
    const b = await makeTrader(t);
    const o = await createOrderFor(t, a, goodsId);
    expect((await cancel(a, o.data.orderNo)).status).toBe('000000');
    expect(await createOrderFor(t, a, goodsId)).toMatchObject({ status: '1020', message: 'you recently cancelled or did not pay an order for this listing; please try again in 10 minute(s)' });
    t.clock.t += 4 * 60_000 + 1;
    expect(await call(t, '/payment/nftOrder/V1/createOrder', { goodsId }, { ...a.h, lang: 'zh' })).toMatchObject({ status: '1020', message: '您刚取消或超时未支付该挂单的订单，请6分钟后再下单' });
    // the listing is free for everyone else at once
    const other = await createOrderFor(t, b, goodsId);
    expect(other.status).toBe('000000');
    expect((await cancel(b, other.data.orderNo)).status).toBe('000000');
    // and for the first buyer once the cooldown has passed
    t.clock.t += 6 * 60_000;
    expect((await createOrderFor(t, a, goodsId)).status).toBe('000000');
  });

  it('an order that expired unpaid counts like a cancel; the cooldown is per listing', async () => {
    const first = await listed();
    const second = await listed();
    const a = await makeTrader(t);
    const o = await createOrderFor(t, a, first.goodsId);
    t.clock.t += 300_001;
    await runJobs(t);
    expect(await orderStatus(t, o.data.orderNo)).toBe('expired');
    expect(await createOrderFor(t, a, first.goodsId)).toMatchObject({ status: '1020', message: 'you recently cancelled or did not pay an order for this listing; please try again in 10 minute(s)' });
    expect((await createOrderFor(t, a, second.goodsId)).status).toBe('000000');
  });

  it('an expired order released by the next createOrder of the same buyer also holds that buyer back', async () => {
    const { goodsId } = await listed();
    const a = await makeTrader(t);
    const o = await createOrderFor(t, a, goodsId);
    t.clock.t += 300_001; // no sweep ran: createOrder itself releases the expired reservation
    expect(await createOrderFor(t, a, goodsId)).toMatchObject({ status: '1020' });
    expect(await orderStatus(t, o.data.orderNo)).toBe('expired');
  });

  it('an order cancelled because the listing became invalid does not count against the buyer', async () => {
    const { goodsId, tokenId, seller } = await listed();
    const a = await makeTrader(t);
    const o = await createOrderFor(t, a, goodsId);
    t.chain.revoke(tokenId);
    t.chain.emit([{ event: 'Approval', tokenId, from: seller.address, to: null }]);
    await expect.poll(() => orderStatus(t, o.data.orderNo), { timeout: 15_000 }).toBe('cancelled');
    const row = await t.ctx.db.kysely.selectFrom('orders').select('closed_by').where('order_no', '=', o.data.orderNo).executeTakeFirstOrThrow();
    expect(row.closed_by).toBeNull();
    // relisted (after cancelling the invalidated order on chain): the buyer may order it at once
    await listForSale(t, seller, goodsId, 5000);
    expect((await createOrderFor(t, a, goodsId)).status).toBe('000000');
  });

  it('MAX_CANCELLED_ORDERS_PER_DAY cancelled or expired orders: no new order until the next day (China time); others unaffected', async () => {
    // start just after midnight in China so the whole test stays within one day
    t.clock.t = chinaDayStart(t.clock.t) + 86_400_000 + 60_000;
    const a = await makeTrader(t);
    const b = await makeTrader(t);
    const goods: number[] = [];
    for (let i = 0; i < 7; i++) goods.push((await listed()).goodsId);
    for (let i = 0; i < 4; i++) {
      const o = await createOrderFor(t, a, goods[i]!);
      expect((await cancel(a, o.data.orderNo)).status).toBe('000000');
    }
    const expiring = await createOrderFor(t, a, goods[4]!);
    t.clock.t += 300_001;
    await runJobs(t);
    expect(await orderStatus(t, expiring.data.orderNo)).toBe('expired');
    expect(await createOrderFor(t, a, goods[5]!)).toMatchObject({ status: '1020', message: 'you have cancelled or not paid 5 orders today; please order again tomorrow' });
    expect(await call(t, '/payment/nftOrder/V1/createOrder', { goodsId: goods[5] }, { ...a.h, lang: 'zh' })).toMatchObject({ message: '您今日已有5笔订单取消或超时未支付，请明天再下单' });
    expect((await createOrderFor(t, b, goods[5]!)).status).toBe('000000');
    // the next China-time day
    t.clock.t = chinaDayStart(t.clock.t) + 86_400_000;
    expect((await createOrderFor(t, a, goods[6]!)).status).toBe('000000');
  });

  it('a cancel racing a new order of the same buyer on the same listing, 20 times: the new order never gets through', async () => {
    for (let i = 0; i < 20; i++) {
      const a = await makeTrader(t); // a fresh buyer each time: the daily cap stays out of it
      const { goodsId } = await listed();
      const o = await createOrderFor(t, a, goodsId);
      expect(o.status, o.message).toBe('000000');
      const [c, again] = await Promise.all([cancel(a, o.data.orderNo), createOrderFor(t, a, goodsId)]);
      expect(c.status).toBe('000000');
      // before the cancel committed the listing is held (1013); after it, the cooldown (1020)
      expect(['1013', '1020']).toContain(again.status);
      expect(await t.ctx.db.kysely.selectFrom('orders').select('order_no').where('buyer_user_id', '=', a.userId).where('status', '=', 'created').execute()).toEqual([]);
    }
  });
});

describe('limits are configurable', () => {
  it('ORDER_RETRY_COOLDOWN_SECONDS=0 and MAX_CANCELLED_ORDERS_PER_DAY=0 turn them off', async () => {
    const u = await makeMarketApp({ ORDER_RETRY_COOLDOWN_SECONDS: '0', MAX_CANCELLED_ORDERS_PER_DAY: '0' });
    try {
      expect(u.ctx.config.market).toMatchObject({ orderRetryCooldownMs: 0, maxCancelledOrdersPerDay: 0 });
      const rel = await makeRelease(u);
      const seller = await makeTrader(u);
      const a = await makeTrader(u);
      const { goodsId } = await makeGoods(u, rel, seller);
      await listForSale(u, seller, goodsId, 5000);
      for (let i = 0; i < 7; i++) {
        const o = await createOrderFor(u, a, goodsId);
        expect(o.status).toBe('000000');
        expect((await call(u, '/payment/nftOrder/V1/cannelOrder', { orderNo: o.data.orderNo }, a.h)).status).toBe('000000');
      }
    } finally {
      await u.close();
    }
    const d = await makeMarketApp();
    try {
      expect(d.ctx.config.market).toMatchObject({ orderRetryCooldownMs: 600_000, maxCancelledOrdersPerDay: 5 });
    } finally {
      await d.close();
    }
  });
});
