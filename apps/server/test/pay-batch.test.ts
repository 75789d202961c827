import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, dbKind, type TestApp } from './helpers.ts';
import { createOrderFor, expectLedgerBalanced, listForSale, makeGoods, makeRelease, makeTrader, topup, type FakeChain, type Release, type Trader } from './market-helpers.ts';
import { buy, makeDrop, makeDropApp } from './drops-helpers.ts';
import { writePayBatch, writePayBatchCall, writePayBatchIn, type BalancePayment, type PayAnswer, type PayOutcome } from '../src/modules/payments/pay-batch.ts';
import { Account, balanceOf } from '../src/modules/ledger/ledger.ts';
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '../src/db/schema.ts';

/**
 * The group commit of payments from balance (payments/pay-batch.ts) on a real database: one batch
 * whose members are paid, short of balance, no longer payable, paid twice in the batch, two orders
 * of one account that can pay only one, a market order and a drop order, an order already `paying`
 * through a provider. Each member gets its own answer and only the paid ones move money.
 *
 * On PostgreSQL the batch is one call of `pay_balance_orders` (migration 0041) and the transaction
 * (writePayBatchIn) stays for comparison: the same batch shape is written through both, and every
 * row they wrote (orders, events, payments, jobs, ledger transactions and entries, balances) must
 * be the same once order numbers and users are replaced by their roles.
 */
let t: TestApp & { chain: FakeChain };
let release: Release;
beforeAll(async () => {
  t = await makeDropApp();
  release = await makeRelease(t);
});
afterAll(async () => {
  await t?.close();
});

interface World {
  batch: BalancePayment[];
  /** order number → its role in the batch; user id → the user's role. */
  orderRole: Map<string, string>;
  userRole: Map<number, string>;
  users: Record<string, Trader>;
}

/** Fresh users and orders for one batch: each member's role is what it tests. */
async function world(): Promise<World> {
  const { projectId } = await makeDrop(t, { supply: 100, priceFen: 1000, perIdentityLimit: 10, maxPerOrder: 2 });
  const users: Record<string, Trader> = {};
  const orderRole = new Map<string, string>();
  const batch: BalancePayment[] = [];
  const dropOrder = async (role: string, user: string) => {
    const r = await buy(t, users[user]!, projectId, 1);
    expect(r.status, r.message).toBe('000000');
    orderRole.set(r.data.orderNo, role);
    return r.data.orderNo as string;
  };
  const member = (orderNo: string, user: string, kind = 'drop') => batch.push({ orderNo, kind, userId: users[user]!.userId });
  for (const u of ['rich', 'poor', 'gone', 'two', 'market', 'paying']) users[u] = await makeTrader(t);
  await topup(t, users.rich!, 5_000);
  await topup(t, users.poor!, 500);
  await topup(t, users.gone!, 5_000);
  await topup(t, users.two!, 1_500);
  await topup(t, users.market!, 20_000);
  await topup(t, users.paying!, 1_000);

  const rich = await dropOrder('rich', 'rich');
  const poor = await dropOrder('poor', 'poor');
  const gone = await dropOrder('gone', 'gone');
  expect((await call(t, '/payment/nftOrder/V1/cannelOrder', { orderNo: gone }, users.gone!.h)).status).toBe('000000');
  const twoA = await dropOrder('two', 'two');
  const twoB = await dropOrder('two', 'two');
  // The two orders of one account: the lower order number is debited first (sorted by account, then order number).
  const [lo, hi] = [twoA, twoB].sort();
  orderRole.set(lo!, 'two-first');
  orderRole.set(hi!, 'two-second');
  const paying = await dropOrder('paying', 'paying');
  expect((await call(t, '/payment/nftOrder/V1/pay', { orderNo: paying, method: 'sandbox' }, users.paying!.h)).status).toBe('000000');
  const seller = await makeTrader(t);
  const goods = await makeGoods(t, release, seller);
  await listForSale(t, seller, goods.goodsId, 10_000);
  const m = await createOrderFor(t, users.market!, goods.goodsId);
  expect(m.status, m.message).toBe('000000');
  orderRole.set(m.data.orderNo, 'market');

  member(rich, 'rich');
  member(poor, 'poor');
  member(gone, 'gone');
  member(hi!, 'two');
  member(lo!, 'two');
  member(rich, 'rich'); // the same order again in the batch
  member(poor, 'poor'); // and the short one again
  member(m.data.orderNo, 'market', 'market');
  member(paying, 'paying');
  return { batch, orderRole, userRole: new Map(Object.entries(users).map(([role, u]) => [u.userId, role])), users };
}

