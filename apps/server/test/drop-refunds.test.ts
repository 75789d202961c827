import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintPendingGoods, MINT_RETRY_MS } from '../src/modules/drops/mint-batches.ts';
import { refundUndeliverableUnits } from '../src/modules/drops/refund-undeliverable.ts';
import { call, type TestApp } from './helpers.ts';
import { balance, expectLedgerBalanced, get, makeTrader, orderStatus, topup, type FakeChain, type Trader } from './market-helpers.ts';
import { buy, FakeMinter, fulfilAndMint, makeDrop, makeDropApp, stock } from './drops-helpers.ts';

/**
 * Drop units that can never be minted (docs/drops.md "Units that cannot be minted") on a real
 * database (SQLite, or PostgreSQL with TEST_PG_URL), with the mint job's test double: a token id
 * already held by another address on chain, or DROP_MINT_MAX_FAILURES failed single mints, refunds
 * those units to the buyer's balance exactly once — the order shrinks to what it delivers (or is
 * refunded whole), the creator is credited only for delivered units, the units are no longer sold,
 * the identity's quota comes back, the buyer gets a message and the console a reason. Completed
 * primary purchases appear in the buyer's (and the creator's) receipts.
 */
let t: TestApp & { chain: FakeChain };
beforeAll(async () => {
  t = await makeDropApp({ DROP_MINT_MAX_FAILURES: '3' });
});
afterAll(async () => {
  await t?.close();
});

async function paidOrder(u: Trader, projectId: number, count: number) {
  const o = await buy(t, u, projectId, count);
  expect(o.status, o.message).toBe('000000');
  await topup(t, u, o.data.priceFen);
  const p = await call(t, '/payment/nftOrder/V1/pay', { orderNo: o.data.orderNo, method: 'balance' }, u.h);
  expect(p.data.status, p.message).toBe('paid');
  await t.ctx.jobs.runOnce(); // fulfilment: serials and pending collectibles
  return o.data.orderNo as string;
}

const goodsOf = (orderNo: string) => t.ctx.db.kysely.selectFrom('goods').selectAll().where('drop_order_no', '=', orderNo).orderBy('serial').execute();
const creatorOf = async (projectId: number) =>
  Number((await t.ctx.db.kysely.selectFrom('projects').innerJoin('creators', 'creators.id', 'projects.creator_id').select('creators.user_id').where('projects.id', '=', projectId).executeTakeFirstOrThrow()).user_id);
const ledgerOf = (account: string) => t.ctx.db.kysely.selectFrom('ledger_balances').select('balance_fen').where('account', '=', account).executeTakeFirst().then((r) => Number(r?.balance_fen ?? 0));
const messagesOf = async (u: Trader) => (await call(t, '/api/user/message/v1/msglist', { pageNum: 1, pageSize: 20, kind: 'order_refunded' }, u.h)).data.list;

