import type { AppContext } from '../context.ts';
import { releaseDropOrders } from '../modules/drops/index.ts';
import { attachMarketHooks } from '../modules/market/index.ts';
import { attachOrderHooks, closeUnpaidOrder, moveOrder } from '../modules/orders/index.ts';
import { availableMethods } from '../modules/payments/index.ts';
import { onIndexedTransfers } from '../modules/shift/index.ts';

/**
 * Joins the order and market modules to the modules above them, at start-up (before any request
 * or job): a listing that ends closes or cancels its unpaid order (orders); an unpaid order that closes gives a drop order's units back (drops); an order shows the
 * payment methods of payments (and card-pay); the market's chain watch hands indexed transfers to
 * shifts and gifts (shift).
 */
export function joinOrders(ctx: AppContext) {
  attachMarketHooks(ctx, { closeUnpaidOrder, moveOrder });
  attachOrderHooks(ctx, {
    releaseUnpaid: (c, trx, orders, now) => releaseDropOrders(c, trx, orders, now),
    paymentMethods: (c) => availableMethods(c),
  });
  if (ctx.market) ctx.market.onIndexedTransfers = (transfers) => onIndexedTransfers(ctx, transfers);
}
