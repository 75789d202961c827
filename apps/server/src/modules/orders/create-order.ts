import { sql } from 'kysely';
import { Status } from '@cfx/contract/envelope.ts';
import type { OrderDetail } from '@cfx/contract/market.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { requireTrader } from '../kyc/index.ts';
import { changed, inTx, isUniqueViolation, type Q } from '../../db/tx.ts';
import { computeFees, royaltyPermilleOf } from '../market/index.ts';
import { newId, notFound } from '../market/index.ts';
import { closeUnpaidOrder } from './close-order.ts';
import { orderDetailOf } from './order-view.ts';
import { chinaDayStart as chinaDayStartOf } from '@cfx/protocol/china-time.ts';

/**
 * createOrder {goodsId | listingId}: reserves an on-sale listing for the buyer for the payment
 * window. Exactly one buyer wins: the reservation is a conditional UPDATE
 * `listings SET status='reserved' WHERE id=? AND status='on_sale'` inside the transaction that
 * inserts the order; every other concurrent caller changes nothing and gets 1013 listingBusy
 * (listingGone when the listing closed in between: reserveListing).
 * The buyer must pass the trading gate, must not be the seller, may hold a limited number
 * of unpaid orders, and is held back for a while after cancelling / not paying (checkReorderLimits).
 */
export async function createOrder(ctx: AppContext, userId: number, input: { goodsId?: number; listingId?: number }): Promise<OrderDetail> {
  if (input.goodsId === undefined && input.listingId === undefined) throw new ApiError(Status.INVALID, 'badParams', {}, 400);
  const { walletAddress } = await requireTrader(ctx, userId);
  const find = () => {
    let q = ctx.db.kysely.selectFrom('listings').selectAll();
    q = input.listingId !== undefined ? q.where('id', '=', input.listingId) : q.where('goods_id', '=', input.goodsId!).where('status', 'in', ['on_sale', 'reserved']).where('kind', '=', 'market');
    if (input.listingId !== undefined && input.goodsId !== undefined) q = q.where('goods_id', '=', input.goodsId);
    return q.executeTakeFirst();
  };
  let listing = await find();
  if (!listing) {
    if (input.listingId !== undefined) throw notFound('listingNotFound');
    const goods = await ctx.db.kysely.selectFrom('goods').select('id').where('id', '=', input.goodsId!).executeTakeFirst();
    if (!goods) throw notFound('goodsNotFound');
    throw new ApiError(Status.GOODS_STATE, 'listingGone');
  }
  if (listing.kind !== 'market') throw new ApiError(Status.GOODS_STATE, 'listingGone');
  if (Number(listing.seller_user_id) === userId) throw new ApiError(Status.GOODS_STATE, 'ownGoods');
  const now = ctx.now();
  if (listing.status === 'reserved' && listing.reserved_order_no) {
    // A reservation past its window is released first (the expiry sweep may not have run yet).
    const holder = await ctx.db.kysely.selectFrom('orders').select(['status', 'expires_at']).where('order_no', '=', listing.reserved_order_no).executeTakeFirst();
    if (holder && (holder.status === 'created' || holder.status === 'paying') && Number(holder.expires_at) <= now) {
      await closeUnpaidOrder(ctx, listing.reserved_order_no, 'expired', { dueOnly: true });
      listing = (await find()) ?? listing;
    }
  }
  if (listing.status === 'reserved') throw new ApiError(Status.GOODS_STATE, 'listingBusy');
  if (listing.status !== 'on_sale') throw new ApiError(Status.GOODS_STATE, 'listingGone');

  const unpaid = await ctx.db.kysely
    .selectFrom('orders')
    .select(sql<number>`count(*)`.as('n'))
    .where('buyer_user_id', '=', userId)
    .where('status', 'in', ['created', 'paying'])
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  if (Number(unpaid.n) >= ctx.config.market.maxUnpaidOrders) throw new ApiError(Status.ORDER_STATE, 'tooManyUnpaid', { n: Number(unpaid.n) });

  const goods = await ctx.db.kysely
    .selectFrom('goods')
    .innerJoin('projects', 'projects.id', 'goods.project_id')
    .innerJoin('creators', 'creators.id', 'projects.creator_id')
    .select(['creators.user_id as creator_user_id', 'projects.royalty_permille'])
    .where('goods.id', '=', Number(listing.goods_id))
    .executeTakeFirstOrThrow();
  const price = Number(listing.price_fen);
  // The release's own royalty, else the platform default; the order keeps its amount (and the creator) from now on.
  const royaltyPermille = royaltyPermilleOf(ctx, goods.royalty_permille);
  const fees = computeFees(price, ctx.config.commissionPermille, royaltyPermille);
  const listingId = Number(listing.id);
  const order = {
    kind: 'market' as const, listingId, goodsId: Number(listing.goods_id), buyerUserId: userId, sellerUserId: Number(listing.seller_user_id),
    buyerAddress: walletAddress, priceFen: price, fees, royaltyUserId: fees.royaltyFen > 0 ? Number(goods.creator_user_id) : null,
    expiresAt: now + ctx.config.market.paymentWindowMs, now,
  };
  for (let attempt = 0; ; attempt++) {
    const orderNo = newId('MO', now);
    try {
      await inTx(ctx, async (trx) => {
        await reserveListing(trx, listingId, orderNo);
        // After the reservation: an unpaid order of this buyer that released the listing has
        // committed by now (it held the row), so the limits below see it — no create/cancel race.
        await checkReorderLimits(ctx, trx, userId, listingId, now);
        await insertOrder(trx, { ...order, orderNo });
      });
      return (await orderDetailOf(ctx, orderNo, userId))!;
    } catch (err) {
      // An order number collision (the unique index caught it): draw another.
      if (attempt < 3 && isUniqueViolation(err)) continue;
      throw err;
    }
  }
}

