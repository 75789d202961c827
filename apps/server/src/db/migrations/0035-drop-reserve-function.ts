import { sql, type Kysely, type Migration } from 'kysely';
import type { Db } from '../database.ts';

/**
 * PostgreSQL only: a batch of drop reservations in ONE statement (modules/drops/reserve-batch.ts).
 *
 * The batch's transaction was seven round trips (begin, lock timeout, quota, orders, events, stock,
 * commit). Under a drop's load it took 200–350 ms from the server's side in bench/drop.ts (a
 * connection from the busy request pool, then the round trips), and the release's stock row stayed
 * locked from its update to the commit's round trip while every other batch of both processes
 * queued for it. As one function call in its own statement the batch is one round trip, and the
 * stock row is held only for the rest of that statement inside the database (≈ 2.4 ms a call).
 *
 * The same steps and lock order as the TypeScript batch (writeBatchIn), for members of the public
 * bucket (the release limit per identity; `lim` carries it):
 *   1. quota   one conditional upsert per member, sorted by identity (bytewise, as compareText) and
 *              arrival — a second member of an identity only touches the row this call already holds;
 *   2. orders  the orders and their `created` events of the members that got their quota;
 *   3. stock   last: the batch total at once, else the row's remaining units served greedily in
 *              arrival order; members that do not fit give their quota back and lose their order.
 * Returns each member's outcome ('ok', 'quota', 'stock') by its index. `lock_timeout` 2 s as in the
 * transaction: a lock wait beyond it fails the call (55P03, answered 1021 排队中).
 */
export function migration(db: Db): Migration {
  return {
    async up(k: Kysely<any>) {
      if (db.dialect !== 'postgres') return;
      await sql`
create function drop_reserve_batch(p_project bigint, p_now bigint, p_members jsonb)
returns table (idx int, outcome text)
language plpgsql
set lock_timeout = '2s'
as $fn$
declare
  m record;
  v_ok int[] := '{}';
  v_unfit int[] := '{}';
  v_total bigint;
  v_left bigint;
  v_got bigint := 0;
begin
  for m in select x.i, x.identity, x.qty, x.lim from jsonb_to_recordset(p_members) as x(i int, identity text, qty int, lim int)
           order by x.identity collate "C", x.i loop
    if m.qty <= m.lim then
      insert into drop_quota as q (project_id, identity_digest, taken, updated_at) values (p_project, m.identity, m.qty, p_now)
      on conflict (project_id, identity_digest) do update set taken = q.taken + excluded.taken, updated_at = excluded.updated_at
        where q.taken + excluded.taken <= m.lim;
      if found then v_ok := v_ok || m.i; end if;
    end if;
  end loop;

  insert into orders (order_no, kind, listing_id, goods_id, buyer_user_id, seller_user_id, buyer_address, price_fen, commission_fen, royalty_fen,
                      royalty_user_id, seller_income_fen, status, expires_at, created_at, project_id, quantity, unit_price_fen, identity_digest)
  select x.order_no, 'drop', null, null, x.buyer, x.seller, x.address, x.total, x.commission, 0,
         null, x.creator_fen, 'created', x.expires_at, x.created_at, p_project, x.qty, x.unit_price, x.identity
  from jsonb_to_recordset(p_members) as x(i int, order_no text, buyer bigint, seller bigint, address text, total bigint, commission bigint,
                                          creator_fen bigint, expires_at bigint, created_at bigint, qty int, unit_price bigint, identity text)
  where x.i = any(v_ok) order by x.i;
  insert into order_events (order_no, from_status, to_status, note, at)
  select x.order_no, null, 'created', x.note, x.created_at
  from jsonb_to_recordset(p_members) as x(i int, order_no text, note text, created_at bigint)
  where x.i = any(v_ok) order by x.i;

  select coalesce(sum(x.qty), 0) into v_total from jsonb_to_recordset(p_members) as x(i int, qty int) where x.i = any(v_ok);
  if v_total > 0 then
    update drop_stock set taken = taken + v_total, updated_at = p_now where project_id = p_project and taken + v_total <= supply;
    if not found then
      update drop_stock set updated_at = p_now where project_id = p_project returning supply - taken into v_left;
      v_left := coalesce(v_left, 0);
      for m in select x.i, x.identity, x.qty, x.order_no from jsonb_to_recordset(p_members) as x(i int, identity text, qty int, order_no text)
               where x.i = any(v_ok) order by x.i loop
        if m.qty <= v_left then
          v_left := v_left - m.qty;
          v_got := v_got + m.qty;
        else
          v_unfit := v_unfit || m.i;
          update drop_quota set taken = taken - m.qty, updated_at = p_now where project_id = p_project and identity_digest = m.identity and taken >= m.qty;
          delete from order_events where order_no = m.order_no;
          delete from orders where order_no = m.order_no;
        end if;
      end loop;
      if v_got > 0 then
        update drop_stock set taken = taken + v_got, updated_at = p_now where project_id = p_project and taken + v_got <= supply;
        if not found then raise exception 'drop stock of release %: % units counted free but not taken', p_project, v_got; end if;
      end if;
    end if;
  end if;

  return query
    select x.i, case when x.i = any(v_unfit) then 'stock' when x.i = any(v_ok) then 'ok' else 'quota' end
    from jsonb_to_recordset(p_members) as x(i int) order by x.i;
end
$fn$`.execute(k);
    },
    async down(k: Kysely<any>) {
      if (db.dialect !== 'postgres') return;
      await sql`drop function if exists drop_reserve_batch(bigint, bigint, jsonb)`.execute(k);
    },
  };
}
