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
 * transaction (on PostgreSQL ONE statement: the function `pay_balance_orders` of migration 0041 runs
 * the same steps), with the lock order of a single payment (orders → ledger balances, sorted):
 *
 *   1. the members' order rows, sorted by order number (PostgreSQL: FOR UPDATE), and each member's
 *      check against its row: the order exists, is the member's, is not past its payment window, is
 *      created / paying and of the kind the member expects;
 *   2. the buyers' balances debited, sorted by account and order number, each by a conditional UPDATE
 *      (balance ≥ the order's price, read from the locked row; a member whose balance is short
 *      writes nothing);
 *   3. for the members debited: one UPDATE of their orders to paid, their events, payments, ledger
 *      transactions and entries (multi-row inserts), ONE credit of the escrow balance for the batch
 *      total (the row every payment credits: one lock per batch instead of one per payment), their
 *      after-payment jobs.
 *
 * The checks are the batch's own so that a payment needs no read of its order before it: payOrder
 * sends a drop order's payment straight here (a quarter of PostgreSQL's statements in a drop's sale
 * were that read, bench/RESULTS.md). Each member gets its own answer: 'ok', 'short' (balance too low),
 * or the refusal of its order — 'notFound', 'notYours', 'due' (created / paying and past its window:
 * the caller expires it), 'expired', 'notPayable' (any other status), 'check' (not of the expected
 * kind: a market order's payment needs the settlement's dry run first) — with the order's
 * `expires_at`. The ledger is the same as one postTxn per payment (`pay:balance:<orderNo>`: buyer
 * −price, escrow +price). An order paid twice in one batch: the repeat is written after the batch,
 * in one of its own (it then finds the order paid, or the balance still short). Any error of a batch
 * of several members re-runs each member alone.
 */
export interface BalancePayment {
  orderNo: string;
  /** The order's kind as the caller expects it ('drop', or the kind it read); another kind answers 'check'. */
  kind: string;
  userId: number;
}
export type PayRefusal = 'notFound' | 'notYours' | 'due' | 'expired' | 'notPayable' | 'check';
export type PayOutcome = 'ok' | 'short' | PayRefusal;
export interface PayAnswer {
  outcome: PayOutcome;
  /** The order's payment deadline (null: no such order). */
  expiresAt: number | null;
}

const MAX_BATCH = 256;
const CHUNK = 150;
/** One group commit per database (db/group-commit.ts). */
const queues = new WeakMap<object, GroupCommit<BalancePayment, PayAnswer>>();

export function payInBatch(ctx: AppContext, p: BalancePayment): Promise<PayAnswer> {
  let q = queues.get(ctx.db);
  if (!q) queues.set(ctx.db, (q = new GroupCommit({ maxBatch: MAX_BATCH, write: (ps) => writePayBatch(ctx, ps) })));
  return q.submit(p);
}

/**
 * Writes one batch of balance payments; each member's answer, same order. On PostgreSQL one call of
 * `pay_balance_orders` (writePayBatchCall), elsewhere one transaction (writePayBatchIn).
 */
export function writePayBatch(ctx: AppContext, ps: readonly BalancePayment[]): Promise<PayAnswer[]> {
  return ctx.db.dialect === 'postgres' ? writePayBatchCall(ctx, ps) : writePayBatchIn(ctx, ps);
}

/** The batch in one database transaction of ≈ 11 statements (SQLite; on PostgreSQL for the tests that compare both). */
export function writePayBatchIn(ctx: AppContext, ps: readonly BalancePayment[]): Promise<PayAnswer[]> {
  return repeatsAfter(ps, (distinct) => inTx(ctx, (trx) => writeIn(ctx, trx, distinct)));
}

/**
 * The batch as one call of `pay_balance_orders` (PostgreSQL, migration 0041): the steps of writeIn
 * below in one statement — one round trip instead of ≈ 11, each holding a request connection. The
 * two must stay in step: a change to writeIn's writes needs a migration that replaces the function;
 * test/pay-batch.test.ts writes the same batches through both and compares every row they wrote.
 */
export function writePayBatchCall(ctx: AppContext, ps: readonly BalancePayment[]): Promise<PayAnswer[]> {
  return repeatsAfter(ps, async (distinct) => {
    const members = distinct.map((p, i) => {
      const job = jobRow(afterPaymentJob(p.kind, p.orderNo));
      return { i, order_no: p.orderNo, user_id: p.userId, account: Account.user(p.userId), kind: p.kind, job_kind: job.kind, job_key: job.job_key, job_payload: job.payload };
    });
    const { rows } = await sql<{ idx: number; outcome: PayOutcome; expires_at: number | string | null }>`select idx, outcome, expires_at from pay_balance_orders(${ctx.now()}, ${Date.now()}, ${JSON.stringify(members)}::jsonb)`.execute(ctx.db.kysely);
    const out: PayAnswer[] = new Array(distinct.length);
    for (const r of rows) out[r.idx] = { outcome: r.outcome, expiresAt: r.expires_at === null ? null : Number(r.expires_at) };
    return out;
  });
}

/**
 * Writes the members with distinct order numbers through `write`, then the repeats of an order number
 * (a double click) the same way after it, so each finds what the one before it left.
 */
