import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireDueOrders } from '../src/modules/orders/close-order.ts';
import { dropStockSnapshot } from '../src/modules/drops/stock.ts';
import { mintPendingGoods } from '../src/modules/drops/mint-batches.ts';
import { setDropPhases } from '../src/modules/drops/phases.ts';
import { importWhitelist } from '../src/modules/drops/whitelist.ts';
import { ledgerProblems } from '../src/modules/ledger/ledger.ts';
import { call, type TestApp } from './helpers.ts';
import { expectLedgerBalanced, get, makeTrader, orderStatus, type FakeChain, type Trader } from './market-helpers.ts';
import { buy, FakeMinter, fulfilAndMint, makeDrop, makeDropApp, sameIdentity, stock } from './drops-helpers.ts';
import { phasesAt, setPhases, whitelist } from './drop-phases-helpers.ts';

/**
 * Sale phases, whitelist and the free claim (issue #10, docs/drops.md "Sale phases") through the
 * API on a real database (SQLite, or PostgreSQL with TEST_PG_URL): phase gating by server time
 * (the test clock moves), the whitelist quota shared by the accounts of one ID number and taken
 * atomically, the free claim minted exactly once with the ledger untouched, never oversold across
 * phases. CSV import: drop-whitelist-import.test.ts; the lottery: drop-lottery.test.ts.
 */
let t: TestApp & { chain: FakeChain };
beforeAll(async () => {
  t = await makeDropApp();
});
afterAll(async () => {
  await t?.close();
});

const nftmint = (u: Trader, projectId: number, count?: number) => call(t, '/api/user/mint/v1/nftmint', count === undefined ? { projectId } : { projectId, count }, u.h);
const mintinfo = (u: Trader, projectId: number) => call(t, '/api/user/mint/v1/mintinfo', { projectId }, u.h);
const wlStatus = (u: Trader, projectId: number) => call(t, '/api/user/mint/v1/whitelist', { projectId }, u.h);
const stint = (u: Trader, projectId: number) => get(t, `/official/stint/nowStint/?projectId=${projectId}`, u.h);

