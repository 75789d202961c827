import type { Updateable } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { OrderStatus, OrdersTable } from '../../db/schema.ts';
import type { Q } from '../../db/tx.ts';

/**
 * The order steps a listing's end takes (modules/orders sits above the market and imports it; the
 * market imports no order code): attached once at start-up by flows/join-orders.ts. Without them a
 * listing cannot be closed: marketHooks() throws rather than skip the order.
 */
export interface MarketHooks {
  /** orders' closeUnpaidOrder: an unpaid order past its window (or cancelled) gives its listing back. */
  closeUnpaidOrder(ctx: AppContext, orderNo: string, to: 'expired' | 'cancelled', opts?: { dueOnly?: boolean; reason?: string; byBuyer?: boolean }): Promise<boolean>;
  /** orders' moveOrder: a conditional status move inside the caller's transaction. */
  moveOrder(trx: Q, orderNo: string, from: OrderStatus | readonly OrderStatus[], to: OrderStatus, now: number, set?: Updateable<OrdersTable>, note?: string | null): Promise<OrderStatus | null>;
}

const attached = new WeakMap<AppContext, MarketHooks>();

export function attachMarketHooks(ctx: AppContext, hooks: MarketHooks) {
  attached.set(ctx, hooks);
}

export function marketHooks(ctx: AppContext): MarketHooks {
  const h = attached.get(ctx);
  if (!h) throw new Error('market hooks not attached (flows/join-orders.ts, at start-up)');
  return h;
}
