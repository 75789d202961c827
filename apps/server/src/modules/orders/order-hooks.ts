import type { PayMethod } from '@cfx/contract/market.ts';
import type { AppContext } from '../../context.ts';
import type { Selectable } from 'kysely';
import type { OrdersTable } from '../../db/schema.ts';
import type { Q } from '../../db/tx.ts';

/** What closing an order reads of it (close-order.ts): its status, window, listing, and what a drop order gives back. */
export type ClosableOrder = Pick<
  Selectable<OrdersTable>,
  'order_no' | 'status' | 'expires_at' | 'listing_id' | 'goods_id' | 'kind' | 'project_id' | 'quantity' | 'identity_digest' | 'quota_bucket'
>;

/**
 * What modules above orders add to an order's life (drops, payments): attached once at start-up by
 * flows/join-orders.ts, so the orders module imports none of them. Without them an order cannot be
 * closed or shown: orderHooks() throws rather than skip a step.
 */
export interface OrderHooks {
  /** Inside the transaction that closed unpaid orders (each as read by it): drop orders give their units back (drops). */
  releaseUnpaid(ctx: AppContext, trx: Q, orders: readonly ClosableOrder[], now: number): Promise<unknown>;
  /** The payment methods an unpaid order may be paid with (payments). */
  paymentMethods(ctx: AppContext): PayMethod[];
}

const attached = new WeakMap<AppContext, OrderHooks>();

export function attachOrderHooks(ctx: AppContext, hooks: OrderHooks) {
  attached.set(ctx, hooks);
}

export function orderHooks(ctx: AppContext): OrderHooks {
  const h = attached.get(ctx);
  if (!h) throw new Error('order hooks not attached (flows/join-orders.ts, at start-up)');
  return h;
}
