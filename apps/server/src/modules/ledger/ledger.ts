import { sql } from 'kysely';
import { Status } from '@cfx/contract/envelope.ts';
import { ApiError } from '../../http/envelope.ts';
import { rowParts, type Q } from '../../db/tx.ts';
import type { LedgerTxnKind } from '../../db/schema.ts';
import { compareText } from '../../util/compare.ts';

/**
 * Double-entry ledger in integer fen. Every movement of money is one transaction (`ledger_txns`,
 * with a business key as its id: posting the same key twice is a no-op) of entries that sum to
 * zero, so the sum over all accounts is always zero. `ledger_balances` keeps each account's
 * running balance in the same database transaction; user accounts never go below zero (a debit
 * is a conditional UPDATE … WHERE balance >= amount).
 *
 * Accounts:
 *   user:<id>            a user's available platform balance (proceeds, refunds, top-ups)
 *   escrow               buyers' payments held for orders that are paid but not yet settled
 *   platform:commission  the platform's commission income
 *   platform:suspense    money received for an order number we do not know
 *   external:<provider>  the outside world through a payment provider (goes negative as money comes in)
 *   payout:pending       withdrawals requested or processing: left the user's balance, not yet paid to the card
 *   refund:pending       refunds of stray payments to their original method, not yet confirmed by the provider
 *   platform:fee         withdrawal fees (modules/payout)
 */
export const Account = {
  user: (userId: number) => `user:${userId}`,
  escrow: 'escrow',
  commission: 'platform:commission',
  suspense: 'platform:suspense',
  external: (provider: string) => `external:${provider}`,
  payoutPending: 'payout:pending',
  refundPending: 'refund:pending',
  fee: 'platform:fee',
} as const;

export interface Entry {
  account: string;
  amountFen: number;
}

export interface PostInput {
  /** Unique business key, e.g. `pay:sandbox:<tradeNo>`, `settle:<orderNo>`, `refund:<orderNo>`. */
  id: string;
  kind: LedgerTxnKind;
  orderNo?: string | null;
  entries: Entry[];
  now: number;
}

/**
 * Posts one balanced transaction. Returns false (and changes nothing) when a transaction with
 * this id was already posted. Throws 1016 `balanceInsufficient` when a user account would go
 * negative — the caller's database transaction must then roll back.
 */
export async function postTxn(trx: Q, input: PostInput): Promise<boolean> {
  const rows = balancedRows(input);
  const inserted = await trx
    .insertInto('ledger_txns')
    .values({ id: input.id, kind: input.kind, order_no: input.orderNo ?? null, created_at: input.now })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return false;
  if (rows.length) {
    await trx.insertInto('ledger_entries').values(rows.map(([account, amount]) => ({ txn_id: input.id, account, amount_fen: amount, created_at: input.now }))).execute();
  }
  const credits: typeof rows = [];
  for (const [account, amount] of rows) {
    if (amount < 0 && account.startsWith('user:')) {
      const res = await trx
        .updateTable('ledger_balances')
        .set({ balance_fen: sql`balance_fen + ${amount}`, updated_at: input.now })
        .where('account', '=', account)
        .where('balance_fen', '>=', -amount)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw new ApiError(Status.PAYMENT_REFUSED, 'balanceInsufficient');
    } else {
      credits.push([account, amount]);
    }
  }
  await addToBalances(trx, credits, input.now);
  return true;
}

/** The transaction's entries merged per account, without zeros, sorted by account; throws unless they are integers summing to zero. */
function balancedRows(input: PostInput): [string, number][] {
  const merged = new Map<string, number>();
  for (const e of input.entries) {
    if (!Number.isSafeInteger(e.amountFen)) throw new Error(`ledger: non-integer amount ${e.amountFen} on ${e.account}`);
    merged.set(e.account, (merged.get(e.account) ?? 0) + e.amountFen);
  }
  let sum = 0;
  for (const v of merged.values()) sum += v;
  if (sum !== 0) throw new Error(`ledger: transaction ${input.id} does not balance (${sum})`);
  return [...merged.entries()].filter(([, v]) => v !== 0).sort(([a], [b]) => compareText(a, b));
}

/** Adds to the balances in one multi-row upsert (accounts sorted: a stable lock order on PostgreSQL). */
async function addToBalances(trx: Q, amounts: [string, number][], now: number) {
  if (!amounts.length) return;
  await trx
    .insertInto('ledger_balances')
    .values(amounts.map(([account, amount]) => ({ account, balance_fen: amount, updated_at: now })))
    .onConflict((oc) => oc.column('account').doUpdateSet({ balance_fen: sql`ledger_balances.balance_fen + excluded.balance_fen`, updated_at: now }))
    .execute();
}

/** Rows per multi-row statement of postTxns (bound parameters stay far below SQLite's and PostgreSQL's limits). */
const TXNS_PER_STATEMENT = 200;

