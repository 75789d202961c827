import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { balanceOf } from '../ledger/index.ts';
import { Account } from '../ledger/index.ts';
import { notFound } from '../market/index.ts';
import { orderHooks } from './order-hooks.ts';
import { closeUnpaidOrder } from './close-order.ts';
import { orderDetailOf } from './order-view.ts';

/** An order's buyer and seller may read it; anyone else is refused (1012). Unpaid orders past their window are expired on read. */
async function visibleOrder(ctx: AppContext, userId: number, orderNo: string) {
  const o = await ctx.db.kysely.selectFrom('orders').select(['buyer_user_id', 'seller_user_id', 'status', 'expires_at']).where('order_no', '=', orderNo).executeTakeFirst();
  if (!o) throw notFound('orderNotFound');
  if (Number(o.buyer_user_id) !== userId && Number(o.seller_user_id) !== userId) throw new ApiError(Status.FORBIDDEN, 'orderNotYours');
  if ((o.status === 'created' || o.status === 'paying') && Number(o.expires_at) <= ctx.now()) await closeUnpaidOrder(ctx, orderNo, 'expired', { dueOnly: true });
  return o;
}

/** getNftOrderDetail {orderNo}: the order with its timeline (every status move). */
export async function getOrderDetail(ctx: AppContext, userId: number, orderNo: string) {
  await visibleOrder(ctx, userId, orderNo);
  return (await orderDetailOf(ctx, orderNo, userId))!;
}

/** queryAmount {orderNo}: what the buyer has to pay, until when, how, and the buyer's balance. */
export async function queryAmount(ctx: AppContext, userId: number, orderNo: string) {
  const o = await visibleOrder(ctx, userId, orderNo);
  if (Number(o.buyer_user_id) !== userId) throw new ApiError(Status.FORBIDDEN, 'orderNotYours');
  const r = await ctx.db.kysely.selectFrom('orders').select(['status', 'price_fen', 'expires_at']).where('order_no', '=', orderNo).executeTakeFirstOrThrow();
  const awaiting = r.status === 'created' || r.status === 'paying';
  return {
    orderNo,
    status: r.status,
    amountFen: Number(r.price_fen),
    expiresAt: Number(r.expires_at),
    remainingMs: awaiting ? Math.max(0, Number(r.expires_at) - ctx.now()) : 0,
    methods: orderHooks(ctx).paymentMethods(ctx),
    balanceFen: await balanceOf(ctx.db.kysely, Account.user(userId)),
  };
}
