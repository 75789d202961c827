import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBase32Address } from '@cfx/protocol/address.ts';
import { signListOrder } from '@cfx/contracts/src/order-signature.ts';
import { feeOf } from '../src/modules/market/fees.ts';
import { call, type TestApp } from './helpers.ts';
import { waitFor } from './process-helpers.ts';
import { createOrderFor, get, listForSale, makeGoods, makeMarketApp, makeRelease, makeTrader, signTyped, type FakeChain, type Release } from './market-helpers.ts';

/** Selling on the consignment market: cost preview, preOpenSale / openSale checks, closeSale, chain re-checks, personal lists. */
let t: TestApp & { chain: FakeChain };
let release: Release;
beforeAll(async () => {
  t = await makeMarketApp();
  release = await makeRelease(t);
});
afterAll(async () => { await t?.close(); });

describe('cost preview', () => {
  it('commission is the configured per mille, rounded half up to whole fen', async () => {
    expect(feeOf(10, 50)).toBe(1); // 0.5 fen → 1
    expect(feeOf(9, 50)).toBe(0); // 0.45 fen → 0
    expect(feeOf(12345, 50)).toBe(617); // 617.25 → 617
    expect(feeOf(12350, 50)).toBe(618); // 617.5 → 618
    const r = await get(t, '/goods/v1/cost?price=12350', { lang: 'en' });
    expect(r.status).toBe('000000');
    expect(r.data).toEqual({ priceFen: 12350, total: 618, costs: [{ type: 'commission', name: 'platform commission', permille: 50, amountFen: 618 }], incomeFen: 11732, royaltyPermille: 0, royaltyFen: 0 });
    const zh = await get(t, '/goods/v1/cost?price=100');
    expect(zh.data.costs[0].name).toBe('平台服务费');
  });

  it('adds a royalty line when configured', async () => {
    const t2 = await makeMarketApp({ ROYALTY_PERMILLE: '25', COMMISSION_PERMILLE: '30' });
    try {
      const r = await get(t2, '/goods/v1/cost?price=10000', { lang: 'en' });
      expect(r.data).toMatchObject({ total: 550, incomeFen: 9450, costs: [{ type: 'commission', permille: 30, amountFen: 300 }, { type: 'royalty', permille: 25, amountFen: 250 }] });
    } finally {
      await t2.close();
    }
  });

  it('refuses prices out of bounds and unknown goods', async () => {
    expect(await get(t, '/goods/v1/cost?price=99', { lang: 'en' })).toMatchObject({ status: '1001', message: 'the price must be between ￥1.00 and ￥1,000,000.00' });
    expect(await get(t, '/goods/v1/cost?price=100000001', { lang: 'en' })).toMatchObject({ status: '1001' });
    expect(await get(t, '/goods/v1/cost?price=abc')).toMatchObject({ http: 400, status: '1001' });
    expect(await get(t, '/goods/v1/cost?price=100&goodsId=999999', { lang: 'en' })).toMatchObject({ http: 404, status: '1404', message: 'collectible not found' });
  });
});

