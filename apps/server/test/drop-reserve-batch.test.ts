import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type KyselyPlugin } from 'kysely';
import type { OrderDetail } from '@cfx/contract/market.ts';
import { orderDetailOf } from '../src/modules/orders/index.ts';
import type { TestApp } from './helpers.ts';
import { reserveInBatch, writeBatch, type Reservation } from '../src/modules/drops/reserve-batch.ts';
import { call, dbKind } from './helpers.ts';
import { balance, expectLedgerBalanced, makeTrader, topup, type FakeChain, type Trader } from './market-helpers.ts';
import { buy, FakeMinter, makeDrop, makeDropApp, sameIdentity, stock } from './drops-helpers.ts';
import { completeInTx, completeMintedDropOrders } from '../src/modules/drops/complete-drop-order.ts';
import { mintPendingGoods } from '../src/modules/drops/mint-batches.ts';
import { postTxns } from '../src/modules/ledger/ledger.ts';
import { writeFulfilment } from '../src/modules/drops/fulfil-drop-order.ts';
import { commitSerials, peekSerials } from '../src/modules/drops/stock.ts';
import { expireDueOrders } from '../src/modules/orders/close-order.ts';

/**
 * The group commit of drop reservations (reserve-batch.ts) on a real database (SQLite, or PostgreSQL
 * with TEST_PG_URL): hundreds of createOrders at once never oversell and never exceed the limit of an
 * identity, members of one batch get their own answers, and a member that fails does not take the
 * others down.
 *
 * The statements one createOrder runs (docs/drops.md "Under load"): counted with a Kysely plugin on
 * the app's handle (every built or raw query) and the compiled-query path (session lookup), plus the
 * transactions it opens. Warm: the release, settings and phase caches are filled by an earlier call.
 */
function countStatements(t: TestApp) {
  const counts = { statements: 0, transactions: 0, sql: [] as string[], openedBy: [] as string[] };
  const plugin: KyselyPlugin = {
    transformQuery: (a) => {
      counts.statements++;
      counts.sql.push(a.node.kind);
      return a.node;
    },
    transformResult: async (a) => a.result,
  };
  const db = t.ctx.db;
  const orig = db.kysely;
  const counted = orig.withPlugin(plugin);
  const tx = counted.transaction.bind(counted);
  counted.transaction = () => {
    counts.transactions++;
    counts.openedBy.push(new Error().stack ?? '');
    return tx();
  };
  const run = db.run;
  db.kysely = counted;
  db.run = (q, p) => {
    counts.statements++;
    counts.sql.push('compiled');
    return run(q, p);
  };
  return {
    counts,
    restore() {
      db.kysely = orig;
      db.run = run;
    },
  };
}

let t: TestApp & { chain: FakeChain };
beforeAll(async () => {
  t = await makeDropApp();
});
afterAll(async () => {
  await t?.close();
});

describe('createOrder statements', () => {
  it('counts the SQL of one warm createOrder', async () => {
    const { projectId } = await makeDrop(t, { supply: 100 });
    const warm = await makeTrader(t);
    expect((await buy(t, warm, projectId, 1)).status).toBe('000000');
    const u = await makeTrader(t);
    // PostgreSQL reports the setup's writes (the new user's real name, …) to the caches by NOTIFY, which arrives
    // a little later: one arriving during the counted call empties a cache between its lookup and its store, and
    // the call's second check then reads again (one statement more, rightly). Let them arrive first.
    await new Promise((r) => setTimeout(r, 300));
    const c = countStatements(t);
    let res: Awaited<ReturnType<typeof buy>>;
    try {
      res = await buy(t, u, projectId, 1);
    } finally {
      c.restore();
    }
    expect(res.status).toBe('000000');
    console.log(`createOrder: ${c.counts.statements} statements, ${c.counts.transactions} transaction(s): ${c.counts.sql.join(' ')}`);
    // Before the group commit and the caches: 11 (session, gate, real name, settings, quota, order, event, stock, 3 reads of the answer) + BEGIN/COMMIT.
    // Now: the session with the gate's row (one lookup, kyc/require-trader.ts), and alone in its batch
    // quota, order, event, stock in one transaction — on PostgreSQL one statement instead
    // (drop_reserve_batch, migration 0035: atomic on its own).
    const pg = t.ctx.db.dialect === 'postgres';
    expect(c.counts.statements).toBe(pg ? 2 : 5);
    expect(c.counts.transactions).toBe(pg ? 0 : 1);
  });

  it('counts the SQL of one cancellation', async () => {
    const { projectId } = await makeDrop(t, { supply: 100 });
    const u = await makeTrader(t);
    const o = await buy(t, u, projectId, 1);
    expect(o.status).toBe('000000');
    await new Promise((r) => setTimeout(r, 300));
    const c = countStatements(t);
    let res: Awaited<ReturnType<typeof call>>;
    try {
      res = await call(t, '/payment/nftOrder/V1/cannelOrder', { orderNo: o.data.orderNo }, u.h);
    } finally {
      c.restore();
    }
    expect(res.status).toBe('000000');
    console.log(`cancel: ${c.counts.statements} statements, ${c.counts.transactions} transaction(s): ${c.counts.sql.join(' ')}`);
    // Before: 11 on both (the order read again in the transaction and again for the units, its goods read for the
    // answer) and on PostgreSQL the stock row held from its update to the COMMIT. Now: the buyer's order read, in one
    // transaction the move with its event (PostgreSQL: one statement), the quota and the stock (PostgreSQL: a returns
    // row, folded after the commit by a statement of its own), then the answer's order and timeline.
    expect(c.counts.sql).toEqual(
      t.ctx.db.dialect === 'postgres'
        ? ['SelectQueryNode', 'InsertQueryNode', 'UpdateQueryNode', 'InsertQueryNode', 'RawNode', 'SelectQueryNode', 'SelectQueryNode']
        : ['SelectQueryNode', 'UpdateQueryNode', 'InsertQueryNode', 'UpdateQueryNode', 'UpdateQueryNode', 'SelectQueryNode', 'SelectQueryNode'],
    );
    expect(c.counts.transactions).toBe(1);
    expect(await stock(t, projectId)).toMatchObject({ taken: 0 });
  });

  it('answers the new order exactly as reading it back does', async () => {
    const { projectId } = await makeDrop(t, { supply: 10, perIdentityLimit: 2, maxPerOrder: 2 });
    const u = await makeTrader(t);
    const res = await buy(t, u, projectId, 2);
    expect(res.status).toBe('000000');
    const detail = res.data as OrderDetail;
    const read = JSON.parse(JSON.stringify(await orderDetailOf(t.ctx, detail.orderNo, u.userId))) as OrderDetail;
    expect({ ...detail, serverTime: 0, remainingMs: 0 }).toEqual({ ...read, serverTime: 0, remainingMs: 0 });
    expect(detail.timeline).toHaveLength(1);
  });
});

