import { sql, type Kysely, type Migration } from 'kysely';
import type { Db } from '../database.ts';

/**
 * PostgreSQL only: `pay_balance_orders`, the balance-payment batch (modules/payments/pay-batch.ts)
 * that checks its orders itself, so a drop order's payment needs no read of its order before it.
 *
 * Every payment from balance read its order first (`buyerOrder`: it exists, is the caller's, is not
 * past its window, is payable) and then queued for the batch, whose function (pay_balance_batch,
 * 0036/0038/0040) locked and read the same row again. In a drop's sale that read was a quarter of
 * the statements PostgreSQL ran (4,224 of ≈ 17,500 in 9 s of bench/drop.ts, pg_stat_statements), and
 * every statement is a round trip that wakes a backend. This function takes each member's order
 * number, buyer and expected kind, and answers from the row it locks:
 *   'notFound' (no such order), 'notYours' (another buyer's), 'due' (created / paying and past its
 *   window: the caller expires it), 'expired', 'notPayable' (any other status), 'check' (not of the
 *   expected kind: a market order's payment needs the settlement's dry run first); otherwise the
 *   steps of pay_balance_batch with the price read from the locked row: the debit ('short' when the
 *   balance is too low: nothing of it is written), then for the members debited their orders to
 *   paid, events, payments, jobs, ledger transactions and entries, and one credit of the escrow.
 * Each member's outcome comes with the order's `expires_at`. The members' order numbers are distinct
 * (the caller writes a repeated one after the batch, in one of its own). Like 0040's functions it
 * runs with `enable_seqscan = off`: every statement reaches its rows through a key.
 * pay_balance_batch stays for processes of the previous version during a rolling deploy.
 */