describe('listing: preOpenSale and openSale', () => {
  it('preOpenSale returns the typed data to sign, a fresh sellerOrderId and the exchange to approve', async () => {
    const seller = await makeTrader(t);
    const { goodsId, tokenId } = await makeGoods(t, release, seller);
    const a = await call(t, '/goods/v1/preOpenSale', { goodsId, price: 12345 }, seller.h);
    const b = await call(t, '/goods/v1/preOpenSale', { goodsId, price: 12345 }, seller.h);
    expect(a.status).toBe('000000');
    expect(a.data.sellerOrderId).not.toBe(b.data.sellerOrderId);
    expect(a.data).toMatchObject({ goodsId, priceFen: 12345, tokenId, exchange: t.chain.exchange, exchangeHex: t.chain.exchangeHex, collectibleHex: t.chain.collectibleHex, approved: false, seller: seller.address });
    expect(a.data.typedData).toMatchObject({
      primaryType: 'listOrder',
      domain: { name: '1', version: '1', chainId: 1029, verifyingContract: t.chain.exchangeHex },
      message: { seller: seller.hex, nftToken: t.chain.collectibleHex, tokenId, amount: '12345', sellerOrderId: a.data.sellerOrderId },
    });
    expect(a.data.typedData.types.CIP23Domain).toHaveLength(4);
    expect(a.data.cost.total).toBe(617);
  });

  it('openSale verifies everything, then the goods is on sale', async () => {
    const seller = await makeTrader(t);
    const { goodsId } = await makeGoods(t, release, seller);
    const l = await listForSale(t, seller, goodsId, 5000);
    expect(l).toMatchObject({ goodsId, priceFen: 5000, status: 'on_sale' });
    const g = await t.ctx.db.kysely.selectFrom('goods').selectAll().where('id', '=', goodsId).executeTakeFirstOrThrow();
    expect(g).toMatchObject({ status: 'on_sale' });
    expect(Number(g.sale_price_fen)).toBe(5000);
    const again = await call(t, '/goods/v1/preOpenSale', { goodsId, price: 6000 }, seller.h);
    expect(again).toMatchObject({ status: '1013', message: 'the collectible is already on sale' });
    const actions = await t.ctx.db.kysely.selectFrom('goods_history_actions').select('action').where('goods_id', '=', goodsId).execute();
    expect(actions.map((a) => a.action)).toEqual(['list']);
  });

  it('refuses each invalid input with its code and message', async () => {
    const seller = await makeTrader(t);
    const other = await makeTrader(t);
    const { goodsId, tokenId } = await makeGoods(t, release, seller);
    const pre = await call(t, '/goods/v1/preOpenSale', { goodsId, price: 5000 }, seller.h);
    const sig = signTyped(seller, pre.data);
    const open = (body: Record<string, unknown>, h = seller.h) => call(t, '/goods/v1/openSale', { goodsId, price: 5000, sellerOrderId: pre.data.sellerOrderId, signature: sig, ...body }, h);

    // not approved on chain yet
    expect(await open({})).toMatchObject({ status: '1014', message: 'please approve the exchange contract in your wallet first' });
    t.chain.approve(tokenId, seller.address);
    // signature by another key / tampered / garbage
    expect(await open({ signature: signTyped(other, pre.data) })).toMatchObject({ status: '1008', message: 'listing signature verification failed' });
    expect(await open({ signature: '0x1234' })).toMatchObject({ status: '1008' });
    // the signed price must be the draft's price
    expect(await open({ price: 5001 })).toMatchObject({ status: '1013', message: 'the listing request is invalid or has expired, please start again' });
    expect(await open({ sellerOrderId: 'SOunknown' })).toMatchObject({ status: '1013' });
    // price bounds
    expect(await open({ price: 50 })).toMatchObject({ status: '1001', message: 'the price must be between ￥1.00 and ￥1,000,000.00' });
    // someone else's goods
    expect(await open({}, other.h)).toMatchObject({ status: '1012', message: 'this collectible is not yours' });
    // token moved on chain
    t.chain.owners.set(tokenId, other.address);
    expect(await open({})).toMatchObject({ status: '1014', message: 'on chain the token is not held by your linked wallet' });
    t.chain.owners.set(tokenId, seller.address);
    t.chain.approve(tokenId, seller.address);
    // chain down
    t.chain.down = true;
    expect(await open({})).toMatchObject({ status: '1018', message: 'the chain service is unavailable, please try again later' });
    t.chain.down = false;
    // malformed input
    expect(await call(t, '/goods/v1/openSale', { goodsId: 'x', price: 1 }, seller.h)).toMatchObject({ http: 400, status: '1001' });
    // not logged in
    expect(await call(t, '/goods/v1/openSale', { goodsId, price: 5000, sellerOrderId: pre.data.sellerOrderId, signature: sig })).toMatchObject({ status: '1100' });
    // finally valid
    expect(await open({})).toMatchObject({ status: '000000', message: 'listed for sale' });
    // a draft is single use
    expect(await open({})).toMatchObject({ status: '1013' });
  });

  it('the draft expires after 30 minutes', async () => {
    const seller = await makeTrader(t);
    const { goodsId, tokenId } = await makeGoods(t, release, seller);
    const pre = await call(t, '/goods/v1/preOpenSale', { goodsId, price: 5000 }, seller.h);
    t.chain.approve(tokenId, seller.address);
    t.clock.t += 31 * 60_000;
    try {
      const r = await call(t, '/goods/v1/openSale', { goodsId, price: 5000, sellerOrderId: pre.data.sellerOrderId, signature: signTyped(seller, pre.data) }, seller.h);
      expect(r).toMatchObject({ status: '1013', message: 'the listing request is invalid or has expired, please start again' });
    } finally {
      t.clock.t -= 31 * 60_000;
    }
  });

  it('a signature for another chain or exchange is refused', async () => {
    const seller = await makeTrader(t);
    const { goodsId, tokenId } = await makeGoods(t, release, seller);
    t.chain.approve(tokenId, seller.address);
    const pre = await call(t, '/goods/v1/preOpenSale', { goodsId, price: 5000 }, seller.h);
    const wrongChain = signListOrder(seller.key, pre.data.typedData.message, { ...pre.data.typedData.domain, chainId: 1 });
    const r = await call(t, '/goods/v1/openSale', { goodsId, price: 5000, sellerOrderId: pre.data.sellerOrderId, signature: wrongChain }, seller.h);
    expect(r.status).toBe('1008');
  });

  it('the trading gate, minting and the holding period come first', async () => {
    const seller = await makeTrader(t);
    for (const kind of ['no-realname', 'no-wallet', 'minor'] as const) {
      const u = await makeTrader(t, kind);
      const { goodsId } = await makeGoods(t, release, u);
      const r = await call(t, '/goods/v1/preOpenSale', { goodsId, price: 5000 }, u.h);
      expect(r.status, kind).toBe('1011');
      expect(r.message).toBe({ 'no-realname': 'please verify your real name first', 'no-wallet': 'please link a wallet first', minor: 'you must be 18 or older to trade' }[kind]);
    }
    const pending = await makeGoods(t, release, seller, { minted: false });
    expect(await call(t, '/goods/v1/preOpenSale', { goodsId: pending.goodsId, price: 5000 }, seller.h)).toMatchObject({ status: '1013', message: 'the collectible is not on chain yet' });
    const holding = await makeRelease(t, 7);
    const fresh = await makeGoods(t, holding, seller, { acquiredAt: t.clock.t - 86_400_000 });
    const r = await call(t, '/goods/v1/preOpenSale', { goodsId: fresh.goodsId, price: 5000 }, seller.h);
    expect(r.status).toBe('1013');
    expect(r.message).toMatch(/^the collectible is in its holding period; it can be listed after \d{4}-\d\d-\d\d \d\d:\d\d$/);
    const old = await makeGoods(t, holding, seller, { acquiredAt: t.clock.t - 8 * 86_400_000 });
    expect((await call(t, '/goods/v1/preOpenSale', { goodsId: old.goodsId, price: 5000 }, seller.h)).status).toBe('000000');
    expect(await call(t, '/goods/v1/preOpenSale', { goodsId: 99_999_999, price: 5000 }, seller.h)).toMatchObject({ http: 404, status: '1404' });
  });

  it('without a chain the sale calls answer 1018', async () => {
    const t2 = await makeMarketApp();
    try {
      t2.ctx.market!.attachSettlement(undefined);
      const seller = await makeTrader(t2);
      const rel = await makeRelease(t2);
      const { goodsId } = await makeGoods(t2, rel, seller);
      expect(await call(t2, '/goods/v1/preOpenSale', { goodsId, price: 5000 }, seller.h)).toMatchObject({ status: '1018', message: 'the chain service is unavailable, please try again later' });
    } finally {
      await t2.close();
    }
  });
});