/**
 * The reservation itself: `listings SET status='reserved' WHERE id=? AND status='on_sale'`. When it
 * changes nothing, the row says why, read in the same transaction: still reserved, or on sale again
 * (released in between) → 1013 listingBusy (someone else is buying, try again); anything else — sold,
 * delisted, or closed by the indexer (token moved, approval revoked) since createOrder read it →
 * 1013 listingGone, so the buyer is not sent to retry a listing that is gone.
 */
export async function reserveListing(trx: Q, listingId: number, orderNo: string): Promise<void> {
  const won = changed(
    await trx.updateTable('listings').set({ status: 'reserved', reserved_order_no: orderNo }).where('id', '=', listingId).where('status', '=', 'on_sale').executeTakeFirst(),
  );
  if (won === 1) return;
  const row = await trx.selectFrom('listings').select('status').where('id', '=', listingId).executeTakeFirst();
  throw new ApiError(Status.GOODS_STATE, row?.status === 'reserved' || row?.status === 'on_sale' ? 'listingBusy' : 'listingGone');
}

/** Start of the China-time (UTC+8) day of `now`. */
export const chinaDayStart = (now: number) => chinaDayStartOf(now);

/**
 * One buyer cannot hold a listing forever by create / cancel loops: after the buyer's order of a
 * listing was cancelled by the buyer or expired unpaid (`orders.closed_by`), the same buyer may not
 * order that listing again for ORDER_RETRY_COOLDOWN_SECONDS (1020 with the minutes left); and after
 * MAX_CANCELLED_ORDERS_PER_DAY such orders in a China-time day, no new order until the next day.
 * Other buyers are not affected. Runs inside the createOrder transaction.
 */
async function checkReorderLimits(ctx: AppContext, trx: Q, userId: number, listingId: number, now: number) {
  const { orderRetryCooldownMs: cooldown, maxCancelledOrdersPerDay: cap } = ctx.config.market;
  if (!cooldown && !cap) return;
  const dayStart = chinaDayStart(now);
  const r = await trx
    .selectFrom('orders')
    .select([
      sql<number | string>`count(case when closed_at >= ${dayStart} then 1 end)`.as('today'),
      sql<number | string | null>`max(case when listing_id = ${listingId} then closed_at end)`.as('last'),
    ])
    .where('buyer_user_id', '=', userId)
    .where('closed_by', 'in', ['buyer', 'expiry'])
    .where('closed_at', '>=', Math.min(dayStart, now - cooldown))
    .executeTakeFirstOrThrow();
  const last = r.last === null ? null : Number(r.last);
  if (cooldown && last !== null && last + cooldown > now) {
    throw new ApiError(Status.ORDER_COOLDOWN, 'orderCooldown', { m: Math.ceil((last + cooldown - now) / 60_000) });
  }
  const today = Number(r.today);
  if (cap && today >= cap) throw new ApiError(Status.ORDER_COOLDOWN, 'orderDailyCap', { n: today });
}

export interface NewOrder {
  orderNo: string;
  kind: 'market' | 'bid';
  listingId: number;
  goodsId: number;
  buyerUserId: number;
  sellerUserId: number;
  buyerAddress: string;
  priceFen: number;
  fees: { commissionFen: number; royaltyFen: number; incomeFen: number };
  royaltyUserId: number | null;
  expiresAt: number;
  now: number;
}

export async function insertOrder(trx: Q, o: NewOrder) {
  await trx
    .insertInto('orders')
    .values({
      order_no: o.orderNo, kind: o.kind, listing_id: o.listingId, goods_id: o.goodsId, buyer_user_id: o.buyerUserId, seller_user_id: o.sellerUserId,
      buyer_address: o.buyerAddress, price_fen: o.priceFen, commission_fen: o.fees.commissionFen, royalty_fen: o.fees.royaltyFen,
      royalty_user_id: o.royaltyUserId, seller_income_fen: o.fees.incomeFen, status: 'created', pay_method: null, provider_trade_no: null,
      expires_at: o.expiresAt, chain_tx_id: null, tx_hash: null, fail_reason: null, created_at: o.now, paid_at: null, completed_at: null, closed_at: null, closed_by: null,
    })
    .execute();
  await trx.insertInto('order_events').values({ order_no: o.orderNo, from_status: null, to_status: 'created', note: null, at: o.now }).execute();
}