describe('phase gating by server time', () => {
  it('whitelist priority phase, then public: who may buy and at which price follows the clock', async () => {
    const { projectId } = await makeDrop(t, { supply: 20, priceFen: 1000, perIdentityLimit: 2, maxPerOrder: 5 });
    const wl = await makeTrader(t);
    const other = await makeTrader(t);
    await whitelist(t, projectId, [[wl, 3]]);
    await setPhases(t, projectId, phasesAt(t, [
      { kind: 'whitelist', from: 10, to: 20, priceFen: 800 },
      { kind: 'public', from: 20 },
    ]));
    // before the first phase
    expect(await buy(t, wl, projectId, 1)).toMatchObject({ status: '1024', message: 'the sale has not started yet' });
    t.clock.t += 10_000; // the whitelist phase opens, exactly at its start
    expect(await buy(t, other, projectId, 1, { lang: 'zh' })).toMatchObject({ status: '1025', message: '当前为白名单优先购买阶段，仅白名单用户可购买' });
    // one order is still capped by the release's max per order (≤ its limit, 2)
    expect(await buy(t, wl, projectId, 3)).toMatchObject({ status: '1001', message: 'at most 2 per order' });
    const o = await buy(t, wl, projectId, 2);
    expect(o, o.message).toMatchObject({ status: '000000', data: { priceFen: 1600, drop: { quantity: 2, unitPriceFen: 800 } } });
    expect((await buy(t, wl, projectId, 1)).status).toBe('000000');
    const row = await t.ctx.db.kysely.selectFrom('orders').select(['quota_bucket']).where('order_no', '=', o.data.orderNo).executeTakeFirstOrThrow();
    expect(row.quota_bucket).toBe('whitelist');
    expect(await buy(t, wl, projectId, 1)).toMatchObject({ status: '1023', message: 'your whitelist quota is used up (3 in total)' });
    expect((await stint(wl, projectId)).data).toMatchObject({ phaseKind: 'whitelist', limit: 3, bought: 3, remaining: 0 });
    t.clock.t += 9_999; // still the whitelist phase
    expect((await buy(t, other, projectId, 1)).status).toBe('1025');
    t.clock.t += 1; // public, at the release limit and the phase price; the whitelist purchase does not count against it
    const p = await buy(t, other, projectId, 2);
    expect(p, p.message).toMatchObject({ status: '000000', data: { drop: { unitPriceFen: 1000 } } });
    expect((await buy(t, wl, projectId, 2)).status).toBe('000000');
    expect(await buy(t, wl, projectId, 1)).toMatchObject({ status: '1023', message: 'purchase limit reached (2 per person)' });
    expect((await stint(wl, projectId)).data).toMatchObject({ phaseKind: 'public', limit: 2, bought: 2 });
    expect((await stock(t, projectId)).taken).toBe(7);
    await expectLedgerBalanced(t);
  });

  it('answers before the start, in the claim phase, in a gap and after the end with 1024', async () => {
    const { projectId } = await makeDrop(t, { supply: 20 });
    const u = await makeTrader(t);
    await whitelist(t, projectId, [[u, 1]]);
    await setPhases(t, projectId, phasesAt(t, [
      { kind: 'claim', from: 5, to: 10 },
      { kind: 'public', from: 20, to: 30 },
    ]));
    expect(await nftmint(u, projectId)).toMatchObject({ status: '1024', message: 'the sale has not started yet' });
    t.clock.t += 5_000;
    expect(await buy(t, u, projectId, 1)).toMatchObject({ status: '1024', message: 'this phase is a free claim for whitelisted users: claim on the mint page' });
    t.clock.t += 10_000; // between the phases
    expect(await buy(t, u, projectId, 1)).toMatchObject({ status: '1024', message: 'nothing can be bought at this moment; see the sale phases' });
    expect(await nftmint(u, projectId)).toMatchObject({ status: '1024', message: 'the free claim is not open now' });
    t.clock.t += 15_000; // after the last phase: the release's sale end
    expect(await buy(t, u, projectId, 1)).toMatchObject({ status: '1024', message: 'the sale has ended' });
  });

  it('refuses invalid phase plans and changes once the sale has started', async () => {
    const { projectId } = await makeDrop(t);
    const bad: [Parameters<typeof phasesAt>[1], string][] = [
      [[{ kind: 'whitelist', from: 10, to: 5 }], 'phase 1: it must end after it starts'],
      [[{ kind: 'whitelist', from: 0, to: 10 }, { kind: 'public', from: 5 }], 'phase 2: it overlaps the phase before'],
      [[{ kind: 'claim', from: 0, to: 10, priceFen: 100 }], 'phase 1: a free claim costs 0'],
      [[{ kind: 'whitelist', from: 0 }, { kind: 'public', from: 20 }], 'phase 1: an end time is needed'],
      [[{ kind: 'lottery_rights' }], 'phase 1: lottery_rights must follow lottery_signup'],
      [[{ kind: 'lottery_signup', from: 10, to: 20 }, { kind: 'lottery_rights' }], 'a lottery needs its draw epoch, winners, quota and rights minutes'],
    ];
    for (const [phases, reason] of bad) {
      await expect(setPhases(t, projectId, phasesAt(t, phases))).rejects.toMatchObject({ status: '1001', vars: { reason } });
    }
    await setPhases(t, projectId, phasesAt(t, [{ kind: 'public', from: 0 }]));
    await expect(setPhases(t, projectId, phasesAt(t, [{ kind: 'public', from: 10 }]))).rejects.toMatchObject({ vars: { reason: 'the sale has started' } });
  });
});