describe('closeSale and chain re-checks', () => {
  it('closeSale takes it off sale and tells the client to approve the zero address', async () => {
    const seller = await makeTrader(t);
    const other = await makeTrader(t);
    const { goodsId, tokenId } = await makeGoods(t, release, seller);
    await listForSale(t, seller, goodsId, 5000);
    expect(await call(t, '/goods/v1/closeSale', { goodsId }, other.h)).toMatchObject({ status: '1012', message: 'this collectible is not yours' });
    const r = await call(t, '/goods/v1/closeSale', { goodsId }, seller.h);
    expect(r).toMatchObject({ status: '000000', message: 'taken off sale', data: { goodsId, status: 'held', approveZero: { collectible: t.chain.collectible, to: '0x0000000000000000000000000000000000000000', tokenId } } });
    expect(await call(t, '/goods/v1/closeSale', { goodsId }, seller.h)).toMatchObject({ status: '1013', message: 'the collectible is not on sale' });
    const g = await t.ctx.db.kysely.selectFrom('goods').select(['status', 'sale_price_fen']).where('id', '=', goodsId).executeTakeFirstOrThrow();
    expect(g).toMatchObject({ status: 'held', sale_price_fen: null });
  });

  it('a listing with an order in progress cannot be closed', async () => {
    const seller = await makeTrader(t);
    const buyer = await makeTrader(t);
    const { goodsId } = await makeGoods(t, release, seller);
    await listForSale(t, seller, goodsId, 5000);
    expect((await createOrderFor(t, buyer, goodsId)).status).toBe('000000');
    expect(await call(t, '/goods/v1/closeSale', { goodsId }, seller.h)).toMatchObject({ status: '1013', message: 'the collectible has an order in progress and cannot be taken off sale now' });
  });

  it('Transfer / Approval events invalidate a listing at once (no ghost listings)', async () => {
    const seller = await makeTrader(t);
    const buyer = await makeTrader(t);
    const a = await makeGoods(t, release, seller);
    const b = await makeGoods(t, release, seller);
    await listForSale(t, seller, a.goodsId, 5000);
    await listForSale(t, seller, b.goodsId, 5000);
    // An Approval that keeps the exchange approved changes nothing.
    t.chain.emit([{ event: 'Approval', tokenId: a.tokenId, from: seller.address, to: t.chain.exchange }]);
    await new Promise((r) => setTimeout(r, 50));
    expect((await t.ctx.db.kysely.selectFrom('listings').select('status').where('goods_id', '=', a.goodsId).where('status', '=', 'on_sale').execute()).length).toBe(1);
    // approval revoked on chain
    t.chain.revoke(a.tokenId);
    t.chain.emit([{ event: 'Approval', tokenId: a.tokenId, from: seller.address, to: null }]);
    // token moved away on chain (to a wallet nobody here knows)
    const nobody = toBase32Address(`0x1${crypto.randomBytes(20).toString('hex').slice(1)}`, 1029);
    t.chain.transfer(b.tokenId, nobody);
    t.chain.emit([{ event: 'Transfer', tokenId: b.tokenId, from: seller.address, to: nobody }]);
    // The indexer handles the events after they are emitted: wait until both listings are closed (a fixed 100 ms
    // was too short on a loaded PostgreSQL run: the buyer then met the check in progress, "someone else is buying").
    const invalid = () => t.ctx.db.kysely.selectFrom('listings').select('goods_id').where('goods_id', 'in', [a.goodsId, b.goodsId]).where('status', '=', 'invalid').execute();
    await waitFor(async () => (await invalid()).length === 2, 10_000, 'both listings closed');
    for (const g of [a, b]) {
      expect(await createOrderFor(t, buyer, g.goodsId)).toMatchObject({ status: '1013', message: 'this collectible is no longer on sale' });
      const goods = await t.ctx.db.kysely.selectFrom('goods').select('status').where('id', '=', g.goodsId).executeTakeFirstOrThrow();
      expect(goods.status).toBe('held');
    }
    const ls = await t.ctx.db.kysely.selectFrom('listings').select(['goods_id', 'status', 'close_reason']).where('goods_id', 'in', [a.goodsId, b.goodsId]).where('status', '=', 'invalid').orderBy('goods_id').execute();
    expect(ls.map((l) => l.close_reason)).toEqual(['approval_revoked', 'token_moved']);
  });

  it('a transfer to another user of ours moves the collectible to them', async () => {
    const seller = await makeTrader(t);
    const friend = await makeTrader(t);
    const g = await makeGoods(t, release, seller);
    t.chain.transfer(g.tokenId, friend.hex);
    t.chain.emit([{ event: 'Transfer', tokenId: g.tokenId, from: seller.address, to: friend.address }]);
    // The indexer handles the event after it is emitted: wait for the move (a fixed 100 ms is too short under load).
    const owner = async () => Number((await t.ctx.db.kysely.selectFrom('goods').select('owner_user_id').where('id', '=', g.goodsId).executeTakeFirstOrThrow()).owner_user_id);
    await waitFor(async () => (await owner()) === friend.userId, 10_000, 'the collectible to move to the friend');
    expect(await owner()).toBe(friend.userId);
  });

  it('openAndCloseNotify re-reads the chain and reports the state', async () => {
    const seller = await makeTrader(t);
    const other = await makeTrader(t);
    const { goodsId, tokenId } = await makeGoods(t, release, seller);
    await listForSale(t, seller, goodsId, 5000);
    const ok = await call(t, '/goods/v1/openAndCloseNotify', { goodsId, action: 'open', txHash: '0xabc' }, seller.h);
    expect(ok).toMatchObject({ status: '000000', data: { goodsId, owner: seller.address, ownerIsSeller: true, approved: true, status: 'on_sale', listing: { status: 'on_sale', priceFen: 5000 } } });
    t.chain.revoke(tokenId); // the wallet approved the zero address; the indexer has not seen it yet
    const off = await call(t, '/goods/v1/openAndCloseNotify', { goodsId, action: 'close' }, seller.h);
    expect(off).toMatchObject({ status: '000000', data: { approved: false, status: 'held', listing: { status: 'invalid', closeReason: 'approval_revoked' } } });
    expect(await call(t, '/goods/v1/openAndCloseNotify', { goodsId }, other.h)).toMatchObject({ status: '1012' });
  });
});