const expected: PayOutcome[] = ['ok', 'short', 'notPayable', 'short', 'ok', 'notPayable', 'short', 'ok', 'ok'];
const outcomes = (answers: PayAnswer[]) => answers.map((a) => a.outcome);

/** Every row the batch wrote, with order numbers and users replaced by their roles (timestamps: set or not), sorted (the insertion order differs). */
async function snapshot(w: World) {
  const k = t.ctx.db.kysely;
  const nos = [...w.orderRole.keys()];
  const role = (s: string) => {
    let out = s;
    for (const [no, r] of w.orderRole) out = out.split(no).join(`<${r}>`);
    for (const [id, r] of w.userRole) out = out.split(`user:${id}`).join(`user:<${r}>`);
    return out;
  };
  const orders = await k.selectFrom('orders').select(['order_no', 'status', 'pay_method', 'provider_trade_no', 'paid_at']).where('order_no', 'in', nos).execute();
  const events = await k.selectFrom('order_events').select(['order_no', 'from_status', 'to_status', 'note', 'at']).where('order_no', 'in', nos).where('to_status', '=', 'paid').orderBy('id').execute();
  const payments = await k.selectFrom('payments').select(['order_no', 'provider', 'provider_trade_no', 'user_id', 'amount_fen', 'outcome', 'raw', 'created_at']).where('order_no', 'in', nos).where('provider', '=', 'balance').execute();
  const jobs = await k.selectFrom('jobs').select(['kind', 'job_key', 'payload', 'status', 'attempts', 'last_error', 'run_at', 'lease_until', 'lease_token']).where('job_key', 'in', nos.flatMap((n) => [`fulfil:${n}`, `settle:${n}`])).execute();
  const txns = await k.selectFrom('ledger_txns').select(['id', 'kind', 'order_no', 'created_at']).where('id', 'in', nos.map((n) => `pay:balance:${n}`)).execute();
  const entries = await k.selectFrom('ledger_entries').select(['txn_id', 'account', 'amount_fen', 'created_at']).where('txn_id', 'in', nos.map((n) => `pay:balance:${n}`)).orderBy('id').execute();
  const balances: Record<string, number> = {};
  for (const [id, r] of w.userRole) balances[r] = await balanceOf(k, Account.user(id));
  const sort = <T>(xs: T[]) => xs.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  return {
    orders: sort(orders.map((o) => ({ order: role(o.order_no), status: o.status, payMethod: o.pay_method, tradeNoIsOrderNo: o.provider_trade_no === o.order_no, paid: o.paid_at !== null }))),
    events: sort(events.map((e) => ({ order: role(e.order_no), from: e.from_status, to: e.to_status, note: e.note, at: Number(e.at) > 0 }))),
    payments: sort(payments.map((p) => ({ order: role(p.order_no), provider: p.provider, tradeNo: role(p.provider_trade_no), user: w.userRole.get(Number(p.user_id)), amount: Number(p.amount_fen), outcome: p.outcome, raw: p.raw, at: Number(p.created_at) > 0 }))),
    jobs: sort(jobs.map((j) => ({ kind: j.kind, key: role(j.job_key), payload: role(j.payload), status: j.status, attempts: Number(j.attempts), lastError: j.last_error, due: Number(j.run_at) > 0, lease: Number(j.lease_until), token: j.lease_token }))),
    txns: sort(txns.map((x) => ({ id: role(x.id), kind: x.kind, order: role(x.order_no ?? ''), at: Number(x.created_at) > 0 }))),
    entries: sort(entries.map((e) => ({ txn: role(e.txn_id), account: role(e.account), amount: Number(e.amount_fen), at: Number(e.created_at) > 0 }))),
    balances,
  };
}

