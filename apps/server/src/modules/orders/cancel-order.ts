import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { buyerOrder } from './buyer-order.ts';
import { closeUnpaidOrder } from './close-order.ts';
import { orderDetailOf } from './order-view.ts';

/**
 * cannelOrder {orderNo} (spelled as in the spec): the buyer cancels an unpaid order; its listing
 * goes back on sale. A payment that still arrives from a provider is credited to the balance.
 * The cancel counts for the buyer's re-order cooldown and daily cap (create-order.ts).
 */
export async function cancelOrder(ctx: AppContext, userId: number, orderNo: string) {
  const o = await buyerOrder(ctx, userId, orderNo);
  if (o.status !== 'created' && o.status !== 'paying') throw new ApiError(Status.ORDER_STATE, 'orderNotCancellable');
  if (!(await closeUnpaidOrder(ctx, orderNo, 'cancelled', { reason: 'cancelled by the buyer', byBuyer: true, read: o }))) throw new ApiError(Status.ORDER_STATE, 'orderNotCancellable');
  return (await orderDetailOf(ctx, orderNo, userId))!;
}
