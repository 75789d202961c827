import crypto from 'node:crypto';
import { format, sign } from 'js-conflux-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toBase32Address } from '@cfx/protocol/address.ts';
import { expireTransfers } from '../src/modules/shift/apply-transfer.ts';
import { onTokenEvents } from '../src/modules/market/watch-chain.ts';
import { call, expectOk, get, makeFlowsApp, type FlowsApp } from './consume-helpers.ts';
import { listForSale, makeGoods, makeRelease, makeTrader, type Trader } from './market-helpers.ts';

/**
 * Shift (to another own address) and gifts (转赠) on SQLite and PostgreSQL (TEST_PG_URL), with the
 * fake chain: the same rules for both (holding lock, not listed, not held by another flow, at the
 * linked wallet), the receiver's gate and the daily cap, and the move recorded from the chain.
 */
describe('shift and gifts', () => {
  let t: FlowsApp;
  let alice: Trader;
  let bob: Trader;
  beforeEach(async () => {
    t = await makeFlowsApp({ GIFTS_PER_DAY: '2' });
    alice = await makeTrader(t);
    bob = await makeTrader(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const freshAddress = () => toBase32Address(format.hexAddress(sign.privateKeyToAddress(crypto.randomBytes(32))), 1029);
  const accountOf = async (u: Trader) => (await t.ctx.db.kysely.selectFrom('users').select('account_id').where('id', '=', u.userId).executeTakeFirstOrThrow()).account_id;
  const goodsRow = (id: number) => t.ctx.db.kysely.selectFrom('goods').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  /**
   * The wallet sends transferFrom (the fake chain moves the token) and the indexer reports it: the
   * market's chain watcher (what the indexer's Transfer listener calls) runs to its end.
   */
  const walletTransfer = async (tokenId: string, from: string, to: string) => {
    t.chain.transfer(tokenId, to);
    await onTokenEvents(t.ctx, [{ event: 'Transfer', tokenId, from, to }]);
  };

  it('respects the holding lock: queryShiftStatus says until when, shift and gift refuse until then', async () => {
    const release = await makeRelease(t, 2);
    const now = t.ctx.now();
    const g = await makeGoods(t, release, alice, { acquiredAt: now });
    const s = await get(t, `/goods/v1/queryShiftStatus/?goodsId=${g.goodsId}`, alice.h);
    expectOk(s);
    expect(s.data).toMatchObject({ canShift: false, blockedBy: 'holding', holdingDays: 2, transferableAt: now + 2 * 86_400_000, walletAddress: alice.address, holderAddress: null, giftsToday: 0, giftsPerDay: 2 });
    expect(s.data.reason).toMatch(/^the collectible is in its holding period; it can be moved after \d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(await call(t, '/goods/v1/shift', { goodsId: g.goodsId, toAddress: freshAddress() }, alice.h)).toMatchObject({ status: '1013' });
    expect(await call(t, '/goods/v1/gift', { goodsId: g.goodsId, accountId: await accountOf(bob) }, alice.h)).toMatchObject({ status: '1013' });
    t.clock.t += 2 * 86_400_000 + 1;
    expect((await get(t, `/goods/v1/queryShiftStatus/?goodsId=${g.goodsId}`, alice.h)).data).toMatchObject({ canShift: true, blockedBy: null, reason: null });
    expect(await get(t, `/goods/v1/queryShiftStatus/?goodsId=${g.goodsId}`, bob.h)).toMatchObject({ status: '1012' });
  });

  it('shifts to another own address: recorded from the chain, not listable there, back again', async () => {
    const release = await makeRelease(t);
    const g = await makeGoods(t, release, alice);
    const other = freshAddress();
    expect(await call(t, '/goods/v1/shift', { goodsId: g.goodsId, toAddress: 'cfx:nope' }, alice.h)).toMatchObject({ status: '1052', message: 'please enter a correct Conflux (cfx:) wallet address' });
    expect(await call(t, '/goods/v1/shift', { goodsId: g.goodsId, toAddress: t.chain.collectible }, alice.h)).toMatchObject({ status: '1052' });
    expect(await call(t, '/goods/v1/shift', { goodsId: g.goodsId, toAddress: alice.address }, alice.h)).toMatchObject({ status: '1052', message: 'the collectible is already at this address' });
    expect(await call(t, '/goods/v1/shift', { goodsId: g.goodsId, toAddress: bob.address }, alice.h)).toMatchObject({ status: '1052', message: 'this address belongs to another user; use a gift instead' });
    const intent = await call(t, '/goods/v1/shift', { goodsId: g.goodsId, toAddress: other }, alice.h);
    expectOk(intent);
    expect(intent.data).toMatchObject({ kind: 'shift', status: 'pending', fromAddress: alice.address, toAddress: other, fromHex: alice.hex, collectibleHex: t.chain.collectibleHex, goods: { goodsId: g.goodsId, tokenId: g.tokenId } });
    // Asking again answers the same intent; meanwhile the collectible cannot be listed.
    expect((await call(t, '/goods/v1/shift', { goodsId: g.goodsId, toAddress: other }, alice.h)).data.transferNo).toBe(intent.data.transferNo);
    expect(await call(t, '/goods/v1/preOpenSale', { goodsId: g.goodsId, price: 1000 }, alice.h)).toMatchObject({ status: '1013' });
    // Not sent yet: notify leaves it pending.
    expect((await call(t, '/goods/v1/shift/notify', { transferNo: intent.data.transferNo }, alice.h)).data.status).toBe('pending');
    await walletTransfer(g.tokenId, alice.address, other);
    const done = await call(t, '/goods/v1/shift/notify', { transferNo: intent.data.transferNo }, alice.h);
    expect(done.data).toMatchObject({ status: 'done' });
    expect(await goodsRow(g.goodsId)).toMatchObject({ owner_user_id: alice.userId, holder_address: other, status: 'held' });
    expect((await get(t, `/goods/v1/list/historyAction/?id=${g.goodsId}`)).data.list[0]).toMatchObject({ action: 'shift' });
    // Listing needs the token at the linked wallet.
    expect(await call(t, '/goods/v1/preOpenSale', { goodsId: g.goodsId, price: 1000 }, alice.h)).toMatchObject({ status: '1013', message: 'the collectible is not at your linked wallet; move it back there first' });
    expect((await get(t, `/goods/v1/queryShiftStatus/?goodsId=${g.goodsId}`, alice.h)).data).toMatchObject({ canShift: false, blockedBy: 'elsewhere', holderAddress: other });
    // Moved back from the other wallet (outside the platform): followed from the indexed Transfer.
    await walletTransfer(g.tokenId, other, alice.address);
    expect(await goodsRow(g.goodsId)).toMatchObject({ holder_address: null });
    await listForSale(t, alice, g.goodsId, 1000);
  });

  it('gives a collectible to a real-named user: moved on the indexed Transfer, a gift record for both', async () => {
    const release = await makeRelease(t);
    const g = await makeGoods(t, release, alice);
    const bobId = await accountOf(bob);
    const who = await call(t, '/goods/v1/gift/receiver', { accountId: bobId }, alice.h);
    expect(who.data).toMatchObject({ accountId: bobId, eligible: true, reason: null });
    expect(who.data.nickname).toMatch(/\*\*\*$/);
    const intent = await call(t, '/goods/v1/gift', { goodsId: g.goodsId, accountId: bobId }, alice.h);
    expectOk(intent);
    expect(intent.data).toMatchObject({ kind: 'gift', status: 'pending', toAddress: bob.address, toHex: bob.hex, to: { accountId: bobId } });
    await walletTransfer(g.tokenId, alice.address, bob.address);
    expect(await goodsRow(g.goodsId)).toMatchObject({ owner_user_id: bob.userId, holder_address: null, status: 'held' });
    // The notify after the indexer changes nothing more.
    expect((await call(t, '/goods/v1/shift/notify', { transferNo: intent.data.transferNo, txHash: `0x${'ab'.repeat(32)}` }, alice.h)).data.status).toBe('done');
    const history = (await get(t, `/goods/v1/list/historyAction/?id=${g.goodsId}`)).data.list;
    expect(history.filter((h: any) => h.action === 'gift' || h.action === 'transfer')).toHaveLength(1);
    expect(history[0]).toMatchObject({ action: 'gift', from: { accountId: await accountOf(alice) }, to: { accountId: bobId } });
    const sent = await call(t, '/goods/v1/shift/record', { pageNum: 1, pageSize: 10 }, alice.h);
    const got = await call(t, '/goods/v1/shift/record', { kind: 'gift', pageNum: 1, pageSize: 10 }, bob.h);
    expect(sent.data.list[0]).toMatchObject({ kind: 'gift', direction: 'out', status: 'done' });
    expect(got.data.list[0]).toMatchObject({ kind: 'gift', direction: 'in', status: 'done', goods: { goodsId: g.goodsId } });
    // The receiver sees it in their assets.
    expect((await call(t, '/goods/v1/list/home', { pageNum: 1, pageSize: 10 }, bob.h)).data.list.map((x: any) => x.id)).toContain(g.goodsId);
  });

  it('one indexed batch of many Transfers: each shift, gift and outside move is followed, a token moved twice by its last move', async () => {
    const release = await makeRelease(t);
    const [g1, g2, g3, g4] = [await makeGoods(t, release, alice), await makeGoods(t, release, alice), await makeGoods(t, release, alice), await makeGoods(t, release, alice)];
    const [other1, other2, other3] = [freshAddress(), freshAddress(), freshAddress()];
    const shift = await call(t, '/goods/v1/shift', { goodsId: g1.goodsId, toAddress: other1 }, alice.h);
    expectOk(shift);
    const gift = await call(t, '/goods/v1/gift', { goodsId: g4.goodsId, accountId: await accountOf(bob) }, alice.h);
    expectOk(gift);
    t.chain.transfer(g1.tokenId, other1);
    t.chain.transfer(g2.tokenId, alice.address); // out to other2 and back, both in this batch
    t.chain.transfer(g3.tokenId, other3);
    t.chain.transfer(g4.tokenId, bob.address);
    await onTokenEvents(t.ctx, [
      { event: 'Transfer', tokenId: g1.tokenId, from: alice.address, to: other1 },
      { event: 'Transfer', tokenId: g2.tokenId, from: alice.address, to: other2 },
      { event: 'Transfer', tokenId: g3.tokenId, from: alice.address, to: other3 },
      { event: 'Transfer', tokenId: g2.tokenId, from: other2, to: alice.address },
      { event: 'Transfer', tokenId: g4.tokenId, from: alice.address, to: bob.address },
    ]);
    expect(await goodsRow(g1.goodsId)).toMatchObject({ owner_user_id: alice.userId, holder_address: other1 });
    expect(await goodsRow(g2.goodsId)).toMatchObject({ owner_user_id: alice.userId, holder_address: null });
    expect(await goodsRow(g3.goodsId)).toMatchObject({ owner_user_id: alice.userId, holder_address: other3, status: 'held' });
    expect(await goodsRow(g4.goodsId)).toMatchObject({ owner_user_id: bob.userId, holder_address: null });
    const statusOf = async (transferNo: string) => (await t.ctx.db.kysely.selectFrom('goods_transfers').select('status').where('transfer_no', '=', transferNo).executeTakeFirstOrThrow()).status;
    expect([await statusOf(shift.data.transferNo), await statusOf(gift.data.transferNo)]).toEqual(['done', 'done']);
  });

  it('refuses receivers who cannot receive, and caps gifts per day', async () => {
    const release = await makeRelease(t);
    const goods = await Promise.all([1, 2, 3].map(() => makeGoods(t, release, alice)));
    const unverified = await makeTrader(t, 'no-realname');
    const minor = await makeTrader(t, 'minor');
    const noWallet = await makeTrader(t, 'no-wallet');
    const gift = async (u: Trader | string, goodsId = goods[0]!.goodsId) => call(t, '/goods/v1/gift', { goodsId, accountId: typeof u === 'string' ? u : await accountOf(u) }, alice.h);
    expect(await gift(unverified)).toMatchObject({ status: '1052', message: 'the receiver has not verified a real name and cannot receive gifts' });
    expect(await gift(minor)).toMatchObject({ status: '1052', message: 'the receiver is under 18 and cannot receive gifts' });
    expect(await gift(noWallet)).toMatchObject({ status: '1052', message: 'the receiver has no linked wallet and cannot receive gifts' });
    expect(await gift(alice)).toMatchObject({ status: '1052', message: 'you cannot give a collectible to yourself' });
    expect(await gift('12345')).toMatchObject({ status: '1052', message: 'user not found' });
    expect(await call(t, '/goods/v1/gift', { goodsId: goods[0]!.goodsId }, alice.h)).toMatchObject({ status: '1001' });
    expect((await call(t, '/goods/v1/gift/receiver', { accountId: await accountOf(unverified) }, alice.h)).data).toMatchObject({ eligible: false, reason: 'the receiver has not verified a real name and cannot receive gifts' });
    // By phone number.
    await t.ctx.db.kysely.updateTable('users').set({ mobile: '13900001111' }).where('id', '=', bob.userId).execute();
    const byPhone = await call(t, '/goods/v1/gift', { goodsId: goods[0]!.goodsId, mobile: '13900001111' }, alice.h);
    expect(byPhone.data).toMatchObject({ kind: 'gift', toAddress: bob.address });
    // GIFTS_PER_DAY = 2 (pending ones count).
    expectOk(await gift(bob, goods[1]!.goodsId));
    expect(await gift(bob, goods[2]!.goodsId)).toMatchObject({ status: '1052', message: 'daily gift limit reached (2 per day)' });
    expect((await get(t, `/goods/v1/queryShiftStatus/?goodsId=${goods[2]!.goodsId}`, alice.h)).data.giftsToday).toBe(2);
    // Expired gifts no longer count.
    t.clock.t += t.ctx.config.goodsFlows.holdMs + 1000;
    expect(await expireTransfers(t.ctx)).toBe(2);
    expectOk(await gift(bob, goods[2]!.goodsId));
  });

  it('a listed collectible or one held by a compose cannot move', async () => {
    const release = await makeRelease(t);
    const g = await makeGoods(t, release, alice);
    await listForSale(t, alice, g.goodsId, 1000);
    expect(await call(t, '/goods/v1/shift', { goodsId: g.goodsId, toAddress: freshAddress() }, alice.h)).toMatchObject({ status: '1013', message: 'the collectible is already on sale' });
    expect(await call(t, '/goods/v1/gift', { goodsId: g.goodsId, accountId: await accountOf(bob) }, alice.h)).toMatchObject({ status: '1013' });
    expect((await get(t, `/goods/v1/queryShiftStatus/?goodsId=${g.goodsId}`, alice.h)).data).toMatchObject({ canShift: false, blockedBy: 'on_sale' });
    // A pending gift holds it: no listing, no second transfer elsewhere without replacing it.
    const h = await makeGoods(t, release, alice);
    const intent = await call(t, '/goods/v1/gift', { goodsId: h.goodsId, accountId: await accountOf(bob) }, alice.h);
    expectOk(intent);
    expect(await call(t, '/goods/v1/preOpenSale', { goodsId: h.goodsId, price: 1000 }, alice.h)).toMatchObject({ status: '1013' });
    expect((await get(t, `/goods/v1/queryShiftStatus/?goodsId=${h.goodsId}`, alice.h)).data).toMatchObject({ blockedBy: 'locked', pending: { transferNo: intent.data.transferNo } });
    // A late wallet: the transfer arrives after the intent expired — still recorded as the gift.
    t.clock.t += t.ctx.config.goodsFlows.holdMs + 1000;
    await expireTransfers(t.ctx);
    await walletTransfer(h.tokenId, alice.address, bob.address);
    expect(await goodsRow(h.goodsId)).toMatchObject({ owner_user_id: bob.userId });
    expect((await get(t, `/goods/v1/list/historyAction/?id=${h.goodsId}`)).data.list[0]).toMatchObject({ action: 'gift' });
  });
});
