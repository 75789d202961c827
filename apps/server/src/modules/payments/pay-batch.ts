import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { GroupCommit } from '../../db/group-commit.ts';
import { keyList } from '../../db/key-list.ts';
import { inTx, rowParts, unindexedEq, type Q } from '../../db/tx.ts';
import { afterPaymentJob } from '../drops/index.ts';
import { Account, postTxns } from '../ledger/index.ts';
import { compareText } from '../../util/compare.ts';

/**
 * Group commit of payments from balance (docs/drops.md "Under load"): the balance payments that
 * arrive in this process while its previous batch is being written are written together in ONE
 * transaction (on PostgreSQL ONE statement: the function `pay_balance_batch` of migration 0036 runs
 * the same steps), with the lock order of a single payment (orders → ledger balances, sorted):
 *
 *   1. the members' order rows, sorted by order number (PostgreSQL: FOR UPDATE), still created / paying?
 *   2. the buyers' balances debited by one conditional UPDATE (balance ≥ price; RETURNING says who had it;
 *      an account paying several orders of the batch is debited member by member, sorted by account)
 *   3. for the members debited: one UPDATE of their orders to paid, their events, payments, ledger
 *      transactions and entries (multi-row inserts; the ledger's postTxns), ONE credit of the escrow balance for the batch
 *      total (the row every payment credits: one lock per batch instead of one per payment), their
 *      after-payment jobs.
 *
 * Each member gets its own outcome: 'ok', 'notPayable' (the order moved meanwhile) or 'short'
 * (balance too low: nothing of it is written). The ledger is the same as one postTxn per payment
 * (`pay:balance:<orderNo>`: buyer −price, escrow +price). Any error of a batch of several members
 * re-runs each member alone.
 */
export interface BalancePayment {
  orderNo: string;
  kind: string;
  userId: number;
  priceFen: number;
}
export type PayOutcome = 'ok' | 'notPayable' | 'short';

const MAX_BATCH = 256;
const CHUNK = 150;
/** One group commit per database (db/group-commit.ts). */
const queues = new WeakMap<object, GroupCommit<BalancePayment, PayOutcome>>();

export function payInBatch(ctx: AppContext, p: BalancePayment): Promise<PayOutcome> {
  let q = queues.get(ctx.db);
  if (!q) queues.set(ctx.db, (q = new GroupCommit({ maxBatch: MAX_BATCH, write: (ps) => writePayBatch(ctx, ps) })));
  return q.submit(p);
}

/**
 * Writes one batch of balance payments; each member's outcome, same order. On PostgreSQL one call of
 * `pay_balance_batch` (writePayBatchCall), elsewhere one transaction (writePayBatchIn).
 */
export function writePayBatch(ctx: AppContext, ps: readonly BalancePayment[]): Promise<PayOutcome[]> {
  return ctx.db.dialect === 'postgres' ? writePayBatchCall(ctx, ps) : writePayBatchIn(ctx, ps);
}

/** The batch in one database transaction of ≈ 11 statements (SQLite; on PostgreSQL for the tests that compare both). */
export function writePayBatchIn(ctx: AppContext, ps: readonly BalancePayment[]): Promise<PayOutcome[]> {
  return inTx(ctx, (trx) => writeIn(ctx, trx, ps));
}

/**
 * The batch as one call of `pay_balance_batch` (PostgreSQL, migration 0036): the steps of writeIn
 * below in one statement — one round trip instead of ≈ 11, each holding a request connection. The
 * two must stay in step: a change to writeIn's writes needs a migration that replaces the function;
 * test/pay-batch.test.ts writes the same batches through both and compares every row they wrote.
 */
export async function writePayBatchCall(ctx: AppContext, ps: readonly BalancePayment[]): Promise<PayOutcome[]> {
  const first = firstByOrder(ps);
  const members = [...first.values()].map((i) => {
    const p = ps[i]!;
    const job = jobRow(afterPaymentJob(p.kind, p.orderNo));
    return { i, order_no: p.orderNo, account: Account.user(p.userId), user_id: p.userId, price: p.priceFen, job_kind: job.kind, job_key: job.job_key, job_payload: job.payload };
  });
  const { rows } = await sql<{ idx: number; outcome: PayOutcome }>`select idx, outcome from pay_balance_batch(${ctx.now()}, ${Date.now()}, ${JSON.stringify(members)}::jsonb)`.execute(ctx.db.kysely);
  const out: PayOutcome[] = ps.map(() => 'notPayable');
  for (const r of rows) out[r.idx] = r.outcome;
  answerRepeats(ps, first, out);
  return out;
}

/** Each order number's first member in the batch (the one that may pay it), by index. */
function firstByOrder(ps: readonly BalancePayment[]): Map<string, number> {
  const first = new Map<string, number>();
  ps.forEach((p, i) => first.has(p.orderNo) || first.set(p.orderNo, i));
  return first;
}

/** An order paid twice in one batch: a later member is answered as the first when that was short, else it stays notPayable. */
function answerRepeats(ps: readonly BalancePayment[], first: Map<string, number>, out: PayOutcome[]) {
  ps.forEach((p, i) => {
    const f = first.get(p.orderNo)!;
    if (f !== i && out[f] === 'short') out[i] = 'short';
  });
}