/**
 * PostgreSQL, on one connection in a transaction that is rolled back: `prepare` (given that connection,
 * a context on it, and the columns to copy the batch's `rich` order by), then the world's batch through
 * the function; its outcomes and how many order rows it read (pg_stat_xact_user_tables).
 */
async function orderRowsRead(
  w: World,
  notCopied: string[],
  prepare: (trx: Transaction<Database>, onTrx: typeof t.ctx, copy: { orderNo: string; columns: RawBuilder<unknown> }) => Promise<void>,
): Promise<{ out: PayOutcome[]; fetched: number }> {
  const orderNo = [...w.orderRole].find(([, r]) => r === 'rich')![0];
  const cols = (await sql<{ c: string }>`select column_name as c from information_schema.columns where table_schema = current_schema() and table_name = 'orders' order by ordinal_position`.execute(t.ctx.db.kysely)).rows
    .map((r) => r.c)
    .filter((c) => !notCopied.includes(c));
  const columns = sql.raw(cols.map((c) => `"${c}"`).join(', '));
  const rolledBack = new Error('rolled back');
  let fetched = -1;
  let out: PayOutcome[] = [];
  await t.ctx.db.kysely.transaction().execute(async (trx) => {
    const onTrx = { ...t.ctx, db: { ...t.ctx.db, kysely: trx } } as typeof t.ctx;
    await prepare(trx, onTrx, { orderNo, columns });
    const read = async () => Number((await sql<{ n: string }>`select coalesce(idx_tup_fetch, 0) + coalesce(seq_tup_read, 0) as n from pg_stat_xact_user_tables where relname = 'orders'`.execute(trx)).rows[0]!.n);
    const before = await read();
    out = outcomes(await writePayBatchCall(onTrx, w.batch));
    fetched = (await read()) - before;
    throw rolledBack;
  }).catch((err) => {
    if (err !== rolledBack) throw err;
  });
  return { out, fetched };
}

async function escrow() {
  return balanceOf(t.ctx.db.kysely, Account.escrow);
}

