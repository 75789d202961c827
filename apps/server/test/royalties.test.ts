import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import { adminCall, auditSince, lastAuditId, makeStaff, type Staff } from './admin-helpers.ts';
import { releaseForm } from './admin-catalog-helpers.ts';
import { createDropRelease } from '../src/modules/drops/create-drop-release.ts';
import { call, type TestApp } from './helpers.ts';
import {
  balance, createOrderFor, expectLedgerBalanced, get, listForSale, makeGoods, makeMarketApp, makeTrader, orderStatus, runJobs, signTyped, topup,
  type FakeChain, type Release, type Trader,
} from './market-helpers.ts';

/**
 * Royalties per release on a real database (SQLite, or PostgreSQL with TEST_PG_URL): the console sets a
 * release's royalty (0–10 %, validated, audited, frozen by the first resale); every resale of one of its
 * collectibles — a consignment sale or an accepted bid — credits the creator's balance with
 * ⌊price × permille / 1000⌋ in the settlement's ledger transaction, exactly once, and the seller
 * price − commission − royalty; the seller's cost preview, the order detail and the receipts show it; a
 * release without its own royalty uses ROYALTY_PERMILLE (20 here).
 */
let t: TestApp & { chain: FakeChain };
let op: Staff;
const DEFAULT = 20;

beforeAll(async () => {
  t = await makeMarketApp({ ROYALTY_PERMILLE: String(DEFAULT) });
  op = await makeStaff(t, ['operator']);
});
afterAll(async () => {
  await t?.close();
});

const adm = (path: string, body: unknown) => adminCall(t, path, body, op.token);

/** A fresh creator (a user with a session and a zero balance) and a release of theirs made in the console (royaltyPermille omitted = the default). */
async function consoleRelease(royaltyPermille?: number | null): Promise<Release & { detail: any; creator: Trader }> {
  const creator = await makeTrader(t);
  const c = await t.ctx.db.kysely
    .insertInto('creators')
    .values({ user_id: creator.userId, name: `创作者${creator.userId}`, avatar: '', banner: '', intro: '', media_links: '[]', sort: 0, created_at: t.clock.t })
    .returning('id')
    .executeTakeFirstOrThrow();
  const form = { ...(await releaseForm(t, op.token, { creatorId: Number(c.id) })), ...(royaltyPermille === undefined ? {} : { royaltyPermille }) };
  const r = await adm(AdminPaths.releaseCreate, form);
  expect(r, r.message).toMatchObject({ status: '000000' });
  return { projectId: r.data.id, creatorUserId: creator.userId, creator, detail: r.data };
}

/** The ledger entries of `account` in the settlement of `orderNo`. */
async function settleEntries(orderNo: string, account: string) {
  return t.ctx.db.kysely.selectFrom('ledger_entries').select('amount_fen').where('txn_id', '=', `settle:${orderNo}`).where('account', '=', account).execute();
}

/** Lists a fresh collectible of `release` at `price`, has a new buyer pay from the balance, settles. */
async function resale(release: Release, price: number) {
  const seller = await makeTrader(t);
  const g = await makeGoods(t, release, seller);
  const cost = await get(t, `/goods/v1/cost?price=${price}&goodsId=${g.goodsId}`, seller.h);
  await listForSale(t, seller, g.goodsId, price);
  const buyer = await makeTrader(t);
  await topup(t, buyer, price);
  const o = await createOrderFor(t, buyer, g.goodsId);
  expect(o.status, o.message).toBe('000000');
  const orderNo = o.data.orderNo as string;
  expect((await call(t, '/payment/nftOrder/V1/pay', { orderNo, method: 'balance' }, buyer.h)).status).toBe('000000');
  await runJobs(t);
  expect(await orderStatus(t, orderNo)).toBe('completed');
  return { seller, buyer, goodsId: g.goodsId, orderNo, cost: cost.data };
}

