import type { AppContext } from '../../context.ts';
import { inTx } from '../../db/tx.ts';
import { moveOrder, releaseListing } from './transitions.ts';
import { orderHooks } from './order-hooks.ts';
import { notifyOrderExpired } from '../messages/index.ts';

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
  opts: { dueOnly?: boolean; reason?: string; byBuyer?: boolean } = {},
): Promise<boolean> {
  const now = ctx.now();
  // Read before the transaction, so that its first statement is the conditional UPDATE: on SQLite a
  // transaction that reads first cannot wait for another process's write lock and fails at once
  // with SQLITE_BUSY (two server processes on one database file, bench/drop.ts).
  const o = await ctx.db.kysely.selectFrom('orders').select(['order_no', 'status', 'expires_at', 'listing_id', 'goods_id']).where('order_no', '=', orderNo).executeTakeFirst();
  if (!o || (o.status !== 'created' && o.status !== 'paying')) return false;
  if (opts.dueOnly && Number(o.expires_at) > now) return false;
  return inTx(ctx, async (trx) => {
    // Counted for the buyer's re-order cooldown and daily cap (create-order.ts): not paying in time, or cancelling.
    const closedBy = to === 'expired' ? ('expiry' as const) : opts.byBuyer ? ('buyer' as const) : null;
    const set = { closed_at: now, fail_reason: opts.reason ?? null, closed_by: closedBy };
    let moved = await moveOrder(trx, orderNo, o.status, to, now, set, opts.reason ?? null);
    if (!moved && o.status === 'created') {
      // It moved since the read: only created → paying leaves it closable (the write lock is held now).
      moved = await moveOrder(trx, orderNo, 'paying', to, now, set, opts.reason ?? null);
    }
    if (!moved) return false;
    await releaseListing(trx, { order_no: orderNo, listing_id: Number(o.listing_id), goods_id: Number(o.goods_id) }, now);
    // A drop order gives its units back to the release's stock and the buyer's quota (exactly once: the move above is conditional).
    await orderHooks(ctx).releaseUnpaid(ctx, trx, orderNo, now);
    // The buyer's "order expired" message (not for a cancellation: the buyer or the system chose it).
    if (to === 'expired') await notifyOrderExpired(ctx, trx, orderNo, now);
    return true;
  });
}

/** The expiry sweep: closes every unpaid order past its window (oldest first). Returns how many closed. */
export async function expireDueOrders(ctx: AppContext, limit = 500): Promise<number> {
  const due = await ctx.db.kysely
    .selectFrom('orders')
    .select('order_no')
    .where('status', 'in', ['created', 'paying'])
    .where('expires_at', '<=', ctx.now())
    .orderBy('expires_at')
    .limit(limit)
    .execute();
  let n = 0;
  for (const d of due) if (await closeUnpaidOrder(ctx, d.order_no, 'expired', { dueOnly: true })) n++;
  return n;
}
