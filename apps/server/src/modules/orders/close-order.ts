import type { AppContext } from '../../context.ts';
import { inTx, type Q } from '../../db/tx.ts';
import { compareText } from '../../util/compare.ts';
import { moveOrder, releaseListing } from './transitions.ts';
import { orderHooks, type ClosableOrder } from './order-hooks.ts';
import { notifyOrdersExpired } from '../messages/index.ts';

/**
 * `open`: the caller read the order as created / paying a moment ago (the buyer's own call), so the
 * read before the transaction is skipped; the transaction reads it again. `read`: the caller has the
 * row itself (buyerOrder's), so the transaction reads nothing either — every column used is fixed at
 * the order's creation but the status, and the status is the move's condition (a cancelled order's
 * move finds nothing to update).
 */
type CloseOpts = { dueOnly?: boolean; reason?: string; byBuyer?: boolean; open?: boolean; read?: ClosableOrder };

/** The columns of ClosableOrder, read by the transaction when the caller has no row. */
const CLOSABLE = ['order_no', 'status', 'expires_at', 'listing_id', 'goods_id', 'kind', 'project_id', 'quantity', 'identity_digest', 'quota_bucket'] as const satisfies readonly (keyof ClosableOrder)[];

/** Read before any transaction: most calls find nothing to close (already paid or closed) and open none. */
async function closable(ctx: AppContext, orderNo: string, opts: CloseOpts, now: number): Promise<boolean> {
  const o = await ctx.db.kysely.selectFrom('orders').select(['status', 'expires_at']).where('order_no', '=', orderNo).executeTakeFirst();
  return !!o && (o.status === 'created' || o.status === 'paying') && !(opts.dueOnly && Number(o.expires_at) > now);
}

/**
 * Closes an unpaid order (created / paying) as `expired` or `cancelled` and releases its listing,
 * in one transaction. With `dueOnly` only an order past its payment window closes. A payment
 * that races it wins or loses by the conditional update; a payment arriving afterwards is
 * credited to the buyer's balance (apply-payment.ts), so no money is lost either way.
 */
export async function closeUnpaidOrder(
  ctx: AppContext,
  orderNo: string,
  to: 'expired' | 'cancelled',
  opts: CloseOpts = {},
): Promise<boolean> {
  if (!opts.open && !opts.read && !(await closable(ctx, orderNo, opts, ctx.now()))) return false;
  // The transaction's result is the boolean itself: a staff action's audit hook (admin/audit.ts) reads it.
  return inTx(ctx, async (trx) => (await closeAllInTx(ctx, trx, [{ orderNo, to, opts }]))[0]!);
}

interface CloseRequest {
  orderNo: string;
  to: 'expired' | 'cancelled';
  opts: CloseOpts;
}

/**
 * Closes orders in the caller's transaction: the orders moved in order-number order (the lock order
 * of the balance payments' batches), then the buyers of the expired ones told together, then the
 * drop units of all of them given back at once (one stock update per release, last). Each member's
 * outcome (closed or not), in the given order.
 */
async function closeAllInTx(ctx: AppContext, trx: Q, rs: readonly CloseRequest[]): Promise<boolean[]> {
  const now = ctx.now();
  const out = rs.map(() => false);
  const closed: ClosableOrder[] = [];
  const expired: string[] = [];
  const order = rs.map((_, i) => i).sort((a, b) => compareText(rs[a]!.orderNo, rs[b]!.orderNo));
  for (const i of order) {
    const r = rs[i]!;
    // The same order twice in a batch: the second finds it closed.
    const o = await closeInTx(ctx, trx, r.orderNo, r.to, r.opts, now);
    if (o) {
      out[i] = true;
      closed.push(o);
      if (r.to === 'expired') expired.push(r.orderNo);
    }
  }
  // The buyers' "order expired" messages (not for a cancellation: the buyer or the system chose it), together.
  await notifyOrdersExpired(ctx, trx, expired, now);
  // Then the drop units back: the release's stock row, which every reservation queues for on PostgreSQL, is
  // taken by the last statements before the commit, not held across the messages' round trips.
  await orderHooks(ctx).releaseUnpaid(ctx, trx, closed, now);
  return out;
}

/**
 * Moves one unpaid order to `to` and releases its listing, in the caller's transaction (transactions
 * begin IMMEDIATE on SQLite and hold the write lock: reading first is safe). The drop units are given
 * back, and the buyers told, by closeAllInTx, once for all the orders it closed. Returns the order
 * when it closed it.
 */
async function closeInTx(ctx: AppContext, trx: Q, orderNo: string, to: 'expired' | 'cancelled', opts: CloseOpts, now: number): Promise<ClosableOrder | null> {
  const o = opts.read ?? (await trx.selectFrom('orders').select(CLOSABLE).where('order_no', '=', orderNo).executeTakeFirst());
  if (!o || (o.status !== 'created' && o.status !== 'paying')) return null;
  if (opts.dueOnly && Number(o.expires_at) > now) return null;
  // Counted for the buyer's re-order cooldown and daily cap (create-order.ts): not paying in time, or cancelling.
  const closedBy = to === 'expired' ? ('expiry' as const) : opts.byBuyer ? ('buyer' as const) : null;
  const set = { closed_at: now, fail_reason: opts.reason ?? null, closed_by: closedBy };
  let moved = await moveOrder(trx, orderNo, o.status, to, now, set, opts.reason ?? null);
  // It moved since the read (PostgreSQL: the read takes no lock): only created → paying leaves it closable.
  if (!moved && o.status === 'created') moved = await moveOrder(trx, orderNo, 'paying', to, now, set, opts.reason ?? null);
  if (!moved) return null;
  // A drop order has no listing.
  if (o.listing_id !== null) await releaseListing(trx, { order_no: orderNo, listing_id: Number(o.listing_id), goods_id: Number(o.goods_id) }, now);
  return o;
}

/** Orders an expiry sweep closes per transaction. */
const EXPIRE_CHUNK = 100;

/**
 * The expiry sweep: closes every unpaid order past its window (oldest first), EXPIRE_CHUNK per
 * transaction, the drop units of a chunk given back at its end (one stock update per release). Under
 * a drop's load, one transaction per order (each waiting for a connection and for the stock row) made
 * a pass over a few hundred orders take up to 30 s, and their units came back that late. A chunk that
 * fails is closed order by order, so one bad order cannot hold the others back. Returns how many closed.
 */
export async function expireDueOrders(ctx: AppContext, limit = 500): Promise<number> {
  const now = ctx.now();
  const due = await ctx.db.kysely
    .selectFrom('orders')
    .select('order_no')
    .where('status', 'in', ['created', 'paying'])
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
  let n = 0;
  for (let i = 0; i < due.length; i += EXPIRE_CHUNK) {
    const chunk = due.slice(i, i + EXPIRE_CHUNK).map((d) => d.order_no);
    try {
      const closed = await inTx(ctx, (trx) => closeAllInTx(ctx, trx, chunk.map((orderNo) => ({ orderNo, to: 'expired' as const, opts: { dueOnly: true } }))));
      n += closed.filter(Boolean).length;
    } catch {
      for (const no of chunk) if (await closeUnpaidOrder(ctx, no, 'expired', { dueOnly: true }).catch(() => false)) n++;
    }
  }
  return n;
}