async function repeatsAfter(ps: readonly BalancePayment[], write: (distinct: BalancePayment[]) => Promise<PayAnswer[]>): Promise<PayAnswer[]> {
  const seen = new Set<string>();
  const first: number[] = [];
  const later: number[] = [];
  ps.forEach((p, i) => {
    if (seen.has(p.orderNo)) later.push(i);
    else {
      seen.add(p.orderNo);
      first.push(i);
    }
  });
  const out: PayAnswer[] = new Array(ps.length);
  const a = await write(first.map((i) => ps[i]!));
  first.forEach((i, k) => (out[i] = a[k]!));
  if (later.length) {
    const b = await repeatsAfter(later.map((i) => ps[i]!), write);
    later.forEach((i, k) => (out[i] = b[k]!));
  }
  return out;
}

interface OrderCheckRow {
  order_no: string;
  status: string;
  kind: string;
  buyer_user_id: number | string;
  price_fen: number | string;
  expires_at: number | string;
}

/** A member's refusal by its locked order row, or undefined: payable (pay_balance_orders has the same checks). */
function refusalOf(p: BalancePayment, o: OrderCheckRow | undefined, now: number): PayRefusal | undefined {
  if (!o) return 'notFound';
  if (Number(o.buyer_user_id) !== p.userId) return 'notYours';
  const open = o.status === 'created' || o.status === 'paying';
  if (open && Number(o.expires_at) <= now) return 'due';
  if (o.status === 'expired') return 'expired';
  if (!open) return 'notPayable';
  if (o.kind !== p.kind) return 'check';
  return undefined;
}

/** Members with distinct order numbers (repeatsAfter). */
async function writeIn(ctx: AppContext, trx: Q, ps: readonly BalancePayment[]): Promise<PayAnswer[]> {
  const now = ctx.now();
  const out: PayAnswer[] = new Array(ps.length);

  // 1. the order rows (sorted; locked on PostgreSQL) and each member's check
  const nos = ps.map((p) => p.orderNo).sort(compareText);
  let q = trx.selectFrom('orders').select(['order_no', 'status', 'kind', 'buyer_user_id', 'price_fen', 'expires_at']).where('order_no', 'in', keyList(ctx, nos)).orderBy('order_no');
  if (ctx.db.dialect === 'postgres') q = q.forUpdate();
  const rows = new Map<string, OrderCheckRow>((await q.execute()).map((r) => [r.order_no, r]));

  const priceOf = (p: BalancePayment) => Number(rows.get(p.orderNo)!.price_fen);
  const payable: number[] = [];
  ps.forEach((p, i) => {
    const o = rows.get(p.orderNo);
    const refusal = refusalOf(p, o, now);
    out[i] = { outcome: refusal ?? 'ok', expiresAt: o ? Number(o.expires_at) : null };
    if (!refusal) payable.push(i);
  });

  // 2. debits: the accounts that pay one order of the batch in ONE conditional UPDATE (balance ≥ its price;
  //    RETURNING names the accounts debited, the others are short); an account paying several orders of the
  //    batch at once is debited member by member, sorted by account and order number.
  payable.sort((a, b) => compareText(Account.user(ps[a]!.userId), Account.user(ps[b]!.userId)) || compareText(ps[a]!.orderNo, ps[b]!.orderNo));
  const paid: number[] = [];
  const byAccount = new Map<string, number[]>();
  for (const i of payable) {
    if (priceOf(ps[i]!) === 0) {
      paid.push(i); // nothing to debit (postTxn writes no zero entries either)
      continue;
    }
    const account = Account.user(ps[i]!.userId);
    const list = byAccount.get(account);
    if (list) list.push(i);
    else byAccount.set(account, [i]);
  }
  const short = (i: number) => (out[i] = { ...out[i]!, outcome: 'short' });
  const single = [...byAccount].filter(([, is]) => is.length === 1).map(([account, [i]]) => ({ account, i: i! }));
  if (single.length) {
    const price = sql<number>`case account ${sql.join(single.map((m) => sql`when ${m.account} then cast(${priceOf(ps[m.i]!)} as bigint)`), sql` `)} end`;
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
      else short(m.i);
    }
  }
  for (const is of byAccount.values()) {
    if (is.length === 1) continue;
    for (const i of is) {
      const p = ps[i]!;
      const res = await trx
        .updateTable('ledger_balances')
        .set({ balance_fen: sql`balance_fen - ${priceOf(p)}`, updated_at: now })
        .where('account', '=', Account.user(p.userId))
        .where('balance_fen', '>=', priceOf(p))
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 1) paid.push(i);
      else short(i);
    }
  }
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
    await trx.insertInto('order_events').values(part.map((p) => ({ order_no: p.orderNo, from_status: rows.get(p.orderNo)!.status as 'created' | 'paying', to_status: 'paid' as const, note: 'paid from balance', at: now }))).execute();
    await trx
      .insertInto('payments')
      .values(part.map((p) => ({ provider: 'balance', provider_trade_no: p.orderNo, order_no: p.orderNo, user_id: p.userId, amount_fen: priceOf(p), outcome: 'applied', raw: '{}', created_at: now })))
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
    paid.map((i) => {
      const p = ps[i]!;
      return { id: `pay:balance:${p.orderNo}`, kind: 'pay' as const, orderNo: p.orderNo, entries: [{ account: Account.escrow, amountFen: priceOf(p) }, { account: Account.user(p.userId), amountFen: -priceOf(p) }], now };
    }),
    { userDebitsApplied: true, dialect: ctx.db.dialect },
  );
  if (posted.size !== paid.length) throw new Error('payment batch: a ledger transaction was posted already');
  return out;
}

function jobRow(j: { kind: 'settle' | 'fulfil'; key: string; payload: { orderNo: string } }) {
  return { kind: j.kind, job_key: j.key, payload: JSON.stringify(j.payload), status: 'pending' as const, last_error: null };
}
