import type { AppContext } from '../context.ts';
import { completionBatcher, expireDueOrders, runSettleJob, settleJob, settlingBatcher } from '../modules/orders/index.ts';
import { reconcilePayments } from '../modules/payments/index.ts';

/**
 * Order → payment → settlement, on the job worker: a payment (payments) marks an order paid and
 * inserts its `settle` job (orders) in the same transaction; the job submits the order to the
 * market's chain side (ctx.market.settlement) and completes it through the batchers attached here.
 * Also the order-expiry sweep (every second) and payment reconciliation (every 15 s). The market
 * module itself knows nothing of orders or payments; this flow joins them at start-up.
 */
export function attachOrderSettlement(ctx: AppContext) {
  if (ctx.market) {
    ctx.market.complete = completionBatcher(ctx);
    ctx.market.markSettling = settlingBatcher(ctx);
  }
  ctx.jobs.handle(settleJob, (p) => runSettleJob(ctx, p.orderNo));
  ctx.jobs.periodic('expire-orders', 1000, () => expireDueOrders(ctx));
  ctx.jobs.periodic('reconcile-payments', 15_000, () => reconcilePayments(ctx));
}