export const PAY_BALANCE_ORDERS_0041 = `create function pay_balance_orders(p_now bigint, p_job_at bigint, p_members jsonb)
returns table (idx int, outcome text, expires_at bigint)
language plpgsql
set enable_seqscan = off
as $fn$
declare
  m record;
  v_nos text[] := '{}';
  v_status text[] := '{}';
  v_kind text[] := '{}';
  v_buyer bigint[] := '{}';
  v_price bigint[] := '{}';
  v_exp bigint[] := '{}';
  v_oi int[] := '{}';
  v_out text[] := '{}';
  v_oexp bigint[] := '{}';
  v_pi int[] := '{}';
  v_pno text[] := '{}';
  v_pfrom text[] := '{}';
  v_puser bigint[] := '{}';
  v_pacct text[] := '{}';
  v_pprice bigint[] := '{}';
  v_refusal text;
  v_n bigint;
  v_escrow bigint;
begin
  for m in select o.order_no, o.status, o.kind, o.buyer_user_id, o.price_fen, o.expires_at from orders o
           where o.order_no = any(array(select x.order_no from jsonb_to_recordset(p_members) as x(order_no text)))
           order by o.order_no for update loop
    v_nos := v_nos || m.order_no::text;
    v_status := v_status || m.status::text;
    v_kind := v_kind || m.kind::text;
    v_buyer := v_buyer || m.buyer_user_id::bigint;
    v_price := v_price || m.price_fen::bigint;
    v_exp := v_exp || m.expires_at::bigint;
  end loop;

  for m in select x.i, x.order_no, x.user_id, x.account, x.kind, r.status, r.kind as row_kind, r.buyer, r.price, r.exp
           from jsonb_to_recordset(p_members) as x(i int, order_no text, user_id bigint, account text, kind text)
           left join unnest(v_nos, v_status, v_kind, v_buyer, v_price, v_exp) as r(order_no, status, kind, buyer, price, exp) on r.order_no = x.order_no
           order by x.account collate "C", x.order_no collate "C" loop
    v_refusal := case
      when m.status is null then 'notFound'
      when m.buyer <> m.user_id then 'notYours'
      when m.status in ('created', 'paying') and m.exp <= p_now then 'due'
      when m.status = 'expired' then 'expired'
      when m.status not in ('created', 'paying') then 'notPayable'
      when m.row_kind <> m.kind then 'check'
    end;
    if v_refusal is null and m.price <> 0 then
      update ledger_balances set balance_fen = balance_fen - m.price, updated_at = p_now where account = m.account and balance_fen >= m.price;
      if not found then v_refusal := 'short'; end if;
    end if;
    v_oi := v_oi || m.i;
    v_out := v_out || coalesce(v_refusal, 'ok');
    v_oexp := v_oexp || m.exp;
    if v_refusal is null then
      v_pi := v_pi || m.i;
      v_pno := v_pno || m.order_no;
      v_pfrom := v_pfrom || m.status;
      v_puser := v_puser || m.user_id;
      v_pacct := v_pacct || m.account;
      v_pprice := v_pprice || m.price;
    end if;
  end loop;

  if cardinality(v_pi) > 0 then
    update orders set status = 'paid', paid_at = p_now, pay_method = 'balance', provider_trade_no = order_no where order_no = any(v_pno);
    get diagnostics v_n = row_count;
    if v_n <> cardinality(v_pi) then raise exception 'payment batch: an order moved under its lock'; end if;

    insert into order_events (order_no, from_status, to_status, note, at)
    select p.no, p.fst, 'paid', 'paid from balance', p_now from unnest(v_pi, v_pno, v_pfrom) as p(i, no, fst) order by p.i;

    insert into payments (provider, provider_trade_no, order_no, user_id, amount_fen, outcome, raw, created_at)
    select 'balance', p.no, p.no, p.usr, p.price, 'applied', '{}', p_now from unnest(v_pi, v_pno, v_puser, v_pprice) as p(i, no, usr, price) order by p.i;

    insert into jobs (kind, job_key, payload, status, last_error, created_at, updated_at, run_at)
    select x.job_kind, x.job_key, x.job_payload, 'pending', null, p_job_at, p_job_at, p_job_at
    from jsonb_to_recordset(p_members) as x(i int, job_kind text, job_key text, job_payload text)
    where x.i = any(v_pi) order by x.i
    on conflict (job_key) do nothing;

    insert into ledger_txns (id, kind, order_no, created_at)
    select 'pay:balance:' || p.no, 'pay', p.no, p_now from unnest(v_pi, v_pno) as p(i, no) order by p.i
    on conflict (id) do nothing;
    get diagnostics v_n = row_count;
    if v_n <> cardinality(v_pi) then raise exception 'payment batch: a ledger transaction was posted already'; end if;

    insert into ledger_entries (txn_id, account, amount_fen, created_at)
    select 'pay:balance:' || p.no, e.account, e.amount, p_now
    from unnest(v_pi, v_pno, v_pacct, v_pprice) as p(i, no, acct, price)
    cross join lateral (values (1, 'escrow', p.price), (2, p.acct, -p.price)) as e(k, account, amount)
    where p.price <> 0 order by p.i, e.k;

    select coalesce(sum(p), 0) into v_escrow from unnest(v_pprice) as p;
    if v_escrow <> 0 then
      insert into ledger_balances as b (account, balance_fen, updated_at) values ('escrow', v_escrow, p_now)
      on conflict (account) do update set balance_fen = b.balance_fen + excluded.balance_fen, updated_at = excluded.updated_at;
    end if;
  end if;

  return query select o.i, o.o, o.e from unnest(v_oi, v_out, v_oexp) as o(i, o, e) order by o.i;
end
$fn$`;

export function migration(db: Db): Migration {
  return {
    async up(k: Kysely<any>) {
      if (db.dialect !== 'postgres') return;
      await sql.raw(PAY_BALANCE_ORDERS_0041).execute(k);
    },
    async down(k: Kysely<any>) {
      if (db.dialect !== 'postgres') return;
      await sql`drop function if exists pay_balance_orders(bigint, bigint, jsonb)`.execute(k);
    },
  };
}
