import type { PayMethod } from '@cfx/contract/market.ts';
import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';
import type { ClosableOrder } from './close-order.ts';

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