describe('personal calls', () => {
  it('mySell lists my listings by state', async () => {
    const seller = await makeTrader(t);
    const a = await makeGoods(t, release, seller);
    const b = await makeGoods(t, release, seller);
    await listForSale(t, seller, a.goodsId, 5000);
    await listForSale(t, seller, b.goodsId, 7000);
    await call(t, '/goods/v1/closeSale', { goodsId: b.goodsId }, seller.h);
    const onSale = await call(t, '/goods/v1/mySell', { status: 'on_sale' }, seller.h);
    expect(onSale.data.total).toBe(1);
    expect(onSale.data.list[0]).toMatchObject({ goodsId: a.goodsId, priceFen: 5000, status: 'on_sale', goods: { id: a.goodsId, status: 'on_sale' }, orderNo: null });
    const all = await call(t, '/goods/v1/mySell', {}, seller.h);
    expect(all.data.list.map((l: any) => l.status)).toEqual(['closed', 'on_sale']);
    expect((await call(t, '/goods/v1/mySell', {})).status).toBe('1100');
  });

  it('love toggles a favourite; list/favorite and list/home list them', async () => {
    const u = await makeTrader(t);
    const owner = await makeTrader(t);
    const g1 = await makeGoods(t, release, owner);
    const g2 = await makeGoods(t, release, u);
    expect(await call(t, '/goods/v1/love', { goodsId: g1.goodsId }, u.h)).toMatchObject({ status: '000000', data: { goodsId: g1.goodsId, loved: true, loveCount: 1 } });
    expect((await call(t, '/goods/v1/love', { goodsId: g1.goodsId }, owner.h)).data).toMatchObject({ loved: true, loveCount: 2 });
    const fav = await call(t, '/goods/v1/list/favorite', {}, u.h);
    expect(fav.data).toMatchObject({ total: 1, list: [{ id: g1.goodsId }] });
    expect((await call(t, '/goods/v1/love', { goodsId: g1.goodsId }, u.h)).data).toMatchObject({ loved: false, loveCount: 1 });
    expect((await call(t, '/goods/v1/list/favorite', {}, u.h)).data.total).toBe(0);
    expect(await call(t, '/goods/v1/love', { goodsId: 99_999_999 }, u.h)).toMatchObject({ status: '1404' });
    const home = await call(t, '/goods/v1/list/home', { status: 'all' }, u.h);
    expect(home.data).toMatchObject({ total: 1, list: [{ id: g2.goodsId, status: 'held' }] });
    expect((await call(t, '/goods/v1/list/home', { status: 'on_sale' }, u.h)).data.total).toBe(0);
    expect((await call(t, '/goods/v1/list/home', {})).status).toBe('1100');
  });
});
