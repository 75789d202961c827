import { PostgresAdapter, sql, type Updateable } from 'kysely';
import type { OrderStatus } from '@cfx/contract/market.ts';
import type { OrdersTable } from '../../db/schema.ts';
import type { Q } from '../../db/tx.ts';

/**
 * Order state machine:
 *
 *   created ─pay─▶ paying ─notify─▶ paid ─job─▶ settling ─receipt─▶ completed
 *      │  └────────balance──────────▶ │             └─permanent failure─▶ refunded
 *      └─▶ cancelled / expired ◀──────┘ (only from created / paying)
 *
 * Every move is a conditional UPDATE (… WHERE order_no = ? AND status = <observed>) inside the
 * caller's transaction, and is recorded in order_events. A move that loses a race changes nothing
 * and returns null.
 */
export const TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  created: ['paying', 'paid', 'cancelled', 'expired'],
  paying: ['paid', 'cancelled', 'expired'],
  paid: ['settling'],
  settling: ['completed', 'refunded', 'paid'],
  completed: [],
  cancelled: [],
  expired: [],
  refunded: [],
};

export async function moveOrder(
  trx: Q,
  orderNo: string,
  from: OrderStatus | readonly OrderStatus[],
  to: OrderStatus,
  now: number,
  set: Updateable<OrdersTable> = {},
  note: string | null = null,
): Promise<OrderStatus | null> {
  let current: OrderStatus;
  if (typeof from === 'string') {
    current = from;
  } else {
    const row = await trx.selectFrom('orders').select('status').where('order_no', '=', orderNo).executeTakeFirst();
    if (!row || !from.includes(row.status)) return null;
    current = row.status;
  }
  if (!TRANSITIONS[current].includes(to)) throw new Error(`illegal order move ${current} → ${to}`);
  const event = { from: current, to, note: note?.slice(0, 200) ?? null, at: now };
  const move = (k: Pick<Q, 'updateTable'>) => k.updateTable('orders').set({ ...set, status: to }).where('order_no', '=', orderNo).where('status', '=', current);
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    // One round trip on PostgreSQL: the move and its event in one statement (the event only when the move found its row).
    const res = await trx
      .with('m', (k) => move(k).returning('order_no'))
      .insertInto('order_events')
      .columns(['order_no', 'from_status', 'to_status', 'note', 'at'])
      .expression((eb) => eb.selectFrom('m').select(['m.order_no', sql<OrderStatus>`${event.from}::text`.as('f'), sql<OrderStatus>`${event.to}::text`.as('t'), sql<string | null>`${event.note}::text`.as('n'), sql<number>`${event.at}::bigint`.as('a')]))
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) === 1 ? current : null;
  }
  const res = await move(trx).executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return null;
  await trx.insertInto('order_events').values({ order_no: orderNo, from_status: event.from, to_status: event.to, note: event.note, at: event.at }).execute();
  return current;
}

/** An event without a status change (e.g. a late payment credited to the buyer's balance). */
export async function noteOrder(trx: Q, orderNo: string, status: OrderStatus, note: string, now: number) {
  await trx.insertInto('order_events').values({ order_no: orderNo, from_status: status, to_status: status, note: note.slice(0, 200), at: now }).execute();
}

/** After an unpaid order closes: a market listing goes back on sale; a bid's private listing closes. */
export async function releaseListing(trx: Q, order: { order_no: string; listing_id: number; goods_id: number }, now: number) {
  const l = await trx.selectFrom('listings').select(['id', 'kind', 'status', 'reserved_order_no']).where('id', '=', order.listing_id).executeTakeFirst();
  if (!l || l.status !== 'reserved' || l.reserved_order_no !== order.order_no) return;
  if (l.kind === 'market') {
    await trx.updateTable('listings').set({ status: 'on_sale', reserved_order_no: null }).where('id', '=', l.id).where('status', '=', 'reserved').where('reserved_order_no', '=', order.order_no).execute();
  } else {
    await trx
      .updateTable('listings')
      .set({ status: 'closed', close_reason: 'bid_order_closed', closed_at: now })
      .where('id', '=', l.id)
      .where('status', '=', 'reserved')
      .where('reserved_order_no', '=', order.order_no)
      .execute();
  }
}