describe('a unit whose token id is someone else’s on chain', () => {
  it('is refunded once; the order completes with the units it delivers and the creator is paid for those only', async () => {
    const { projectId } = await makeDrop(t, { supply: 20, priceFen: 1000, perIdentityLimit: 5, maxPerOrder: 5 });
    const creator = await creatorOf(projectId);
    const u = await makeTrader(t);
    const orderNo = await paidOrder(u, projectId, 3);
    const goods = await goodsOf(orderNo);
    expect(goods).toHaveLength(3);
    // The middle unit's token id already exists on chain at another address (e.g. minted outside this database).
    const minter = new FakeMinter();
    minter.tokens.set(String(goods[1]!.token_id), 'cfx:aak2rra2njvd77ezwjvx04kkds9fzagfe6ku8scz91');

    await fulfilAndMint(t, minter);
    expect(await orderStatus(t, orderNo)).toBe('completed');
    const after = await goodsOf(orderNo);
    expect(after.map((g) => [g.chain_status, g.status])).toEqual([['minted', 'held'], ['void', 'burned'], ['minted', 'held']]);
    const o = await t.ctx.db.kysely.selectFrom('orders').selectAll().where('order_no', '=', orderNo).executeTakeFirstOrThrow();
    // 3 × ￥10 with 10 % commission (300) → 2 units: ￥20, commission 200, creator 1800.
    expect(o).toMatchObject({ quantity: 2, price_fen: 2000, commission_fen: 200, seller_income_fen: 1800 });
    expect(o.fail_reason).toMatch(/^not minted: token \d+ already exists on chain at another address$/);
    expect(await balance(t, u)).toBe(1000);
    expect(await ledgerOf(`user:${creator}`)).toBe(1800);
    const refund = await t.ctx.db.kysely.selectFrom('ledger_entries').select(['account', 'amount_fen']).where('txn_id', '=', `refund:${orderNo}:${goods[1]!.id}`).orderBy('account').execute();
    expect(refund.map((e) => [e.account, Number(e.amount_fen)])).toEqual([['escrow', -1000], [`user:${u.userId}`, 1000]]);
    await expectLedgerBalanced(t);

    // The buyer sees it: the order's timeline and items, a message; the console sees the reason.
    const detail = await call(t, '/payment/nftOrder/V1/getNftOrderDetail', { orderNo }, u.h);
    expect(detail.data.drop.items.map((i: { chainStatus: string }) => i.chainStatus)).toEqual(['minted', 'void', 'minted']);
    expect(detail.data.timeline.map((e: { note: string | null }) => e.note ?? '').join('\n')).toContain('1 of 3 unit(s) refunded to balance (￥10.00)');
    const msgs = await messagesOf(u);
    expect(msgs).toHaveLength(1);
    expect(msgs[0]).toMatchObject({ kind: 'order_refunded', title: 'Order refunded', link: '/personal-center/txn-details' });
    expect(msgs[0].body).toBe(`In order ${orderNo} (${detail.data.goods.name.replace(/ #\d+$/, '')}), 1 collectible(s) could not be minted; ￥10.00 has been refunded to your platform balance.`);

    // Stock and quota: 3 taken, 1 voided → 2 sold, supply shown 19, 17 left; the identity bought 2 of 5.
    expect(await stock(t, projectId)).toMatchObject({ supply: 20, taken: 3, paid: 3, voided: 1 });
    const sale = await get(t, `/goods/v1/project/subSale/?id=${projectId}`);
    expect(sale.data).toMatchObject({ supply: 19, sold: 2, remaining: 17 });
    const stint = await get(t, `/official/stint/nowStint/?projectId=${projectId}`, u.h);
    expect(stint.data).toMatchObject({ bought: 2, remaining: 3, supply: 19, sold: 2, stockRemaining: 17 });
    // The voided unit is not the buyer's asset.
    const home = await call(t, '/goods/v1/list/home', { pageNum: 1, pageSize: 50 }, u.h);
    expect(home.data.list.map((g: { id: number }) => g.id).sort()).toEqual([goods[0]!.id, goods[2]!.id].map(Number).sort());

    // Exactly once: another mint pass, and the refund called again.
    expect(await mintPendingGoods(t.ctx, minter)).toBe(0);
    expect(await refundUndeliverableUnits(t.ctx, orderNo, [Number(goods[1]!.id)], 'again')).toBe(0);
    expect(await balance(t, u)).toBe(1000);
    expect(await messagesOf(u)).toHaveLength(1);
    await expectLedgerBalanced(t);
  });
});

describe('a unit whose mint keeps failing', () => {
  it('is retried a minute apart and after DROP_MINT_MAX_FAILURES (3) failures the whole order is refunded', async () => {
    const { projectId } = await makeDrop(t, { supply: 10, priceFen: 1500, perIdentityLimit: 2, maxPerOrder: 2 });
    const u = await makeTrader(t);
    const orderNo = await paidOrder(u, projectId, 1);
    const [g] = await goodsOf(orderNo);
    const minter = new FakeMinter();
    minter.failTokens.add(String(g!.token_id));

    const failures = async () => Number((await t.ctx.db.kysely.selectFrom('goods').select('mint_failures').where('id', '=', g!.id).executeTakeFirstOrThrow()).mint_failures);
    await mintPendingGoods(t.ctx, minter);
    expect(await failures()).toBe(1);
    // Passes within the minute try nothing new.
    await mintPendingGoods(t.ctx, minter);
    await mintPendingGoods(t.ctx, minter);
    expect(await failures()).toBe(1);
    expect(minter.txs.size).toBe(1);
    t.clock.t += MINT_RETRY_MS;
    await mintPendingGoods(t.ctx, minter);
    expect(await failures()).toBe(2);
    expect(await orderStatus(t, orderNo)).toBe('settling');
    t.clock.t += MINT_RETRY_MS;
    await mintPendingGoods(t.ctx, minter);
    expect(minter.txs.size).toBe(3); // three real tries, each under its own key
    expect(await orderStatus(t, orderNo)).toBe('refunded');
    const o = await t.ctx.db.kysely.selectFrom('orders').selectAll().where('order_no', '=', orderNo).executeTakeFirstOrThrow();
    expect(o).toMatchObject({ quantity: 1, price_fen: 1500 });
    expect(o.fail_reason).toBe('not minted: minting failed 3 times (reverted)');
    expect(await balance(t, u)).toBe(1500);
    expect((await goodsOf(orderNo)).map((x) => x.chain_status)).toEqual(['void']);
    expect(await stock(t, projectId)).toMatchObject({ taken: 1, paid: 1, voided: 1 });
    expect((await get(t, `/official/stint/nowStint/?projectId=${projectId}`, u.h)).data).toMatchObject({ bought: 0, remaining: 2, sold: 0, supply: 9, stockRemaining: 9 });
    expect(await messagesOf(u)).toHaveLength(1);
    // Nothing is tried again, and the buyer may buy again with the quota that came back.
    t.clock.t += MINT_RETRY_MS;
    expect(await mintPendingGoods(t.ctx, minter)).toBe(0);
    expect(minter.txs.size).toBe(3);
    await expectLedgerBalanced(t);
    const again = await paidOrder(u, projectId, 2);
    await fulfilAndMint(t, minter);
    expect(await orderStatus(t, again)).toBe('completed');
    expect((await stock(t, projectId))).toMatchObject({ taken: 3, paid: 3, voided: 1 });
    await expectLedgerBalanced(t);
  });
});

