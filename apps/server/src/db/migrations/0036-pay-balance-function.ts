import { sql, type Kysely, type Migration } from 'kysely';
import type { Db } from '../database.ts';

/**
 * PostgreSQL only: a batch of payments from balance in ONE statement (modules/payments/pay-batch.ts).
 *
 * The batch's transaction was ≈ 11 round trips (begin, the order rows, the debits, the orders' update,
 * events, payments, jobs, the ledger's transactions, entries and escrow credit, commit), and it held a
 * connection of the request pool throughout: 200–400 ms per batch in bench/drop.ts while the pool was
 * saturated. As one function call the batch is one round trip.
 *
 * The same steps, lock order and rows as the TypeScript batch (writeIn), for members whose order
 * numbers are distinct (the caller answers a repeated order number from its first member):
 *   1. orders   the members' order rows locked in order-number order; payable = created or paying;
 *   2. debits   each payable member's buyer balance debited by a conditional UPDATE (balance ≥ price),
 *               sorted by account (bytewise, as compareText) and order number; a free order debits nothing;
 *               a member whose balance is short writes nothing;
 *   3. writes   for the members debited: their orders to paid, their `paid` events (from the locked
 *               status), payments, after-payment jobs (an existing job key is kept), ledger transactions
 *               `pay:balance:<orderNo>` with their two entries (escrow +price, buyer −price; none for a
 *               free order), and ONE credit of the escrow balance for the batch total, last.
 * Returns each member's outcome ('ok', 'notPayable', 'short') by its index. A broken invariant (an
 * order moved under its lock, a ledger transaction posted already) raises, and the statement's
 * writes are rolled back as a whole.
 */
/** The function as this migration creates it (0038 replaces two of its statements). */
export const PAY_BALANCE_BATCH_0036 = `create function pay_balance_batch(p_now bigint, p_job_at bigint, p_members jsonb)
returns table (idx int, outcome text)
language plpgsql
as $fn$
declare
  m record;
  v_nos text[] := '{}';
  v_from text[] := '{}';
  v_paid int[] := '{}';
  v_short int[] := '{}';
  v_n bigint;
  v_escrow bigint;
begin
  for m in select o.order_no, o.status from orders o
           where o.order_no in (select x.order_no from jsonb_to_recordset(p_members) as x(order_no text))
           order by o.order_no for update loop
    if m.status in ('created', 'paying') then
      v_nos := v_nos || m.order_no::text;
      v_from := v_from || m.status::text;
    end if;
  end loop;

  for m in select x.i, x.account, x.price from jsonb_to_recordset(p_members) as x(i int, order_no text, account text, price bigint)
           where x.order_no = any(v_nos) order by x.account collate "C", x.order_no collate "C" loop
    if m.price = 0 then
      v_paid := v_paid || m.i;
    else
      update ledger_balances set balance_fen = balance_fen - m.price, updated_at = p_now where account = m.account and balance_fen >= m.price;
      if found then v_paid := v_paid || m.i; else v_short := v_short || m.i; end if;
    end if;
  end loop;

  if cardinality(v_paid) > 0 then
    update orders set status = 'paid', paid_at = p_now, pay_method = 'balance', provider_trade_no = order_no
    where order_no in (select x.order_no from jsonb_to_recordset(p_members) as x(i int, order_no text) where x.i = any(v_paid))
      and status in ('created', 'paying');
    get diagnostics v_n = row_count;
    if v_n <> cardinality(v_paid) then raise exception 'payment batch: an order moved under its lock'; end if;

    insert into order_events (order_no, from_status, to_status, note, at)
    select x.order_no, s.from_status, 'paid', 'paid from balance', p_now
    from jsonb_to_recordset(p_members) as x(i int, order_no text) join unnest(v_nos, v_from) as s(order_no, from_status) on s.order_no = x.order_no
    where x.i = any(v_paid) order by x.i;

    insert into payments (provider, provider_trade_no, order_no, user_id, amount_fen, outcome, raw, created_at)
    select 'balance', x.order_no, x.order_no, x.user_id, x.price, 'applied', '{}', p_now
    from jsonb_to_recordset(p_members) as x(i int, order_no text, user_id bigint, price bigint)
    where x.i = any(v_paid) order by x.i;

    insert into jobs (kind, job_key, payload, status, last_error, created_at, updated_at, run_at)
    select x.job_kind, x.job_key, x.job_payload, 'pending', null, p_job_at, p_job_at, p_job_at
    from jsonb_to_recordset(p_members) as x(i int, job_kind text, job_key text, job_payload text)
    where x.i = any(v_paid) order by x.i
    on conflict (job_key) do nothing;

    insert into ledger_txns (id, kind, order_no, created_at)
    select 'pay:balance:' || x.order_no, 'pay', x.order_no, p_now
    from jsonb_to_recordset(p_members) as x(i int, order_no text)
    where x.i = any(v_paid) order by x.i
    on conflict (id) do nothing;
    get diagnostics v_n = row_count;
    if v_n <> cardinality(v_paid) then raise exception 'payment batch: a ledger transaction was posted already'; end if;

    insert into ledger_entries (txn_id, account, amount_fen, created_at)
    select 'pay:balance:' || x.order_no, e.account, e.amount, p_now
    from jsonb_to_recordset(p_members) as x(i int, order_no text, account text, price bigint)
    cross join lateral (values (1, 'escrow', x.price), (2, x.account, -x.price)) as e(k, account, amount)
    where x.i = any(v_paid) and x.price <> 0 order by x.i, e.k;

    select coalesce(sum(x.price), 0) into v_escrow from jsonb_to_recordset(p_members) as x(i int, price bigint) where x.i = any(v_paid);
    if v_escrow <> 0 then
      insert into ledger_balances as b (account, balance_fen, updated_at) values ('escrow', v_escrow, p_now)
      on conflict (account) do update set balance_fen = b.balance_fen + excluded.balance_fen, updated_at = excluded.updated_at;
    end if;
  end if;

  return query
    select x.i, case when x.i = any(v_paid) then 'ok' when x.i = any(v_short) then 'short' else 'notPayable' end
    from jsonb_to_recordset(p_members) as x(i int) order by x.i;
end
$fn$`;

export function migration(db: Db): Migration {
  return {
    async up(k: Kysely<any>) {
      if (db.dialect !== 'postgres') return;
      await sql.raw(PAY_BALANCE_BATCH_0036).execute(k);
    },
    async down(k: Kysely<any>) {
      if (db.dialect !== 'postgres') return;
      await sql`drop function if exists pay_balance_batch(bigint, bigint, jsonb)`.execute(k);
    },
  };
}