/**
 * Posts many balanced transactions in a few statements instead of a few each: one multi-row insert
 * of the transactions (an id already posted is skipped, as in postTxn), one of their entries, and one
 * upsert adding each account's total. Returns the ids posted now. Call inside the caller's database
 * transaction.
 *
 * A debit of a user account must never go below zero, which one upsert of totals cannot check: it is
 * refused, unless `userDebitsApplied` says the caller already took those debits from the balances in
 * this transaction with its own conditional UPDATE (the balance-payment batch, which debits a batch
 * of buyers in one statement); their entries are then recorded and not applied again.
 */
export async function postTxns(trx: Q, inputs: readonly PostInput[], opts: { userDebitsApplied?: boolean; dialect?: string } = {}): Promise<Set<string>> {
  // `dialect`: the database's, for the statements' row parts (db/tx.ts rowParts; powers of two on SQLite).
  const parts = <T>(rows: readonly T[], max: number) => rowParts({ db: { dialect: opts.dialect ?? '' } }, rows, max);
  const userDebit = ([account, amount]: [string, number]) => amount < 0 && account.startsWith('user:');
  const rowsOf = new Map<string, { input: PostInput; rows: [string, number][] }>();
  for (const input of inputs) {
    const rows = balancedRows(input);
    if (!opts.userDebitsApplied && rows.some(userDebit)) throw new Error(`ledger: postTxns cannot debit a user account (${input.id}); use postTxn`);
    if (rowsOf.has(input.id)) throw new Error(`ledger: transaction ${input.id} twice in one batch`);
    rowsOf.set(input.id, { input, rows });
  }
  const posted = new Set<string>();
  const all = [...rowsOf.values()];
  for (const part of parts(all, TXNS_PER_STATEMENT)) {
    const ins = await trx
      .insertInto('ledger_txns')
      .values(part.map(({ input }) => ({ id: input.id, kind: input.kind, order_no: input.orderNo ?? null, created_at: input.now })))
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .execute();
    for (const r of ins) posted.add(r.id);
  }
  const entries = all.filter(({ input }) => posted.has(input.id)).flatMap(({ input, rows }) => rows.map(([account, amount]) => ({ txn_id: input.id, account, amount_fen: amount, created_at: input.now })));
  for (const part of parts(entries, TXNS_PER_STATEMENT * 3)) await trx.insertInto('ledger_entries').values(part).execute();
  const totals = new Map<string, number>();
  let now = 0;
  for (const { input, rows } of all) {
    if (!posted.has(input.id)) continue;
    now = Math.max(now, input.now);
    for (const row of rows) if (!userDebit(row)) totals.set(row[0], (totals.get(row[0]) ?? 0) + row[1]);
  }
  await addToBalances(trx, [...totals].filter(([, v]) => v !== 0).sort(([a], [b]) => compareText(a, b)), now);
  return posted;
}

export async function balanceOf(q: Q, account: string): Promise<number> {
  const row = await q.selectFrom('ledger_balances').select('balance_fen').where('account', '=', account).executeTakeFirst();
  return Number(row?.balance_fen ?? 0);
}

/** Invariants of the ledger, for tests and the benchmark: every transaction and the whole ledger sum to zero, balances match entries, no user is negative. */
export async function ledgerProblems(q: Q): Promise<string[]> {
  const problems: string[] = [];
  const total = await q.selectFrom('ledger_entries').select(sql<string>`coalesce(sum(amount_fen), 0)`.as('s')).executeTakeFirstOrThrow();
  if (Number(total.s) !== 0) problems.push(`sum of all entries is ${total.s}`);
  const bad = await q.selectFrom('ledger_entries').select(['txn_id', sql<string>`sum(amount_fen)`.as('s')]).groupBy('txn_id').having(sql`sum(amount_fen)`, '!=', 0).execute();
  for (const b of bad) problems.push(`transaction ${b.txn_id} sums to ${b.s}`);
  const sums = await q.selectFrom('ledger_entries').select(['account', sql<string>`sum(amount_fen)`.as('s')]).groupBy('account').execute();
  const balances = new Map((await q.selectFrom('ledger_balances').selectAll().execute()).map((r) => [r.account, Number(r.balance_fen)]));
  for (const s of sums) {
    if ((balances.get(s.account) ?? 0) !== Number(s.s)) problems.push(`balance of ${s.account} is ${balances.get(s.account)} but its entries sum to ${s.s}`);
    if (s.account.startsWith('user:') && Number(s.s) < 0) problems.push(`${s.account} is negative (${s.s})`);
  }
  const balSum = [...balances.values()].reduce((a, b) => a + b, 0);
  if (balSum !== 0) problems.push(`sum of balances is ${balSum}`);
  // The escrow holds exactly the payments of orders that are paid but not settled or refunded.
  const escrow = await balanceOf(q, Account.escrow);
  const held = await q.selectFrom('orders').select(sql<string>`coalesce(sum(price_fen), 0)`.as('s')).where('status', 'in', ['paid', 'settling']).executeTakeFirstOrThrow();
  if (escrow !== Number(held.s)) problems.push(`escrow is ${escrow} but paid/settling orders hold ${held.s}`);
  // A drop order's price is its quantity × unit price, split into the platform's commission and the creator's income.
  const drops = await q
    .selectFrom('orders')
    .select(['order_no'])
    .where('kind', '=', 'drop')
    .where((eb) => eb.or([
      eb(sql`price_fen`, '!=', sql`quantity * unit_price_fen`),
      eb(sql`price_fen`, '!=', sql`commission_fen + seller_income_fen`),
      eb('royalty_fen', '!=', 0),
    ]))
    .limit(20)
    .execute();
  for (const d of drops) problems.push(`drop order ${d.order_no}: price ≠ quantity × unit price or ≠ commission + creator income`);
  // Every completed order was settled by exactly one `settle:` transaction (a paid drop order is credited to the creator only once).
  const unsettled = await q
    .selectFrom('orders')
    .leftJoin('ledger_txns', (j) => j.on(sql<boolean>`ledger_txns.id = ${sql.lit('settle:')} || orders.order_no`))
    .select('orders.order_no')
    .where('orders.kind', '=', 'drop')
    .where('orders.status', '=', 'completed')
    .where('ledger_txns.id', 'is', null)
    .limit(20)
    .execute();
  for (const u of unsettled) problems.push(`completed drop order ${u.order_no} has no settle transaction`);
  problems.push(...(await payoutProblems(q)));
  return problems;
}