describe('receipts (deal records) include primary purchases', () => {
  it('my completed drop orders are listed with market deals, newest first; the public trade list stays market-only', async () => {
    const { projectId } = await makeDrop(t, { supply: 10, priceFen: 800, perIdentityLimit: 5, maxPerOrder: 5 });
    const creator = await creatorOf(projectId);
    const u = await makeTrader(t);
    const orderNo = await paidOrder(u, projectId, 2);
    const minter = new FakeMinter();
    // Not listed before it completes (minting).
    expect((await call(t, '/payment/nftDealRecord/V1/pageListNftDealRecordByParams', { mine: 'all', pageNum: 1, pageSize: 10 }, u.h)).data.total).toBe(0);
    await fulfilAndMint(t, minter);
    expect(await orderStatus(t, orderNo)).toBe('completed');
    const goods = await goodsOf(orderNo);
    const mine = await call(t, '/payment/nftDealRecord/V1/pageListNftDealRecordByParams', { mine: 'buy', pageNum: 1, pageSize: 10 }, u.h);
    expect(mine.data.total).toBe(1);
    expect(mine.data.list[0]).toMatchObject({ kind: 'drop', orderNo, goodsId: Number(goods[0]!.id), quantity: 2, priceFen: 1600, txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(mine.data.list[0].explorerUrl).toContain(mine.data.list[0].txHash);
    expect((await call(t, '/payment/nftDealRecord/V1/pageListNftDealRecordByParams', { mine: 'sell', pageNum: 1, pageSize: 10 }, u.h)).data.total).toBe(0);
    // The creator's receipts show the primary sale.
    const creatorToken = await import('../src/modules/accounts/sessions.ts').then((m) => m.createSession(t.ctx, creator));
    const sold = await call(t, '/payment/nftDealRecord/V1/pageListNftDealRecordByParams', { mine: 'sell', pageNum: 1, pageSize: 10 }, { token: creatorToken });
    expect(sold.data.list.map((d: { orderNo: string }) => d.orderNo)).toContain(orderNo);
    // The asset page's public trade list is the consignment market's only.
    expect((await call(t, '/payment/nftDealRecord/V1/pageListNftDealRecordByParams', { goodsId: Number(goods[0]!.id), pageNum: 1, pageSize: 10 })).data.total).toBe(0);
    // Paging over the merge: two more purchases, pages of one, newest first.
    const o2 = await paidOrder(u, projectId, 1);
    t.clock.t += 1000;
    await fulfilAndMint(t, minter);
    const p1 = await call(t, '/payment/nftDealRecord/V1/pageListNftDealRecordByParams', { mine: 'all', pageNum: 1, pageSize: 1 }, u.h);
    const p2 = await call(t, '/payment/nftDealRecord/V1/pageListNftDealRecordByParams', { mine: 'all', pageNum: 2, pageSize: 1 }, u.h);
    expect([p1.data.total, p1.data.list[0].orderNo, p2.data.list[0].orderNo]).toEqual([2, o2, orderNo]);
  });
});