describe('the console sets a release’s royalty', () => {
  it('0–10 % in per mille, null = the default; bad values are refused with the envelope and nothing is written; audited', async () => {
    const before = await lastAuditId(t);
    const own = await consoleRelease(50);
    expect(own.detail).toMatchObject({ royaltyPermille: 50, royaltyEffectivePermille: 50, locks: { royaltyLocked: false } });
    const plain = await consoleRelease();
    expect(plain.detail).toMatchObject({ royaltyPermille: null, royaltyEffectivePermille: DEFAULT });
    const audit = await auditSince(t, before);
    expect(audit.filter((a) => a.action === 'release.create').map((a) => JSON.parse(a.summary).after.royaltyPermille)).toEqual([50, null]);
    expect((await adm(AdminPaths.releaseOptions, {})).data.defaults.royaltyPermille).toBe(DEFAULT);

    const projects = async () => Number((await t.ctx.db.kysely.selectFrom('projects').select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const n = await projects();
    for (const bad of [101, 1000, -1]) {
      const r = await adm(AdminPaths.releaseCreate, { ...(await releaseForm(t, op.token)), royaltyPermille: bad });
      expect(r, String(bad)).toMatchObject({ status: '1001', message: bad < 0 ? expect.any(String) : 'the creator royalty must be 0-10%' });
      const u = await adm(AdminPaths.releaseUpdate, { id: own.projectId, royaltyPermille: bad });
      expect(u.status, String(bad)).toBe('1001');
    }
    expect(await adm(AdminPaths.releaseUpdate, { id: own.projectId, royaltyPermille: 2.5 })).toMatchObject({ status: '1001' });
    expect(await projects()).toBe(n);
    const row = await t.ctx.db.kysely.selectFrom('projects').select('royalty_permille').where('id', '=', own.projectId).executeTakeFirstOrThrow();
    expect(row.royalty_permille).toBe(50);

    // Edit: 5 % → 10 %, then back to the default (null), then 5 % again; each change audited with before / after.
    const mark = await lastAuditId(t);
    expect((await adm(AdminPaths.releaseUpdate, { id: own.projectId, royaltyPermille: 100 })).data).toMatchObject({ royaltyPermille: 100, royaltyEffectivePermille: 100 });
    expect((await adm(AdminPaths.releaseUpdate, { id: own.projectId, royaltyPermille: null })).data).toMatchObject({ royaltyPermille: null, royaltyEffectivePermille: DEFAULT });
    expect((await adm(AdminPaths.releaseUpdate, { id: own.projectId, royaltyPermille: 50 })).data).toMatchObject({ royaltyPermille: 50 });
    const edits = (await auditSince(t, mark)).filter((a) => a.action === 'release.update').map((a) => JSON.parse(a.summary));
    expect(edits.map((s) => [s.before.royaltyPermille, s.after.royaltyPermille])).toEqual([[50, 100], [100, null], [null, 50]]);
  });
});

describe('a resale pays the release’s royalty to its creator', () => {
  it('5 %: the cost preview shows it, the creator is credited exactly once in the settlement, the seller gets price − commission − royalty, the ledger balances', async () => {
    const release = await consoleRelease(50);
    const { seller, buyer, orderNo, cost, goodsId } = await resale(release, 10_000);
    expect(cost).toMatchObject({
      priceFen: 10_000, total: 1000, incomeFen: 9000, royaltyPermille: 50, royaltyFen: 500,
      costs: [{ type: 'commission', permille: 50, amountFen: 500 }, { type: 'royalty', name: 'creator royalty', permille: 50, amountFen: 500 }],
    });
    expect(await balance(t, seller)).toBe(9000);
    expect(await settleEntries(orderNo, `user:${release.creatorUserId}`)).toEqual([{ amount_fen: 500 }]);
    expect((await t.ctx.db.kysely.selectFrom('orders').select(['royalty_fen', 'royalty_user_id', 'seller_income_fen']).where('order_no', '=', orderNo).executeTakeFirstOrThrow()))
      .toEqual({ royalty_fen: 500, royalty_user_id: release.creatorUserId, seller_income_fen: 9000 });
    await expectLedgerBalanced(t);
    // Settling again (the job, a replay) credits nothing more.
    await runJobs(t);
    expect(await settleEntries(orderNo, `user:${release.creatorUserId}`)).toHaveLength(1);
    const creatorH = release.creator.h;
    expect(await balance(t, release.creator)).toBe(500);

    // Receipts: the order detail of both sides, the public trade list, the seller's and the creator's own receipts.
    expect((await call(t, '/payment/nftOrder/V1/getNftOrderDetail', { orderNo }, seller.h)).data).toMatchObject({ royaltyFen: 500, commissionFen: 500, sellerIncomeFen: 9000 });
    expect((await call(t, '/payment/nftOrder/V1/getNftOrderDetail', { orderNo }, buyer.h)).data).toMatchObject({ royaltyFen: 500, sellerIncomeFen: null });
    expect((await call(t, '/payment/nftDealRecord/V1/pageListNftDealRecordByParams', { goodsId })).data.list).toMatchObject([{ kind: 'market', orderNo, royaltyFen: 500 }]);
    expect((await call(t, '/payment/nftDealRecord/V1/pageListNftDealRecordByParams', { mine: 'sell' }, seller.h)).data.list).toMatchObject([{ kind: 'market', orderNo, royaltyFen: 500 }]);
    const mine = await call(t, '/payment/nftDealRecord/V1/pageListNftDealRecordByParams', { mine: 'all' }, creatorH);
    expect(mine.data).toMatchObject({ total: 1, list: [{ kind: 'royalty', orderNo, goodsId, priceFen: 10_000, royaltyFen: 500 }] });
    expect((await call(t, '/payment/nftDealRecord/V1/pageListNftDealRecordByParams', { mine: 'buy' }, creatorH)).data.total).toBe(0);
    // The creator's balance movements show the royalty next to primary-sale income.
    expect((await get(t, '/payment/account/V1/queryBalance', creatorH)).data.recent).toContainEqual(expect.objectContaining({ kind: 'settle', orderNo, amountFen: 500 }));
    // Frozen once a resale exists.
    expect((await adm(AdminPaths.releaseDetail, { id: release.projectId })).data.locks.royaltyLocked).toBe(true);
    expect(await adm(AdminPaths.releaseUpdate, { id: release.projectId, royaltyPermille: 10 })).toMatchObject({ status: '1073', message: 'resales exist: the royalty cannot change' });
    expect((await adm(AdminPaths.releaseUpdate, { id: release.projectId, royaltyPermille: 50, name: '改名' })).status).toBe('000000');
  });

  it('the royalty rounds down and the remainder stays with the seller (5 % of ￥19.99 = 99 fen)', async () => {
    const release = await consoleRelease(50);
    const { seller, orderNo, cost } = await resale(release, 1999);
    // commission 5 % half up: 99.95 → 100; royalty 5 % down: 99.95 → 99; seller 1999 − 100 − 99.
    expect(cost).toMatchObject({ royaltyFen: 99, incomeFen: 1800, total: 199 });
    expect(await balance(t, seller)).toBe(1800);
    expect(await settleEntries(orderNo, `user:${release.creatorUserId}`)).toEqual([{ amount_fen: 99 }]);
    await expectLedgerBalanced(t);
  });

  it('a release without its own royalty pays the default; 0 pays none (no royalty line, nothing credited)', async () => {
    const plain = await consoleRelease();
    const r = await resale(plain, 10_000);
    expect(r.cost).toMatchObject({ royaltyPermille: DEFAULT, royaltyFen: 200, incomeFen: 9300 });
    expect(await balance(t, r.seller)).toBe(9300);
    expect(await settleEntries(r.orderNo, `user:${plain.creatorUserId}`)).toEqual([{ amount_fen: 200 }]);
    // The cost preview without a collectible uses the default.
    expect((await get(t, '/goods/v1/cost?price=10000', r.seller.h)).data).toMatchObject({ royaltyPermille: DEFAULT, royaltyFen: 200 });

    const none = await consoleRelease(0);
    const z = await resale(none, 10_000);
    expect(z.cost).toMatchObject({ royaltyPermille: 0, royaltyFen: 0, incomeFen: 9500, costs: [{ type: 'commission' }] });
    expect(z.cost.costs).toHaveLength(1);
    expect(await balance(t, z.seller)).toBe(9500);
    expect(await settleEntries(z.orderNo, `user:${none.creatorUserId}`)).toEqual([]);
    await expectLedgerBalanced(t);
  });

  it('a release made by createDropRelease with its own royalty (the dev route, the tests) pays it', async () => {
    const { projectId } = await createDropRelease(t.ctx, null, { supply: 5, royaltyPermille: 70 });
    const c = await t.ctx.db.kysely.selectFrom('projects').innerJoin('creators', 'creators.id', 'projects.creator_id').select('creators.user_id').where('projects.id', '=', projectId).executeTakeFirstOrThrow();
    const r = await resale({ projectId, creatorUserId: Number(c.user_id) }, 10_000);
    expect(r.cost).toMatchObject({ royaltyPermille: 70, royaltyFen: 700, incomeFen: 8800 });
    expect(await settleEntries(r.orderNo, `user:${Number(c.user_id)}`)).toEqual([{ amount_fen: 700 }]);
    await expectLedgerBalanced(t);
  });

  it('an accepted bid pays the royalty too', async () => {
    const release = await consoleRelease(50);
    const owner = await makeTrader(t);
    const bidder = await makeTrader(t);
    const { goodsId } = await makeGoods(t, release, owner);
    const b = await call(t, '/goods/v1/bargin', { goodsId, amount: 8000, expiresAt: t.clock.t + 86_400_000 }, bidder.h);
    expect(b.status, b.message).toBe('000000');
    const pre = await call(t, '/goods/v1/preOpenSale', { goodsId, price: 8000, bidId: b.data.id }, owner.h);
    expect(pre.data.cost).toMatchObject({ royaltyPermille: 50, royaltyFen: 400, incomeFen: 7200 });
    t.chain.approve(pre.data.tokenId, owner.address);
    const r = await call(t, '/goods/v1/agreeBargin/', { bidId: b.data.id, sellerOrderId: pre.data.sellerOrderId, signature: signTyped(owner, pre.data) }, owner.h);
    expect(r.data).toMatchObject({ kind: 'bid', royaltyFen: 400, sellerIncomeFen: 7200 });
    await topup(t, bidder, 8000);
    expect((await call(t, '/payment/nftOrder/V1/pay', { orderNo: r.data.orderNo, method: 'balance' }, bidder.h)).status).toBe('000000');
    await runJobs(t);
    expect(await orderStatus(t, r.data.orderNo)).toBe('completed');
    expect(await balance(t, owner)).toBe(7200);
    expect(await settleEntries(r.data.orderNo, `user:${release.creatorUserId}`)).toEqual([{ amount_fen: 400 }]);
    await expectLedgerBalanced(t);
  });
});