async function writeIn(ctx: AppContext, trx: Q, ps: readonly BalancePayment[]): Promise<PayOutcome[]> {
  const now = ctx.now();
  const out: PayOutcome[] = ps.map(() => 'notPayable');
  // An order paid twice at once: the first member pays it; a later one is answered by answerRepeats.
  const first = firstByOrder(ps);

  // 1. the order rows (sorted; locked on PostgreSQL)
  const nos = [...first.keys()].sort(compareText);
  let q = trx.selectFrom('orders').select(['order_no', 'status']).where('order_no', 'in', keyList(ctx, nos)).orderBy('order_no');
  if (ctx.db.dialect === 'postgres') q = q.forUpdate();
  const status = new Map((await q.execute()).map((r) => [r.order_no, r.status]));
  const payable = [...first.values()].filter((i) => ['created', 'paying'].includes(status.get(ps[i]!.orderNo) ?? ''));

  // 2. debits: the accounts that pay one order of the batch in ONE conditional UPDATE (balance ≥ its price;
  //    RETURNING names the accounts debited, the others are short); an account paying several orders of the
  //    batch at once is debited member by member, sorted by account.
  payable.sort((a, b) => compareText(Account.user(ps[a]!.userId), Account.user(ps[b]!.userId)) || compareText(ps[a]!.orderNo, ps[b]!.orderNo));
  const paid: number[] = [];
  const byAccount = new Map<string, number[]>();
  for (const i of payable) {
    if (ps[i]!.priceFen === 0) {
      paid.push(i); // nothing to debit (postTxn writes no zero entries either)
      continue;
    }
    const account = Account.user(ps[i]!.userId);
    const list = byAccount.get(account);
    if (list) list.push(i);
    else byAccount.set(account, [i]);
  }
  const single = [...byAccount].filter(([, is]) => is.length === 1).map(([account, [i]]) => ({ account, i: i! }));
  if (single.length) {
    const price = sql<number>`case account ${sql.join(single.map((m) => sql`when ${m.account} then cast(${ps[m.i]!.priceFen} as bigint)`), sql` `)} end`;
    const debited = await trx
      .updateTable('ledger_balances')
      .set({ balance_fen: sql`balance_fen - ${price}`, updated_at: now })
      .where('account', 'in', single.map((m) => m.account))
      .where('balance_fen', '>=', price)
      .returning('account')
      .execute();
    const ok = new Set(debited.map((r) => r.account));
    for (const m of single) {
      if (ok.has(m.account)) paid.push(m.i);
      else out[m.i] = 'short';
    }
  }
  for (const is of byAccount.values()) {
    if (is.length === 1) continue;
    for (const i of is) {
      const p = ps[i]!;
      const res = await trx
        .updateTable('ledger_balances')
        .set({ balance_fen: sql`balance_fen - ${p.priceFen}`, updated_at: now })
        .where('account', '=', Account.user(p.userId))
        .where('balance_fen', '>=', p.priceFen)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 1) paid.push(i);
      else out[i] = 'short';
    }
  }
  answerRepeats(ps, first, out);
  if (!paid.length) return out;

  // 3. the paid members' rows
  const paidNos = paid.map((i) => ps[i]!.orderNo);
  const moved = await trx
    .updateTable('orders')
    .set({ status: 'paid', paid_at: now, pay_method: 'balance', provider_trade_no: sql`order_no` })
    .where('order_no', 'in', keyList(ctx, paidNos))
    .where(unindexedEq('orders.status', ['created', 'paying'])) // the order numbers are the way in, not the status
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== paid.length) throw new Error('payment batch: an order moved under its lock');
  const jobAt = Date.now();
  for (const idx of rowParts(ctx, paid, CHUNK)) {
    const part = idx.map((i) => ps[i]!);
    await trx.insertInto('order_events').values(part.map((p) => ({ order_no: p.orderNo, from_status: status.get(p.orderNo)!, to_status: 'paid' as const, note: 'paid from balance', at: now }))).execute();
    await trx
      .insertInto('payments')
      .values(part.map((p) => ({ provider: 'balance', provider_trade_no: p.orderNo, order_no: p.orderNo, user_id: p.userId, amount_fen: p.priceFen, outcome: 'applied', raw: '{}', created_at: now })))
      .execute();
    await trx
      .insertInto('jobs')
      .values(part.map((p) => ({ ...jobRow(afterPaymentJob(p.kind, p.orderNo)), created_at: jobAt, updated_at: jobAt, run_at: jobAt })))
      .onConflict((oc) => oc.column('job_key').doNothing())
      .execute();
  }
  // The ledger transactions and ONE credit of the escrow for the batch total; the buyers were debited in step 2.
  const posted = await postTxns(
    trx,
    paid.map((i) => ({ id: `pay:balance:${ps[i]!.orderNo}`, kind: 'pay' as const, orderNo: ps[i]!.orderNo, entries: [{ account: Account.escrow, amountFen: ps[i]!.priceFen }, { account: Account.user(ps[i]!.userId), amountFen: -ps[i]!.priceFen }], now })),
    { userDebitsApplied: true, dialect: ctx.db.dialect },
  );
  if (posted.size !== paid.length) throw new Error('payment batch: a ledger transaction was posted already');
  for (const i of paid) out[i] = 'ok';
  return out;
}

function jobRow(j: { kind: 'settle' | 'fulfil'; key: string; payload: { orderNo: string } }) {
  return { kind: j.kind, job_key: j.key, payload: JSON.stringify(j.payload), status: 'pending' as const, last_error: null };
}