describe('the whitelist quota', () => {
  it('is shared by the accounts of one ID number (the largest entry, not the sum) and comes back on expiry', async () => {
    const { projectId } = await makeDrop(t, { supply: 50, maxPerOrder: 5 });
    const a = await makeTrader(t);
    const b = await makeTrader(t);
    await sameIdentity(t, a, b);
    await whitelist(t, projectId, [[a, 3]]);
    await setPhases(t, projectId, phasesAt(t, [{ kind: 'whitelist', from: 0, to: 60 }, { kind: 'public', from: 60 }]));
    // b is not listed itself, but its identity is
    expect((await wlStatus(b, projectId)).data).toMatchObject({ whitelisted: true, quota: 3, used: 0, remaining: 3, verified: true });
    const o1 = await buy(t, a, projectId, 2);
    expect(o1.status).toBe('000000');
    expect(await buy(t, b, projectId, 2)).toMatchObject({ status: '1023', message: 'over your whitelist quota: you can get 1 more' });
    expect((await buy(t, b, projectId, 1)).status).toBe('000000');
    expect((await wlStatus(a, projectId)).data).toMatchObject({ used: 3, remaining: 0 });
    // listing the second account too: the identity's quota is the larger entry (5), not 3 + 5
    await whitelist(t, projectId, [[b, 5]]);
    expect((await wlStatus(a, projectId)).data).toMatchObject({ quota: 5, used: 3, remaining: 2 });
    // the unpaid order expires: its units return to the whitelist bucket
    t.clock.t += t.ctx.config.market.paymentWindowMs + 1;
    await expireDueOrders(t.ctx);
    expect(await orderStatus(t, o1.data.orderNo)).toBe('expired');
    expect((await wlStatus(a, projectId)).data).toMatchObject({ used: 0, remaining: 5 });
    const q = await t.ctx.db.kysely.selectFrom('drop_quota').select('taken').where('project_id', '=', projectId).execute();
    expect(q).toEqual([]); // the release limit was never touched
    dropStockSnapshot(t.ctx, projectId);
    expect((await stock(t, projectId)).taken).toBe(0);
  });

  it('concurrent buys by three accounts of one identity never exceed its quota', async () => {
    const { projectId } = await makeDrop(t, { supply: 100, maxPerOrder: 5 });
    const accounts = [await makeTrader(t), await makeTrader(t), await makeTrader(t)];
    await sameIdentity(t, accounts[0]!, accounts[1]!);
    await sameIdentity(t, accounts[0]!, accounts[2]!);
    await whitelist(t, projectId, [[accounts[0]!, 7]]);
    await setPhases(t, projectId, phasesAt(t, [{ kind: 'whitelist', from: 0, to: 600 }]));
    const answers = await Promise.all(accounts.flatMap((u) => Array.from({ length: 8 }, (_, i) => buy(t, u, projectId, 1 + (i % 2)))));
    expect(answers.every((r) => ['000000', '1023', '1021'].includes(r.status))).toBe(true);
    const taken = answers.filter((r) => r.status === '000000').reduce((s, r) => s + Number(r.data.drop.quantity), 0);
    expect(taken).toBeLessThanOrEqual(7);
    const orders = await t.ctx.db.kysely.selectFrom('orders').select('quantity').where('project_id', '=', projectId).execute();
    expect(orders.reduce((s, o) => s + Number(o.quantity), 0)).toBe(taken);
    expect((await stock(t, projectId)).taken).toBe(taken);
    const bucket = await t.ctx.db.kysely.selectFrom('drop_phase_quota').select('taken').where('project_id', '=', projectId).executeTakeFirstOrThrow();
    expect(Number(bucket.taken)).toBe(taken);
    // retry until the quota is used: exactly 7 in the end
    for (const u of accounts) while ((await buy(t, u, projectId, 1)).status === '000000');
    expect(Number((await t.ctx.db.kysely.selectFrom('drop_phase_quota').select('taken').where('project_id', '=', projectId).executeTakeFirstOrThrow()).taken)).toBe(7);
  });

  it('an entry for a user without a real name counts once they verify', async () => {
    const { projectId } = await makeDrop(t, { supply: 10 });
    const u = await makeTrader(t, 'no-realname');
    await whitelist(t, projectId, [[u, 2]]);
    await setPhases(t, projectId, phasesAt(t, [{ kind: 'whitelist', from: 0, to: 600 }]));
    expect((await wlStatus(u, projectId)).data).toMatchObject({ whitelisted: true, quota: 2, used: 0, verified: false });
    expect((await buy(t, u, projectId, 1)).status).toBe('1011');
    // the user verifies (as the KYC flow would record it)
    const donor = await makeTrader(t);
    const rn = await t.ctx.db.kysely.selectFrom('realname').selectAll().where('user_id', '=', donor.userId).executeTakeFirstOrThrow();
    await t.ctx.db.kysely.insertInto('realname').values({ ...rn, user_id: u.userId, id_digest: `${rn.id_digest.slice(0, -4)}beef` }).execute();
    await t.ctx.db.kysely.updateTable('users').set({ is_realname: 1 }).where('id', '=', u.userId).execute();
    expect((await buy(t, u, projectId, 2)).status).toBe('000000');
    expect((await wlStatus(u, projectId)).data).toMatchObject({ verified: true, used: 2, remaining: 0 });
  });
});

