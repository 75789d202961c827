import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { requireTrader } from '../kyc/index.ts';
import { inTx, isUniqueViolation } from '../../db/tx.ts';
import { computeFees, royaltyPermilleOf } from '../market/index.ts';
import { checkSellable, historyAction, liveListing, loadGoods, lockListable, newId, notFound, requireSettlement, setGoodsListed } from '../market/index.ts';
import { verifySignedDraft } from '../market/index.ts';
import { insertOrder } from '../orders/index.ts';
import { orderDetailOf } from '../orders/index.ts';
import { notifyBidAccepted } from '../messages/index.ts';

/**
 * agreeBargin/ {bidId, sellerOrderId, signature}: the owner accepts a bid.
 *
 * Settlement needs the seller's signed listOrder for exactly the bid price, so accepting is two
 * steps: preOpenSale {goodsId, price: bid amount, bidId} returns the typed data and a
 * sellerOrderId, the wallet signs it, and agreeBargin carries the signature. The server runs the
 * openSale checks (signature, ownership and approval on chain, holding period), then in one
 * transaction: the bid becomes accepted, a public listing of the goods (if any) is closed — its
 * price is not used — and a private listing at the bid price is reserved by a new order for the
 * bidder, who pays within the payment window like any order. If it is not paid, the order
 * expires and the private listing closes (the owner may list again).
 */
export async function acceptBid(ctx: AppContext, userId: number, input: { bidId: number; sellerOrderId: string; signature: string }) {
  const { walletAddress } = await requireTrader(ctx, userId);
  const chain = requireSettlement(ctx);
  const bid = await ctx.db.kysely.selectFrom('bids').selectAll().where('id', '=', input.bidId).executeTakeFirst();
  if (!bid) throw notFound('bidNotFound');
  const g = await loadGoods(ctx.db.kysely, Number(bid.goods_id));
  checkSellable(ctx, g, userId, chain);
  const now = ctx.now();
  if (bid.status !== 'active' || Number(bid.expires_at) <= now) throw new ApiError(Status.BID_STATE, 'bidNotActive');
  const bidder = Number(bid.bidder_user_id);
  if (bidder === userId) throw new ApiError(Status.BID_STATE, 'bidOwnGoods');
  let bidderWallet: string;
  try {
    bidderWallet = (await requireTrader(ctx, bidder)).walletAddress;
  } catch {
    throw new ApiError(Status.BID_STATE, 'bidNotActive');
  }
  const live = await liveListing(ctx.db.kysely, g.id);
  if (live?.status === 'reserved') throw new ApiError(Status.GOODS_STATE, 'listingBusy');
  const draft = await ctx.db.kysely.selectFrom('listings').selectAll().where('seller_order_id', '=', input.sellerOrderId).executeTakeFirst();
  const price = Number(bid.amount_fen);
  await verifySignedDraft(ctx, chain, draft, { userId, goodsId: g.id, priceFen: price, kind: 'bid', bidId: input.bidId, walletAddress, signature: input.signature });
  const fees = computeFees(price, ctx.config.commissionPermille, royaltyPermilleOf(ctx, g.royalty_permille));
  const orderNo = newId('BO', now);
  try {
    await inTx(ctx, async (trx) => {
      const won = await trx.updateTable('bids').set({ status: 'accepted', order_no: orderNo, updated_at: now }).where('id', '=', input.bidId).where('status', '=', 'active').executeTakeFirst();
      if (Number(won.numUpdatedRows) !== 1) throw new ApiError(Status.BID_STATE, 'bidNotActive');
      // Not burned, at the linked wallet, and no box opening / compose / transfer holding it (goods row locked).
      await lockListable(trx, g.id, now);
      if (live) {
        const closed = await trx
          .updateTable('listings')
          .set({ status: 'closed', close_reason: 'bid_accepted', closed_at: now })
          .where('id', '=', Number(live.id))
          .where('status', '=', 'on_sale')
          .executeTakeFirst();
        if (Number(closed.numUpdatedRows) !== 1) throw new ApiError(Status.GOODS_STATE, 'listingBusy');
        await setGoodsListed(trx, g.id, null, now);
        await historyAction(trx, { goodsId: g.id, action: 'delist', from: userId, to: null, priceFen: Number(live.price_fen), at: now });
      }
      const res = await trx
        .updateTable('listings')
        .set({ status: 'reserved', signature: input.signature, listed_at: now, reserved_order_no: orderNo })
        .where('id', '=', Number(draft!.id))
        .where('status', '=', 'draft')
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw new ApiError(Status.GOODS_STATE, 'saleDraftInvalid');
      await insertOrder(trx, {
        orderNo, kind: 'bid', listingId: Number(draft!.id), goodsId: g.id, buyerUserId: bidder, sellerUserId: userId, buyerAddress: bidderWallet,
        priceFen: price, fees, royaltyUserId: fees.royaltyFen > 0 ? g.creator_user_id : null, expiresAt: now + ctx.config.market.paymentWindowMs, now,
      });
      // The bidder's "bid accepted" message: they now have an order to pay.
      await notifyBidAccepted(ctx, trx, { bidId: input.bidId, goodsId: g.id, bidderUserId: bidder, amountFen: price, orderNo, deadlineAt: now + ctx.config.market.paymentWindowMs }, now);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(Status.GOODS_STATE, 'listingBusy');
    throw err;
  }
  return (await orderDetailOf(ctx, orderNo, userId))!;
}