async function identityOf(t: TestApp, u: Trader) {
  const r = await t.ctx.db.kysely.selectFrom('realname').select('id_digest').where('user_id', '=', u.userId).executeTakeFirstOrThrow();
  return r.id_digest;
}

async function reservation(t: TestApp, projectId: number, u: Trader, quantity: number): Promise<Reservation> {
  const now = t.ctx.now();
  return {
    projectId, quantity, unitPriceFen: 1000, totalFen: 1000 * quantity, commissionFen: 0, creatorFen: 1000 * quantity, buyerUserId: u.userId, creatorUserId: u.userId,
    buyerAddress: u.address, identity: await identityOf(t, u), expiresAt: now + 60_000, now, terms: { bucket: null, limit: 2, unitPriceFen: 1000, phase: null },
  };
}

async function quotaOf(t: TestApp, projectId: number, u: Trader) {
  const r = await t.ctx.db.kysely.selectFrom('drop_quota').select('taken').where('project_id', '=', projectId).where('identity_digest', '=', await identityOf(t, u)).executeTakeFirst();
  return Number(r?.taken ?? 0);
}

describe('group commit', () => {
  it('hundreds of createOrders at once: batched, never oversold, never over an identity limit', async () => {
    const app = await makeDropApp({ DROP_MAX_IN_FLIGHT: '1000' });
    try {
      const { projectId } = await makeDrop(app, { supply: 150, perIdentityLimit: 2, maxPerOrder: 2 });
      const buyers = await Promise.all(Array.from({ length: 240 }, () => makeTrader(app)));
      // Every third account shares the ID number of the account before it.
      for (let i = 2; i < buyers.length; i += 3) await sameIdentity(app, buyers[i - 1]!, buyers[i]!);
      const c = countStatements(app);
      let answers: { status: string; message: string; http: number }[];
      try {
        answers = await Promise.all(buyers.flatMap((u, i) => [buy(app, u, projectId, 1 + (i % 2)), buy(app, u, projectId, 1)]));
      } finally {
        c.restore();
      }
      for (const a of answers) expect(a.http).toBeLessThan(500);
      expect(new Set(answers.map((a) => a.status))).toSatisfy((s: Set<string>) => [...s].every((x) => ['000000', '1022', '1023'].includes(x)));
      const ok = answers.filter((a) => a.status === '000000').length;
      expect(c.counts.transactions).toBeLessThan(ok / 4); // reservations shared transactions
      expect(await stock(app, projectId)).toMatchObject({ supply: 150, taken: 150 });
      const orders = await app.ctx.db.kysely.selectFrom('orders').select(['quantity', 'identity_digest']).where('project_id', '=', projectId).execute();
      expect(orders).toHaveLength(ok);
      expect(orders.reduce((a, o) => a + Number(o.quantity), 0)).toBe(150);
      const byIdentity = new Map<string, number>();
      for (const o of orders) byIdentity.set(o.identity_digest!, (byIdentity.get(o.identity_digest!) ?? 0) + Number(o.quantity));
      expect(Math.max(...byIdentity.values())).toBeLessThanOrEqual(2);
      const quota = await app.ctx.db.kysely.selectFrom('drop_quota').select(['identity_digest', 'taken']).where('project_id', '=', projectId).execute();
      for (const q of quota) expect(Number(q.taken)).toBe(byIdentity.get(q.identity_digest) ?? 0);
      expect(answers.some((a) => a.status === '1023' && /limit/.test(a.message))).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('one batch: each member its own answer, served in arrival order from what the stock row says is left', async () => {
    const { projectId } = await makeDrop(t, { supply: 3, perIdentityLimit: 2, maxPerOrder: 2 });
    const [a, b, c] = [await makeTrader(t), await makeTrader(t), await makeTrader(t)];
    const out = await writeBatch(t.ctx, [await reservation(t, projectId, a, 2), await reservation(t, projectId, b, 2), await reservation(t, projectId, a, 1), await reservation(t, projectId, c, 1)]);
    expect(out.map((o) => (o.ok ? 'ok' : o.why))).toEqual(['ok', 'stock', 'quota', 'ok']);
    expect((await stock(t, projectId)).taken).toBe(3);
    expect([await quotaOf(t, projectId, a), await quotaOf(t, projectId, b), await quotaOf(t, projectId, c)]).toEqual([2, 0, 1]); // b's units went back
    const orders = await t.ctx.db.kysely.selectFrom('orders').select(['order_no', 'buyer_user_id', 'quantity']).where('project_id', '=', projectId).orderBy('buyer_user_id').execute();
    expect(orders.map((o) => [Number(o.buyer_user_id), Number(o.quantity)])).toEqual([[a.userId, 2], [c.userId, 1]]);
    const events = await t.ctx.db.kysely.selectFrom('order_events').select('order_no').where('order_no', 'in', orders.map((o) => o.order_no)).execute();
    expect(events).toHaveLength(2);
  });

  it('a member that fails (its user is gone) does not lose the others of its batch', async () => {
    const { projectId } = await makeDrop(t, { supply: 10, perIdentityLimit: 2, maxPerOrder: 2 });
    const users = [await makeTrader(t), await makeTrader(t), await makeTrader(t)];
    const rs = await Promise.all(users.map((u) => reservation(t, projectId, u, 1)));
    rs[1] = { ...rs[1]!, buyerUserId: 987_654_321 }; // no such user: the orders insert breaks its foreign key
    const settled = await Promise.allSettled(rs.map((r) => reserveInBatch(t.ctx, r)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(settled.filter((s) => s.status === 'fulfilled').every((s) => (s as PromiseFulfilledResult<{ ok: boolean }>).value.ok)).toBe(true);
    expect((await stock(t, projectId)).taken).toBe(2);
    expect(await quotaOf(t, projectId, users[1]!)).toBe(0);
    expect(await t.ctx.db.kysely.selectFrom('orders').select('order_no').where('project_id', '=', projectId).execute()).toHaveLength(2);
  });

  it('batches written at the same time (as by several server processes) never oversell, never deadlock', async () => {
    const { projectId } = await makeDrop(t, { supply: 100, perIdentityLimit: 2, maxPerOrder: 2 });
    const users = await Promise.all(Array.from({ length: 60 }, () => makeTrader(t)));
    const base = await Promise.all(users.map((u, i) => reservation(t, projectId, u, 1 + (i % 2))));
    // 6 batches of 40 members each, drawn from the same 60 identities in different orders: overlapping quota rows.
    const batches = Array.from({ length: 6 }, (_, b) => Array.from({ length: 40 }, (_, k) => base[(k * (b + 1) * 7 + b * 13) % base.length]!));
    const settled = await Promise.allSettled(batches.map((rs) => writeBatch(t.ctx, rs)));
    for (const r of settled) if (r.status === 'rejected') throw r.reason; // no deadlock, no lock timeout
    const ok = settled.flatMap((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof writeBatch>>>).value).filter((o) => o.ok).length;
    const orders = await t.ctx.db.kysely.selectFrom('orders').select(['quantity', 'identity_digest']).where('project_id', '=', projectId).execute();
    expect(orders).toHaveLength(ok);
    const units = orders.reduce((a, o) => a + Number(o.quantity), 0);
    expect((await stock(t, projectId)).taken).toBe(units);
    expect(units).toBeLessThanOrEqual(100);
    const byIdentity = new Map<string, number>();
    for (const o of orders) byIdentity.set(o.identity_digest!, (byIdentity.get(o.identity_digest!) ?? 0) + Number(o.quantity));
    expect(Math.max(...byIdentity.values())).toBeLessThanOrEqual(2);
    const quota = await t.ctx.db.kysely.selectFrom('drop_quota').select(['identity_digest', 'taken']).where('project_id', '=', projectId).execute();
    for (const q of quota) expect(Number(q.taken)).toBe(byIdentity.get(q.identity_digest) ?? 0);
  });
});

describe('group commit of balance payments', () => {
  it('pays at once in shared transactions; a short balance, a closed order and a double pay get their own answers', async () => {
    const { projectId } = await makeDrop(t, { supply: 200, priceFen: 1000, perIdentityLimit: 2, maxPerOrder: 2 });
    const users = await Promise.all(Array.from({ length: 80 }, () => makeTrader(t)));
    const orders: string[] = [];
    for (const u of users) {
      const r = await buy(t, u, projectId, 1);
      expect(r.status).toBe('000000');
      orders.push(r.data.orderNo);
    }
    for (const u of users.slice(1)) await topup(t, u, 5000);
    expect((await call(t, '/payment/nftOrder/V1/cannelOrder', { orderNo: orders[2] }, users[2]!.h)).status).toBe('000000');
    const escrowBefore = await t.ctx.db.kysely.selectFrom('ledger_balances').select('balance_fen').where('account', '=', 'escrow').executeTakeFirst();
    const c = countStatements(t);
    let answers: Awaited<ReturnType<typeof call>>[];
    try {
      answers = await Promise.all([
        ...users.map((u, i) => call(t, '/payment/nftOrder/V1/pay', { orderNo: orders[i], method: 'balance' }, u.h)),
        call(t, '/payment/nftOrder/V1/pay', { orderNo: orders[3], method: 'balance' }, users[3]!.h), // the same order twice at once
      ]);
    } finally {
      c.restore();
    }
    console.log(`81 pays at once: ${c.counts.statements} statements, ${c.counts.transactions} transactions`);
    expect(answers[0]).toMatchObject({ status: '1016', message: 'insufficient balance' });
    expect(answers[2]).toMatchObject({ status: '1015' });
    expect([answers[3]!.status, answers[80]!.status].sort()).toEqual(['000000', '1015']);
    expect(answers.filter((a) => a.status === '000000')).toHaveLength(78);
    expect(c.counts.transactions).toBeLessThan(78 / 4);
    const paid = await t.ctx.db.kysely.selectFrom('orders').select('order_no').where('project_id', '=', projectId).where('status', '=', 'paid').execute();
    expect(paid).toHaveLength(78);
    const keys = (await t.ctx.db.kysely.selectFrom('jobs').select('job_key').execute()).map((j) => j.job_key);
    for (const p of paid) expect(keys.filter((k) => k.includes(p.order_no))).toHaveLength(1); // its fulfil job
    expect(await balance(t, users[5]!)).toBe(4000);
    expect(await balance(t, users[0]!)).toBe(0);
    const escrow = await t.ctx.db.kysely.selectFrom('ledger_balances').select('balance_fen').where('account', '=', 'escrow').executeTakeFirstOrThrow();
    expect(Number(escrow.balance_fen) - Number(escrowBefore?.balance_fen ?? 0)).toBe(78 * 1000);
    await expectLedgerBalanced(t);
  });
});

describe('group commit of balance payments: one account paying several orders of a batch', () => {
  it('is debited member by member: with the balance for one, one order is paid and the other answered 1016; the others of the batch are paid', async () => {
    const { projectId } = await makeDrop(t, { supply: 50, priceFen: 1500, perIdentityLimit: 2, maxPerOrder: 2 });
    const twice = await makeTrader(t);
    const others = await Promise.all(Array.from({ length: 5 }, () => makeTrader(t)));
    const mine = [(await buy(t, twice, projectId, 1)).data.orderNo as string, (await buy(t, twice, projectId, 1)).data.orderNo as string];
    const theirs: string[] = [];
    for (const u of others) {
      theirs.push((await buy(t, u, projectId, 1)).data.orderNo);
      await topup(t, u, 1500);
    }
    await topup(t, twice, 2000);
    const answers = await Promise.all([
      ...mine.map((orderNo) => call(t, '/payment/nftOrder/V1/pay', { orderNo, method: 'balance' }, twice.h)),
      ...others.map((u, i) => call(t, '/payment/nftOrder/V1/pay', { orderNo: theirs[i], method: 'balance' }, u.h)),
    ]);
    expect(answers.slice(0, 2).map((a) => a.status).sort()).toEqual(['000000', '1016']);
    expect(answers.slice(2).every((a) => a.status === '000000')).toBe(true);
    expect(await balance(t, twice)).toBe(500);
    for (const u of others) expect(await balance(t, u)).toBe(0);
    await expectLedgerBalanced(t);
  });
});

describe('group commit of fulfilment', () => {
  it('the fulfil jobs claimed together share one transaction: consecutive serials per release, goods per order, once; a failing member does not hold back the others', async () => {
    // Jobs left by earlier tests are fulfilled first, so only this test's orders are counted below.
    await t.ctx.jobs.runOnce();
    const a = await makeDrop(t, { supply: 300, priceFen: 700, perIdentityLimit: 2, maxPerOrder: 2 });
    const b = await makeDrop(t, { supply: 300, priceFen: 900, perIdentityLimit: 2, maxPerOrder: 2 });
    const users = await Promise.all(Array.from({ length: 60 }, () => makeTrader(t)));
    const paid: { orderNo: string; projectId: number; quantity: number; userId: number; priceFen: number }[] = [];
    for (const [i, u] of users.entries()) {
      const release = i % 2 ? b : a;
      const quantity = 1 + (i % 3 === 0 ? 1 : 0);
      const r = await buy(t, u, release.projectId, quantity);
      expect(r.status).toBe('000000');
      await topup(t, u, 5000);
      expect((await call(t, '/payment/nftOrder/V1/pay', { orderNo: r.data.orderNo, method: 'balance' }, u.h)).status).toBe('000000');
      paid.push({ orderNo: r.data.orderNo, projectId: release.projectId, quantity, userId: u.userId, priceFen: i % 2 ? 900 : 700 });
    }
    const c = countStatements(t);
    try {
      await t.ctx.jobs.runOnce();
    } finally {
      c.restore();
    }
    const fulfilTxs = c.counts.openedBy.filter((s) => s.includes('writeFulfilment')).length;
    console.log(`fulfilment of ${paid.length} paid orders: ${fulfilTxs} fulfilment transaction(s); the worker's pass: ${c.counts.statements} statements, ${c.counts.transactions} transactions`);
    // one fulfilment transaction for all (the rest: job bookkeeping, and the periodic sweeps runOnce runs)
    expect(fulfilTxs).toBe(1);
    const db = t.ctx.db.kysely;
    for (const release of [a, b]) {
      const goods = await db.selectFrom('goods').select(['id', 'serial', 'token_id', 'drop_order_no', 'owner_user_id', 'last_price_fen']).where('project_id', '=', release.projectId).orderBy('serial').execute();
      const mine = paid.filter((p) => p.projectId === release.projectId);
      const units = mine.reduce((s, p) => s + p.quantity, 0);
      expect(goods.map((g) => g.serial)).toEqual(Array.from({ length: units }, (_, k) => k + 1));
      expect(goods.every((g) => Number(g.token_id) === Number(release.tokenStart) + g.serial - 1)).toBe(true);
      for (const p of mine) {
        const its = goods.filter((g) => g.drop_order_no === p.orderNo);
        expect(its).toHaveLength(p.quantity);
        expect(its.every((g) => Number(g.owner_user_id) === p.userId && Number(g.last_price_fen) === p.priceFen)).toBe(true);
        // an order's serials are consecutive
        expect(its[its.length - 1]!.serial - its[0]!.serial).toBe(p.quantity - 1);
      }
      const ids = goods.map((g) => Number(g.id));
      const prices = await db.selectFrom('goods_price_history').select(['goods_id', 'price_fen']).where('goods_id', 'in', ids).execute();
      const actions = await db.selectFrom('goods_history_actions').select(['goods_id', 'to_user_id']).where('goods_id', 'in', ids).where('action', '=', 'mint').execute();
      expect(prices).toHaveLength(units);
      expect(actions).toHaveLength(units);
      const owner = new Map(goods.map((g) => [Number(g.id), Number(g.owner_user_id)]));
      expect(actions.every((x) => owner.get(Number(x.goods_id)) === Number(x.to_user_id))).toBe(true);
      expect(await stock(t, release.projectId)).toMatchObject({ paid: units, next_serial: units + 1 });
    }
    const statuses = await db.selectFrom('orders').select('status').where('order_no', 'in', paid.map((p) => p.orderNo)).execute();
    expect(statuses.every((s) => s.status === 'settling')).toBe(true);
    const events = await db.selectFrom('order_events').select('order_no').where('order_no', 'in', paid.map((p) => p.orderNo)).where('to_status', '=', 'settling').execute();
    expect(events).toHaveLength(paid.length);
    // The jobs are done; running the worker again (and the same fulfilment again) changes nothing.
    await db.updateTable('jobs').set({ status: 'pending', run_at: 0 }).where('job_key', 'in', paid.map((p) => `fulfil:${p.orderNo}`)).execute();
    await t.ctx.jobs.runOnce();
    expect(Number((await db.selectFrom('goods').select((e) => e.fn.countAll<number>().as('n')).where('project_id', 'in', [a.projectId, b.projectId]).executeTakeFirstOrThrow()).n)).toBe(paid.reduce((s, p) => s + p.quantity, 0));

    // A member that cannot be fulfilled (its release has no serial left to allocate) fails alone.
    const d = await makeDrop(t, { supply: 10, priceFen: 500, perIdentityLimit: 2, maxPerOrder: 2 });
    const more: string[] = [];
    for (const [i, u] of users.slice(0, 6).entries()) {
      const r = await buy(t, u, i === 0 ? d.projectId : a.projectId, 1);
      expect(r.status).toBe('000000');
      expect((await call(t, '/payment/nftOrder/V1/pay', { orderNo: r.data.orderNo, method: 'balance' }, u.h)).status).toBe('000000');
      more.push(r.data.orderNo);
    }
    await db.updateTable('drop_stock').set({ next_serial: 11 }).where('project_id', '=', d.projectId).execute();
    await t.ctx.jobs.runOnce();
    const after = new Map((await db.selectFrom('orders').select(['order_no', 'status']).where('order_no', 'in', more).execute()).map((o) => [o.order_no, o.status]));
    expect(after.get(more[0]!)).toBe('paid');
    for (const no of more.slice(1)) expect(after.get(no)).toBe('settling');
    const failed = await db.selectFrom('jobs').select(['status', 'last_error']).where('job_key', '=', `fulfil:${more[0]}`).executeTakeFirstOrThrow();
    expect(failed.status).toBe('pending');
    expect(failed.last_error).toMatch(/no 1 serials left/);
    await expectLedgerBalanced(t);
  });
});

describe('fulfilment: serials read without a lock, counted last', () => {
  it('fulfilments written at the same time (as by a stale holder and the new one) hand out distinct consecutive serials, each order once', async () => {
    const d = await makeDrop(t, { supply: 200, priceFen: 600, perIdentityLimit: 2, maxPerOrder: 2 });
    const users = await Promise.all(Array.from({ length: 24 }, () => makeTrader(t)));
    const paid: { orderNo: string; quantity: number }[] = [];
    for (const [i, u] of users.entries()) {
      const quantity = 1 + (i % 2);
      const r = await buy(t, u, d.projectId, quantity);
      expect(r.status).toBe('000000');
      await topup(t, u, 5000);
      expect((await call(t, '/payment/nftOrder/V1/pay', { orderNo: r.data.orderNo, method: 'balance' }, u.h)).status).toBe('000000');
      paid.push({ orderNo: r.data.orderNo, quantity });
    }
    // Four writers at once over overlapping sets (PostgreSQL: four connections that all read the
    // same next serial; the losers meet the goods' unique index or a moved row and run again).
    const sets = [paid.slice(0, 8), paid.slice(8, 16), paid.slice(16), paid.slice(4, 12)];
    const made = await Promise.all(sets.map((s) => writeFulfilment(t.ctx, s.map((p) => p.orderNo))));
    const units = paid.reduce((a, p) => a + p.quantity, 0);
    expect(made.reduce((a, n) => a + n, 0)).toBe(units); // the overlap was fulfilled once
    const goods = await t.ctx.db.kysely.selectFrom('goods').select(['serial', 'drop_order_no']).where('project_id', '=', d.projectId).orderBy('serial').execute();
    expect(goods.map((g) => g.serial)).toEqual(Array.from({ length: units }, (_, k) => k + 1));
    for (const p of paid) {
      const its = goods.filter((g) => g.drop_order_no === p.orderNo).map((g) => g.serial);
      expect(its).toHaveLength(p.quantity);
      expect(its[its.length - 1]! - its[0]!).toBe(p.quantity - 1);
    }
    expect(await stock(t, d.projectId)).toMatchObject({ paid: units, next_serial: units + 1 });
  });

  it('commitSerials counts nothing when the row moved since the read or too few serials are left', async () => {
    const d = await makeDrop(t, { supply: 5, priceFen: 600, perIdentityLimit: 2, maxPerOrder: 2 });
    const db = t.ctx.db.kysely;
    const seen = (await peekSerials(db, d.projectId))!;
    expect(seen).toEqual({ next: 1, supply: 5 });
    await db.updateTable('drop_stock').set({ next_serial: 3 }).where('project_id', '=', d.projectId).execute(); // another allocation meanwhile
    expect(await commitSerials(db, d.projectId, seen.next, 2, 1)).toBe(false);
    expect(await commitSerials(db, d.projectId, 3, 4, 1)).toBe(false); // 3..6 > supply 5
    expect(await commitSerials(db, d.projectId, 3, 3, 1)).toBe(true);
    expect(await stock(t, d.projectId)).toMatchObject({ next_serial: 6, paid: 3 });
  });
});

/** Each trader buys `count` units of the release and pays them from a balance topped up by `topupFen`; their order numbers. */
async function boughtAndPaid(projectId: number, traders: Trader[], count: number, topupFen: number): Promise<string[]> {
  const orders: string[] = [];
  for (const u of traders) {
    const r = await buy(t, u, projectId, count);
    expect(r.status).toBe('000000');
    await topup(t, u, topupFen);
    expect((await call(t, '/payment/nftOrder/V1/pay', { orderNo: r.data.orderNo, method: 'balance' }, u.h)).status).toBe('000000');
    orders.push(r.data.orderNo);
  }
  return orders;
}

describe('group commit of completion', () => {
  it('the orders a mint pass minted complete in one transaction per 200: once each, with their last mint hash, one event and one settlement each; an order with a unit still pending waits', async () => {
    await t.ctx.jobs.runOnce();
    // Whatever earlier tests left pending is minted (and completed) first.
    const minter = new FakeMinter();
    await mintPendingGoods(t.ctx, minter);
    const a = await makeDrop(t, { supply: 500, priceFen: 1000, perIdentityLimit: 2, maxPerOrder: 2 });
    const users = await Promise.all(Array.from({ length: 230 }, () => makeTrader(t)));
    const orders = await boughtAndPaid(a.projectId, users, 2, 2000);
    await t.ctx.jobs.runOnce();
    const db = t.ctx.db.kysely;
    // One unit of the first order is not minted yet: that order must wait.
    const held = await db.selectFrom('goods').select(['id', 'token_id']).where('drop_order_no', '=', orders[0]!).orderBy('id').executeTakeFirstOrThrow();
    minter.failTokens.add(String(held.token_id));
    const creator = Number((await db.selectFrom('orders').select('seller_user_id').where('order_no', '=', orders[1]!).executeTakeFirstOrThrow()).seller_user_id);
    const before = Number((await db.selectFrom('ledger_balances').select('balance_fen').where('account', '=', `user:${creator}`).executeTakeFirst())?.balance_fen ?? 0);
    const c = countStatements(t);
    try {
      await mintPendingGoods(t.ctx, minter);
    } finally {
      c.restore();
    }
    const completionTxs = c.counts.openedBy.filter((st) => st.includes('completeMintedDropOrders')).length;
    console.log(`completion of ${orders.length - 1} minted orders: ${completionTxs} transaction(s)`);
    expect(completionTxs).toBe(2); // 229 orders, 200 per transaction
    const rows = await db.selectFrom('orders').select(['order_no', 'status', 'tx_hash', 'commission_fen', 'seller_income_fen']).where('order_no', 'in', orders).execute();
    const byNo = new Map(rows.map((r) => [r.order_no, r]));
    expect(byNo.get(orders[0]!)!.status).toBe('settling');
    for (const no of orders.slice(1)) {
      const o = byNo.get(no)!;
      expect(o.status).toBe('completed');
      const goods = await db.selectFrom('goods').select(['mint_tx_hash', 'minted_at']).where('drop_order_no', '=', no).orderBy('minted_at', 'desc').orderBy('id', 'desc').execute();
      expect(goods.map((g) => g.mint_tx_hash)).toContain(o.tx_hash);
      expect(o.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    }
    const events = await db.selectFrom('order_events').select(['order_no', 'note']).where('order_no', 'in', orders).where('to_status', '=', 'completed').execute();
    expect(events.map((e) => e.order_no).sort()).toEqual(orders.slice(1).sort());
    expect(events.every((e) => e.note === `minted on chain ${byNo.get(e.order_no)!.tx_hash}`)).toBe(true);
    const settled = await db.selectFrom('ledger_txns').select('id').where('id', 'in', orders.map((o) => `settle:${o}`)).execute();
    expect(settled).toHaveLength(orders.length - 1);
    const income = orders.slice(1).reduce((sum, no) => sum + Number(byNo.get(no)!.seller_income_fen), 0);
    const after = Number((await db.selectFrom('ledger_balances').select('balance_fen').where('account', '=', `user:${creator}`).executeTakeFirstOrThrow()).balance_fen);
    expect(after - before).toBe(income);
    await expectLedgerBalanced(t);

    // Completing again (the sweep, or the pass after a crash) changes nothing.
    expect(await completeMintedDropOrders(t.ctx, orders)).toBe(0);
    expect(await completeMintedDropOrders(t.ctx)).toBe(0);
    // The held unit is minted alone later: its order completes then.
    minter.failTokens.clear();
    await db.updateTable('goods').set({ mint_failed_at: 0 }).where('id', '=', held.id).execute();
    await mintPendingGoods(t.ctx, minter);
    expect((await db.selectFrom('orders').select('status').where('order_no', '=', orders[0]!).executeTakeFirstOrThrow()).status).toBe('completed');
    await expectLedgerBalanced(t);
  });

  it.skipIf(dbKind !== 'postgres')('PostgreSQL: a chunk finds its orders by order number even when the statistics say no order is settling', async () => {
    // A drop moves thousands of orders to settling before autovacuum analyses `orders`. Here, in one
    // transaction that is rolled back: 3,000 orders analysed as `completed`, then made `settling`.
    // Reading them all through the status index would fetch ≥ 3,000 order rows.
    const d = await makeDrop(t, { supply: 10, priceFen: 700, perIdentityLimit: 2, maxPerOrder: 2 });
    const orders = await boughtAndPaid(d.projectId, [await makeTrader(t), await makeTrader(t)], 1, 700);
    await t.ctx.jobs.runOnce();
    const db = t.ctx.db.kysely;
    // Minted as the mint pass would mark them, without its completion.
    await db.updateTable('goods').set({ chain_status: 'minted', mint_tx_hash: `0x${'ab'.repeat(32)}`, minted_at: t.ctx.now() }).where('drop_order_no', 'in', orders).execute();
    const cols = (await sql<{ c: string }>`select column_name as c from information_schema.columns where table_schema = current_schema() and table_name = 'orders' and column_name not in ('id', 'order_no', 'status') order by ordinal_position`.execute(db)).rows.map((r) => r.c);
    const list = sql.raw(cols.map((c) => `"${c}"`).join(', '));
    const fetchedSoFar = async (trx: typeof db) => Number((await sql<{ n: string }>`select coalesce(idx_tup_fetch, 0) + coalesce(seq_tup_read, 0) as n from pg_stat_xact_user_tables where relname = 'orders'`.execute(trx)).rows[0]!.n);
    const rolledBack = new Error('rolled back');
    let completed = -1;
    let fetched = -1;
    await db.transaction().execute(async (trx) => {
      await sql`insert into orders (order_no, status, ${list}) select 'PLAN' || g || ${orders[0]!}, 'completed', ${list} from orders, generate_series(1, 3000) g where order_no = ${orders[0]!}`.execute(trx);
      await sql`analyze orders`.execute(trx);
      await sql`update orders set status = 'settling' where order_no like 'PLAN%'`.execute(trx);
      const before = await fetchedSoFar(trx);
      // A full chunk of 200 numbers, as a mint pass hands over (198 of them name no order).
      const chunk = [...orders, ...Array.from({ length: 198 }, (_, k) => `NONE${k}`)].sort();
      completed = await completeInTx(trx, chunk, t.ctx.now());
      fetched = (await fetchedSoFar(trx)) - before;
      throw rolledBack;
    }).catch((err) => {
      if (err !== rolledBack) throw err;
    });
    expect(completed).toBe(2);
    expect(fetched).toBeGreaterThan(0);
    expect(fetched).toBeLessThan(100);
    // Rolled back: the two orders complete for real now.
    expect(await completeMintedDropOrders(t.ctx, orders)).toBe(2);
    await expectLedgerBalanced(t);
  });

  it('postTxns posts many transactions at once, skips ids already posted and refuses a debit of a user account', async () => {
    const db = t.ctx.db.kysely;
    const now = t.clock.t;
    const bal = async (account: string) => Number((await db.selectFrom('ledger_balances').select('balance_fen').where('account', '=', account).executeTakeFirst())?.balance_fen ?? 0);
    const user = `user:${900_000 + (now % 100_000)}`;
    const commission0 = await bal('platform:commission');
    const fund = { id: `test-fund:${now}`, kind: 'suspense' as const, entries: [{ account: 'external:test', amountFen: -1000 }, { account: 'platform:suspense', amountFen: 1000 }], now };
    const settle = (k: number) => ({ id: `test-settle:${now}:${k}`, kind: 'settle' as const, entries: [{ account: 'platform:suspense', amountFen: -100 }, { account: user, amountFen: 90 }, { account: 'platform:commission', amountFen: 10 }], now });
    const suspense0 = await bal('platform:suspense');
    await db.transaction().execute(async (trx) => {
      expect([...(await postTxns(trx, [fund]))]).toEqual([fund.id]);
      expect((await postTxns(trx, [settle(1), settle(2), settle(3)])).size).toBe(3);
      // already posted: skipped, the new one is posted
      expect([...(await postTxns(trx, [settle(2), settle(4)]))]).toEqual([settle(4).id]);
    });
    expect(await bal('platform:suspense')).toBe(suspense0 + 1000 - 400);
    expect(await bal(user)).toBe(360);
    expect(await bal('platform:commission')).toBe(commission0 + 40);
    const entries = await db.selectFrom('ledger_entries').select(['txn_id', 'account', 'amount_fen']).where('txn_id', '=', settle(4).id).orderBy('account').execute();
    expect(entries.map((e) => [e.account, Number(e.amount_fen)])).toEqual([['platform:commission', 10], ['platform:suspense', -100], [user, 90]].sort((x, y) => String(x[0]).localeCompare(String(y[0]))));
    await expect(db.transaction().execute((trx) => postTxns(trx, [{ id: `test-debit:${now}`, kind: 'settle', entries: [{ account: user, amountFen: -5 }, { account: 'platform:suspense', amountFen: 5 }], now }]))).rejects.toThrow(/cannot debit a user account/);
    await expect(db.transaction().execute((trx) => postTxns(trx, [{ id: `test-unbalanced:${now}`, kind: 'settle', entries: [{ account: 'platform:suspense', amountFen: -5 }], now }]))).rejects.toThrow(/does not balance/);
    await expect(db.transaction().execute((trx) => postTxns(trx, [settle(5), settle(5)]))).rejects.toThrow(/twice in one batch/);
    expect(await bal(user)).toBe(360);
    await expectLedgerBalanced(t);
  });
});

describe('group commit of expiry', () => {
  it('the expiry sweep closes unpaid orders 100 per transaction and gives each release its units back once; an order paid meanwhile stays paid', async () => {
    // Orders left unpaid by earlier tests expire first, so only this test's orders are counted below.
    t.clock.t += t.ctx.config.market.paymentWindowMs + 1;
    await expireDueOrders(t.ctx, 5000);
    const a = await makeDrop(t, { supply: 400, priceFen: 300, perIdentityLimit: 2, maxPerOrder: 2 });
    const b = await makeDrop(t, { supply: 100, priceFen: 500, perIdentityLimit: 2, maxPerOrder: 2 });
    const users = await Promise.all(Array.from({ length: 150 }, () => makeTrader(t)));
    const orders: { orderNo: string; projectId: number; u: Trader }[] = [];
    for (const [i, u] of users.entries()) {
      const release = i % 5 === 0 ? b : a;
      const r = await buy(t, u, release.projectId, 2);
      expect(r.status).toBe('000000');
      orders.push({ orderNo: r.data.orderNo, projectId: release.projectId, u });
    }
    expect((await stock(t, a.projectId)).taken).toBe(240);
    expect((await stock(t, b.projectId)).taken).toBe(60);
    // one buyer pays just in time: that order is not expired
    const payer = orders[7]!;
    await topup(t, payer.u, 600);
    expect((await call(t, '/payment/nftOrder/V1/pay', { orderNo: payer.orderNo, method: 'balance' }, payer.u.h)).status).toBe('000000');
    t.clock.t += t.ctx.config.market.paymentWindowMs + 1;
    const c = countStatements(t);
    let closed: number;
    try {
      closed = await expireDueOrders(t.ctx, 5000);
    } finally {
      c.restore();
    }
    const sweepTxs = c.counts.openedBy.filter((st) => st.includes('expireDueOrders')).length;
    console.log(`expiry of ${closed} orders: ${sweepTxs} transaction(s), ${c.counts.statements} statements`);
    expect(closed).toBe(149);
    expect(sweepTxs).toBe(2);
    const db = t.ctx.db.kysely;
    const rows = await db.selectFrom('orders').select(['order_no', 'status', 'closed_by']).where('order_no', 'in', orders.map((o) => o.orderNo)).execute();
    for (const r of rows) expect(r.order_no === payer.orderNo ? [r.status] : [r.status, r.closed_by]).toEqual(r.order_no === payer.orderNo ? ['paid'] : ['expired', 'expiry']);
    const events = await db.selectFrom('order_events').select('order_no').where('order_no', 'in', orders.map((o) => o.orderNo)).where('to_status', '=', 'expired').execute();
    expect(events).toHaveLength(149);
    // the units came back once: only the paid order's 2 units are still taken
    expect((await stock(t, a.projectId)).taken).toBe(a.projectId === payer.projectId ? 2 : 0);
    expect((await stock(t, b.projectId)).taken).toBe(b.projectId === payer.projectId ? 2 : 0);
    const quotas = await db.selectFrom('drop_quota').select(['project_id', 'taken']).where('project_id', 'in', [a.projectId, b.projectId]).where('taken', '>', 0).execute();
    expect(quotas.map((q) => [Number(q.project_id), Number(q.taken)])).toEqual([[payer.projectId, 2]]);
    // a second sweep finds nothing; the buyers may buy again
    expect(await expireDueOrders(t.ctx, 5000)).toBe(0);
    expect((await buy(t, orders[0]!.u, orders[0]!.projectId, 2)).status).toBe('000000');
    await expectLedgerBalanced(t);
  });
});