describe(`balance payments in one batch (${dbKind})`, () => {
  it('answers each member on its own and moves only the paid members’ money', async () => {
    const w = await world();
    const before = await escrow();
    const answers = await writePayBatch(t.ctx, w.batch);
    expect(outcomes(answers)).toEqual(expected);
    // Every answer carries its order's payment deadline, as the order row has it.
    for (const [i, a] of answers.entries()) {
      const row = await t.ctx.db.kysely.selectFrom('orders').select('expires_at').where('order_no', '=', w.batch[i]!.orderNo).executeTakeFirstOrThrow();
      expect(a.expiresAt).toBe(Number(row.expires_at));
    }
    const s = await snapshot(w);
    expect(s.balances).toEqual({ rich: 4_000, poor: 500, gone: 5_000, two: 500, market: 10_000, paying: 0 });
    expect(await escrow()).toBe(before + 1_000 + 1_000 + 10_000 + 1_000);
    expect(s.orders).toEqual(
      expect.arrayContaining([
        { order: '<rich>', status: 'paid', payMethod: 'balance', tradeNoIsOrderNo: true, paid: true },
        { order: '<poor>', status: 'created', payMethod: null, tradeNoIsOrderNo: false, paid: false },
        { order: '<gone>', status: 'cancelled', payMethod: null, tradeNoIsOrderNo: false, paid: false },
        { order: '<two-first>', status: 'paid', payMethod: 'balance', tradeNoIsOrderNo: true, paid: true },
        { order: '<two-second>', status: 'created', payMethod: null, tradeNoIsOrderNo: false, paid: false },
        { order: '<market>', status: 'paid', payMethod: 'balance', tradeNoIsOrderNo: true, paid: true },
        { order: '<paying>', status: 'paid', payMethod: 'balance', tradeNoIsOrderNo: true, paid: true },
      ]),
    );
    expect(s.events.map((e) => `${e.order}:${e.from}→${e.to}`).sort()).toEqual(['<market>:created→paid', '<paying>:paying→paid', '<rich>:created→paid', '<two-first>:created→paid']);
    expect(s.jobs.map((j) => j.key).sort()).toEqual(['fulfil:<paying>', 'fulfil:<rich>', 'fulfil:<two-first>', 'settle:<market>']);
    expect(s.entries.filter((e) => e.txn === 'pay:balance:<market>')).toEqual([
      { txn: 'pay:balance:<market>', account: 'escrow', amount: 10_000, at: true },
      { txn: 'pay:balance:<market>', account: 'user:<market>', amount: -10_000, at: true },
    ]);
    await expectLedgerBalanced(t);

    // The same batch again: nothing is payable any more, nothing moves.
    const again = outcomes(await writePayBatch(t.ctx, w.batch));
    expect(again).toEqual(['notPayable', 'short', 'notPayable', 'short', 'notPayable', 'notPayable', 'short', 'notPayable', 'notPayable']);
    expect(await snapshot(w)).toEqual(s);
    await expectLedgerBalanced(t);
  });

  it.skipIf(dbKind !== 'postgres')('PostgreSQL: the function keeps finding its orders by order number after the table outgrows the plans it cached', async () => {
    // A new site's first drop: a connection's first calls see a small `orders`, and from its sixth call
    // PL/pgSQL keeps the generic plan made then (for a table of a few pages: read it whole) until an
    // analyse replaces it, which autovacuum does not do within the sale's seconds. Here, on one
    // connection: eight calls while the table is small, 3,000 orders more (not analysed), then the batch.
    const w = await world();
    const { out, fetched } = await orderRowsRead(w, ['id', 'order_no'], async (trx, onTrx, copy) => {
      for (let i = 0; i < 8; i++) {
        expect(outcomes(await writePayBatchCall(onTrx, [{ orderNo: `NONE${i}`, kind: 'drop', userId: w.users.rich!.userId }]))).toEqual(['notFound']);
      }
      await sql`insert into orders (order_no, ${copy.columns}) select 'GROW' || g || ${copy.orderNo}, ${copy.columns} from orders, generate_series(1, 3000) g where order_no = ${copy.orderNo}`.execute(trx);
    });
    expect(out).toEqual(expected);
    expect(fetched).toBeGreaterThan(0);
    expect(fetched).toBeLessThan(100);
  });

  it.skipIf(dbKind !== 'postgres')('PostgreSQL: the function writes exactly the rows of the transaction', async () => {
    const a = await world();
    const b = await world();
    const outIn = outcomes(await writePayBatchIn(t.ctx, a.batch));
    const outCall = outcomes(await writePayBatchCall(t.ctx, b.batch));
    expect(outIn).toEqual(expected);
    expect(outCall).toEqual(outIn);
    const sa = await snapshot(a);
    expect(sa.txns.length).toBe(4);
    expect(await snapshot(b)).toEqual(sa);
    await expectLedgerBalanced(t);
  });

  it.skipIf(dbKind !== 'postgres')('PostgreSQL: the function finds its orders by order number even when the statistics say no order is created', async () => {
    // A drop's first seconds: thousands of `created` orders that autovacuum has not analysed yet. Here:
    // 3,000 orders analysed as `completed`, then made `created`. Reading them all (0036's plan under such
    // statistics) would fetch ≥ 3,000 order rows.
    const w = await world();
    const { out, fetched } = await orderRowsRead(w, ['id', 'order_no', 'status'], async (trx, _onTrx, copy) => {
      await sql`insert into orders (order_no, status, ${copy.columns}) select 'PLAN' || g || ${copy.orderNo}, 'completed', ${copy.columns} from orders, generate_series(1, 3000) g where order_no = ${copy.orderNo}`.execute(trx);
      await sql`analyze orders`.execute(trx);
      await sql`update orders set status = 'created' where order_no like 'PLAN%'`.execute(trx);
    });
    expect(out).toEqual(expected);
    expect(fetched).toBeGreaterThan(0);
    expect(fetched).toBeLessThan(100);
  });

  it('checks each order under its lock, so a payment needs no read before it: refusals by the row, answered as the pay call answers them', async () => {
    const { projectId } = await makeDrop(t, { supply: 100, priceFen: 1000, perIdentityLimit: 10, maxPerOrder: 2 });
    const [owner, stranger, late] = [await makeTrader(t), await makeTrader(t), await makeTrader(t)];
    for (const u of [owner, stranger, late]) await topup(t, u, 5_000);
    const order = async (u: Trader) => {
      const r = await buy(t, u, projectId, 1);
      expect(r.status, r.message).toBe('000000');
      return r.data.orderNo as string;
    };
    const mine = await order(owner);
    const theirs = await order(owner);
    const due = await order(late);
    const expired = await order(late);
    // Two orders past their payment window: one expired by a pay call (the batch answers 'due', the call expires it), one left due.
    await t.ctx.db.kysely.updateTable('orders').set({ expires_at: t.ctx.now() - 1 }).where('order_no', 'in', [due, expired]).execute();
    expect(await call(t, '/payment/nftOrder/V1/pay', { orderNo: expired, method: 'balance' }, late.h)).toMatchObject({ status: '1015', message: 'the order has expired' });
    expect((await t.ctx.db.kysely.selectFrom('orders').select('status').where('order_no', '=', expired).executeTakeFirstOrThrow()).status).toBe('expired');
    const seller = await makeTrader(t);
    const goods = await makeGoods(t, release, seller);
    await listForSale(t, seller, goods.goodsId, 2_000);
    const m = await createOrderFor(t, owner, goods.goodsId);
    expect(m.status, m.message).toBe('000000');

    const batch: BalancePayment[] = [
      { orderNo: theirs, kind: 'drop', userId: stranger.userId },
      { orderNo: due, kind: 'drop', userId: late.userId },
      { orderNo: expired, kind: 'drop', userId: late.userId },
      { orderNo: m.data.orderNo, kind: 'drop', userId: owner.userId },
      { orderNo: 'DO20990101000000000000000000', kind: 'drop', userId: owner.userId },
      { orderNo: mine, kind: 'drop', userId: owner.userId },
    ];
    const balances = async () => Promise.all([owner, stranger, late].map((u) => balanceOf(t.ctx.db.kysely, Account.user(u.userId))));
    const before = await balances();
    const answers = await writePayBatch(t.ctx, batch);
    expect(outcomes(answers)).toEqual(['notYours', 'due', 'expired', 'check', 'notFound', 'ok']);
    expect(answers[4]!.expiresAt).toBeNull();
    // Only `mine` moved money; the refused members wrote nothing.
    expect(await balances()).toEqual([before[0]! - 1_000, before[1], before[2]]);
    const statuses = await t.ctx.db.kysely.selectFrom('orders').select(['order_no', 'status']).where('order_no', 'in', [mine, theirs, due, expired, m.data.orderNo]).execute();
    expect(Object.fromEntries(statuses.map((r) => [r.order_no, r.status]))).toEqual({ [mine]: 'paid', [theirs]: 'created', [due]: 'created', [expired]: 'expired', [m.data.orderNo]: 'created' });
    await expectLedgerBalanced(t);

    // The pay call answers each as the order read before the batch did (1012, 1015, 1404).
    expect(await call(t, '/payment/nftOrder/V1/pay', { orderNo: theirs, method: 'balance' }, stranger.h)).toMatchObject({ status: '1012', message: 'this order is not yours' });
    expect(await call(t, '/payment/nftOrder/V1/pay', { orderNo: due, method: 'balance' }, late.h)).toMatchObject({ status: '1015', message: 'the order has expired' });
    expect(await call(t, '/payment/nftOrder/V1/pay', { orderNo: 'DO20990101000000000000000000', method: 'balance' }, owner.h)).toMatchObject({ status: '1404', message: 'order not found' });
    expect(await call(t, '/payment/nftOrder/V1/pay', { orderNo: mine, method: 'balance' }, owner.h)).toMatchObject({ status: '1015', message: 'the order cannot be paid in its current state' });
    // A market order is paid through the settlement's dry run first (the batch's 'check'), then from balance.
    expect(await call(t, '/payment/nftOrder/V1/pay', { orderNo: m.data.orderNo, method: 'balance' }, owner.h)).toMatchObject({ status: '000000', data: { status: 'paid' } });
    expect((await t.ctx.db.kysely.selectFrom('orders').select('status').where('order_no', '=', due).executeTakeFirstOrThrow()).status).toBe('expired');
    const poor = await makeTrader(t);
    const short = await order(poor);
    expect(await call(t, '/payment/nftOrder/V1/pay', { orderNo: short, method: 'balance' }, poor.h)).toMatchObject({ status: '1016', message: 'insufficient balance' });
    await expectLedgerBalanced(t);
  });

  it.skipIf(dbKind !== 'postgres')('PostgreSQL: the function refuses the same members as the transaction', async () => {
    const { projectId } = await makeDrop(t, { supply: 100, priceFen: 1000, perIdentityLimit: 10, maxPerOrder: 2 });
    const [owner, stranger] = [await makeTrader(t), await makeTrader(t)];
    await topup(t, owner, 5_000);
    const nos: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await buy(t, owner, projectId, 1);
      expect(r.status, r.message).toBe('000000');
      nos.push(r.data.orderNo);
    }
    await t.ctx.db.kysely.updateTable('orders').set({ expires_at: t.ctx.now() - 1 }).where('order_no', 'in', [nos[1]!, nos[4]!]).execute();
    const batchOf = (a: string, b: string, c: string) => [
      { orderNo: a, kind: 'drop', userId: stranger.userId },
      { orderNo: b, kind: 'drop', userId: owner.userId },
      { orderNo: c, kind: 'drop', userId: owner.userId },
      { orderNo: 'DO-none', kind: 'drop', userId: owner.userId },
    ];
    const viaTx = outcomes(await writePayBatchIn(t.ctx, batchOf(nos[0]!, nos[1]!, nos[2]!)));
    const viaFn = outcomes(await writePayBatchCall(t.ctx, batchOf(nos[3]!, nos[4]!, nos[5]!)));
    expect(viaTx).toEqual(['notYours', 'due', 'ok', 'notFound']);
    expect(viaFn).toEqual(viaTx);
    await expectLedgerBalanced(t);
  });

  it('a batch whose ledger transaction exists already is refused whole and changes nothing', async () => {
    const w = await world();
    const rich = [...w.orderRole].find(([, r]) => r === 'rich')![0];
    // A stray `pay:balance:` transaction for one member's order (as if posted before): the batch must not post around it.
    await t.ctx.db.kysely.insertInto('ledger_txns').values({ id: `pay:balance:${rich}`, kind: 'pay', order_no: rich, created_at: t.ctx.now() }).execute();
    const before = await snapshot(w);
    const esc = await escrow();
    await expect(writePayBatch(t.ctx, w.batch)).rejects.toThrow(/ledger transaction was posted already/);
    expect(await snapshot(w)).toEqual(before);
    expect(await escrow()).toBe(esc);
  });
});