/**
 * Money out (modules/payout): payout:pending holds exactly the withdrawals requested or processing and
 * refund:pending the stray refunds requested or processing; a finished withdrawal / refund has exactly
 * one outcome transaction (paid or failed, never both, never none).
 */
async function payoutProblems(q: Q): Promise<string[]> {
  const problems: string[] = [];
  const pending = await balanceOf(q, Account.payoutPending);
  const inFlight = await q.selectFrom('payout_withdrawals').select(sql<string>`coalesce(sum(amount_fen), 0)`.as('s')).where('status', 'in', ['requested', 'processing']).executeTakeFirstOrThrow();
  if (pending !== Number(inFlight.s)) problems.push(`payout:pending is ${pending} but withdrawals in flight hold ${inFlight.s}`);
  const refundPending = await balanceOf(q, Account.refundPending);
  const refunding = await q.selectFrom('stray_refunds').select(sql<string>`coalesce(sum(amount_fen), 0)`.as('s')).where('status', 'in', ['requested', 'processing']).executeTakeFirstOrThrow();
  if (refundPending !== Number(refunding.s)) problems.push(`refund:pending is ${refundPending} but refunds in flight hold ${refunding.s}`);
  const outcomes = [
    { table: 'payout_withdrawals', no: 'withdraw_no', start: 'withdraw:', ok: 'withdraw-paid:', bad: 'withdraw-failed:', okStatus: 'succeeded' },
    { table: 'stray_refunds', no: 'refund_no', start: 'refund-out:', ok: 'refund-out-paid:', bad: 'refund-out-failed:', okStatus: 'succeeded' },
  ] as const;
  for (const o of outcomes) {
    const rows = await sql<{ no: string; status: string; started: number; paid: number; failed: number }>`
      select * from (
        select t.${sql.ref(o.no)} as no, t.status,
          (select count(*) from ledger_txns where id = ${o.start} || t.${sql.ref(o.no)}) as started,
          (select count(*) from ledger_txns where id = ${o.ok} || t.${sql.ref(o.no)}) as paid,
          (select count(*) from ledger_txns where id = ${o.bad} || t.${sql.ref(o.no)}) as failed
        from ${sql.table(o.table)} t
      ) x
      where x.started != 1
         or (x.status in ('succeeded', 'failed') and x.paid + x.failed != 1)
         or (x.status in ('requested', 'processing') and x.paid + x.failed != 0)
      limit 20`.execute(q);
    for (const r of rows.rows) problems.push(`${o.table} ${r.no} (${r.status}): start ${r.started}, paid ${r.paid}, failed ${r.failed} ledger transactions`);
    const wrong = await sql<{ no: string }>`
      select t.${sql.ref(o.no)} as no from ${sql.table(o.table)} t
      where (t.status = ${o.okStatus} and not exists (select 1 from ledger_txns where id = ${o.ok} || t.${sql.ref(o.no)}))
         or (t.status = 'failed' and not exists (select 1 from ledger_txns where id = ${o.bad} || t.${sql.ref(o.no)}))
      limit 20`.execute(q);
    for (const r of wrong.rows) problems.push(`${o.table} ${r.no}: its outcome transaction does not match its status`);
  }
  return problems;
}
