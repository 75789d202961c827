import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { notFound } from '../market/index.ts';
import { closeUnpaidOrder } from './close-order.ts';

/** The order for the buyer's own call: 1404 unknown, 1012 another user's; an unpaid order past its window is expired here. */
export async function buyerOrder(ctx: AppContext, userId: number, orderNo: string) {
  const o = await ctx.db.kysely.selectFrom('orders').selectAll().where('order_no', '=', orderNo).executeTakeFirst();
  if (!o) throw notFound('orderNotFound');
  if (Number(o.buyer_user_id) !== userId) throw new ApiError(Status.FORBIDDEN, 'orderNotYours');
  if ((o.status === 'created' || o.status === 'paying') && Number(o.expires_at) <= ctx.now()) {
    await closeUnpaidOrder(ctx, orderNo, 'expired', { dueOnly: true });
    throw new ApiError(Status.ORDER_STATE, 'orderExpired');
  }
  return o;
}