describe('the free claim (nftmint)', () => {
  it('mints free to a whitelisted identity exactly once: paid at once, fulfilled, minted, completed; the ledger moves nothing', async () => {
    const { projectId } = await makeDrop(t, { supply: 5, priceFen: 1000 });
    const u = await makeTrader(t);
    const twin = await makeTrader(t);
    await sameIdentity(t, u, twin);
    const stranger = await makeTrader(t);
    await whitelist(t, projectId, [[u, 1]]);
    await setPhases(t, projectId, phasesAt(t, [{ kind: 'claim', from: 0, to: 600 }, { kind: 'public', from: 600 }]));
    expect((await mintinfo(u, projectId)).data).toMatchObject({ current: 0, phases: [{ kind: 'claim', priceFen: 0, state: 'active' }, { kind: 'public', state: 'upcoming' }], my: { eligible: true, whitelisted: true, quota: 1, used: 0, remaining: 1 } });
    expect(await nftmint(stranger, projectId)).toMatchObject({ status: '1025', message: 'you are not on the whitelist of this release' });
    // both accounts of the identity claim at once, twice each: one claim in all
    const answers = await Promise.all([nftmint(u, projectId), nftmint(twin, projectId), nftmint(u, projectId), nftmint(twin, projectId)]);
    const okd = answers.filter((r) => r.status === '000000');
    expect(okd).toHaveLength(1);
    expect(answers.filter((r) => r.status !== '000000').every((r) => r.status === '1023')).toBe(true);
    expect(okd[0]).toMatchObject({ message: 'claimed: your collectible is being minted', data: { kind: 'drop', status: 'paid', priceFen: 0, commissionFen: 0, drop: { quantity: 1, unitPriceFen: 0 } } });
    const orderNo = okd[0]!.data.orderNo as string;
    expect((await mintinfo(u, projectId)).data.my).toMatchObject({ used: 1, remaining: 0, eligible: false });
    // fulfilled and minted like a paid order; running the jobs again creates nothing more
    const minter = new FakeMinter();
    await fulfilAndMint(t, minter);
    await fulfilAndMint(t, minter);
    expect(await orderStatus(t, orderNo)).toBe('completed');
    const goods = await t.ctx.db.kysely.selectFrom('goods').select(['owner_user_id', 'serial', 'chain_status']).where('project_id', '=', projectId).execute();
    expect(goods).toHaveLength(1);
    expect(goods[0]).toMatchObject({ serial: 1, chain_status: 'minted' });
    expect([u.userId, twin.userId]).toContain(Number(goods[0]!.owner_user_id));
    expect(await mintPendingGoods(t.ctx, minter)).toBe(0);
    // nothing was paid: no payment, the settle record has no entries, the ledger holds
    expect(await t.ctx.db.kysely.selectFrom('payments').selectAll().where('order_no', '=', orderNo).execute()).toEqual([]);
    expect(await t.ctx.db.kysely.selectFrom('ledger_entries').selectAll().where('txn_id', 'like', `%${orderNo}`).execute()).toEqual([]);
    await expectLedgerBalanced(t);
    const s = await stock(t, projectId);
    expect(s).toMatchObject({ taken: 1, paid: 1 });
    // the claim order cannot be cancelled (nothing to pay, already fulfilled)
    const owner = Number(goods[0]!.owner_user_id) === u.userId ? u : twin;
    expect((await call(t, '/payment/nftOrder/V1/cannelOrder', { orderNo }, owner.h)).status).toBe('1015');
  });

  it('claims several units within the quota, bounded by the stock', async () => {
    const { projectId } = await makeDrop(t, { supply: 3, maxPerOrder: 5 });
    const u = await makeTrader(t);
    const v = await makeTrader(t);
    await whitelist(t, projectId, [[u, 2], [v, 5]]);
    await setPhases(t, projectId, phasesAt(t, [{ kind: 'claim', from: 0, to: 600 }]));
    expect((await nftmint(u, projectId, 3)).status).toBe('1023');
    expect((await nftmint(u, projectId, 2)).status).toBe('000000');
    expect(await nftmint(v, projectId, 2)).toMatchObject({ status: '1022', message: 'not enough left: only 1 remaining' });
    expect((await nftmint(v, projectId, 1)).status).toBe('000000');
    expect(await nftmint(v, projectId, 1)).toMatchObject({ status: '1022', message: 'sold out' });
    expect(await call(t, '/api/user/mint/v1/nftmint', { projectId, count: 0 }, u.h)).toMatchObject({ http: 400, status: '1001' });
    expect(await call(t, '/api/user/mint/v1/nftmint', { projectId })).toMatchObject({ status: '1100' });
    await expectLedgerBalanced(t);
  });
});

