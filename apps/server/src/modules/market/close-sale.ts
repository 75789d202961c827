import { Status } from '@cfx/contract/envelope.ts';
import { ZERO_HEX_ADDRESS } from '@cfx/protocol/address.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { inTx } from '../../db/tx.ts';
import { marketHooks } from './market-hooks.ts';
import { historyAction, liveListing, loadGoods, setGoodsListed } from './repo.ts';

/**
 * closeSale {goodsId}: takes the collectible off sale. Refused (1013 saleHasOrder) while an order
 * holds the listing — a buyer may be paying. The answer tells the client what to do on chain:
 * cancel the listing's signed order (`Exchange.cancelOrder(sellerOrderId)` from the seller's
 * wallet), so that signature can never fill even if the exchange is approved again later, then
 * approve the zero address (the on-chain "off shelf"). An order left uncancelled here is asked
 * for again before the next listing (preOpenSale `pendingCancels`).
 */
export async function closeSale(ctx: AppContext, userId: number, goodsId: number) {
  const g = await loadGoods(ctx.db.kysely, goodsId);
  if (g.owner_user_id !== userId) throw new ApiError(Status.FORBIDDEN, 'goodsNotYours');
  let l = await liveListing(ctx.db.kysely, goodsId);
  if (l?.status === 'reserved' && l.reserved_order_no && (await marketHooks(ctx).closeUnpaidOrder(ctx, l.reserved_order_no, 'expired', { dueOnly: true }))) {
    l = await liveListing(ctx.db.kysely, goodsId); // the holding order was past its payment window
  }
  if (!l || l.kind !== 'market') throw new ApiError(Status.GOODS_STATE, 'goodsNotOnSale');
  if (l.status === 'reserved') throw new ApiError(Status.GOODS_STATE, 'saleHasOrder');
  const now = ctx.now();
  await inTx(ctx, async (trx) => {
    const res = await trx.updateTable('listings').set({ status: 'closed', close_reason: 'seller', closed_at: now }).where('id', '=', Number(l!.id)).where('status', '=', 'on_sale').executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw new ApiError(Status.GOODS_STATE, 'saleHasOrder');
    await setGoodsListed(trx, goodsId, null, now);
    await historyAction(trx, { goodsId, action: 'delist', from: userId, to: null, priceFen: Number(l!.price_fen), at: now });
  });
  const s = ctx.market?.settlement;
  return {
    goodsId,
    status: 'held' as const,
    cancel: s ? { exchange: s.exchange, exchangeHex: s.exchangeHex, sellerOrderId: l.seller_order_id } : null,
    approveZero: s ? { collectible: s.collectible, collectibleHex: s.collectibleHex, to: ZERO_HEX_ADDRESS, tokenId: l.token_id } : null,
  };
}