describe('never oversold across phases', () => {
  it('whitelist, claim and public phases share one stock: 40 buyers racing for what is left get exactly that', async () => {
    const app = await makeDropApp({ DROP_MAX_IN_FLIGHT: '8' });
    try {
      const { projectId } = await makeDrop(app, { supply: 12, perIdentityLimit: 2, maxPerOrder: 2 });
      const wl = await makeTrader(app);
      const claimer = await makeTrader(app);
      const lines = await Promise.all([wl, claimer].map(async (u) => (await app.ctx.db.kysely.selectFrom('users').select('account_id').where('id', '=', u.userId).executeTakeFirstOrThrow()).account_id));
      await importWhitelist(app.ctx, projectId, `${lines[0]},5\n${lines[1]},3`, { now: app.clock.t });
      const now = app.clock.t;
      await setDropPhases(app.ctx, projectId, [
        { kind: 'claim', startAt: now, endAt: now + 10_000 },
        { kind: 'whitelist', startAt: now + 10_000, endAt: now + 20_000 },
        { kind: 'public', startAt: now + 20_000 },
      ]);
      expect((await call(app, '/api/user/mint/v1/nftmint', { projectId, count: 2 }, claimer.h)).status).toBe('000000');
      app.clock.t += 10_000;
      for (const n of [2, 2, 1]) expect((await buy(app, wl, projectId, n)).status).toBe('000000');
      app.clock.t += 10_000;
      const crowd = await Promise.all(Array.from({ length: 40 }, () => makeTrader(app)));
      const answers: string[] = [];
      await Promise.all(
        crowd.map(async (u) => {
          for (let i = 0; i < 100; i++) {
            const r = await buy(app, u, projectId, 1 + (i % 2));
            answers.push(r.status);
            if (r.status !== '1021') return;
            await new Promise((res) => setTimeout(res, 10 + Math.random() * 20));
          }
        }),
      );
      expect(answers.every((s) => ['000000', '1021', '1022'].includes(s))).toBe(true);
      const s = await stock(app, projectId);
      expect(s).toMatchObject({ supply: 12, taken: 12 });
      const orders = await app.ctx.db.kysely.selectFrom('orders').select('quantity').where('project_id', '=', projectId).execute();
      expect(orders.reduce((a, o) => a + Number(o.quantity), 0)).toBe(12);
      expect(await ledgerProblems(app.ctx.db.kysely)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

describe('GET /official/mint/', () => {
  it('answers the public mint page data with code 200, one release or the list of current ones', async () => {
    const { projectId } = await makeDrop(t, { supply: 8, priceFen: 500 });
    await setPhases(t, projectId, phasesAt(t, [{ kind: 'whitelist', from: 30, to: 90, priceFen: 400 }, { kind: 'public', from: 90 }]));
    const one = await get(t, `/official/mint/?projectId=${projectId}`);
    expect(one).toMatchObject({ status: '000000', code: 200 });
    expect(one.data.serverTime).toBe(t.clock.t);
    expect(one.data.list[0]).toMatchObject({
      projectId, priceFen: 500, supply: 8, minted: 0, remaining: 8, status: 'upcoming', current: null, lottery: null,
      phases: [
        { seq: 0, kind: 'whitelist', startAt: t.clock.t + 30_000, endAt: t.clock.t + 90_000, priceFen: 400, quotaSource: 'whitelist', state: 'upcoming' },
        { seq: 1, kind: 'public', startAt: t.clock.t + 90_000, endAt: null, priceFen: 500, quotaSource: 'release', state: 'upcoming' },
      ],
    });
    const all = await get(t, '/official/mint/');
    expect(all.data.list.map((r: { projectId: number }) => r.projectId)).toContain(projectId);
    expect(await get(t, '/official/mint/?projectId=999999999')).toMatchObject({ http: 404, status: '1404' });
    expect(await get(t, '/official/mint/?projectId=x')).toMatchObject({ http: 400, status: '1001' });
    // the release page's sale window follows the phases
    const sale = await get(t, `/goods/v1/project/subSale/?id=${projectId}`);
    expect(sale.data).toMatchObject({ status: 'upcoming', saleStartAt: t.clock.t + 30_000 });
  });
});
