import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { requireTrader } from '../kyc/index.ts';
import { inTx, isUniqueViolation } from '../../db/tx.ts';
import { checkPrice, checkSellable, historyAction, liveListing, loadGoods, lockListable, requireSettlement, setGoodsListed, toListing } from './repo.ts';
import { verifySignedDraft } from './verify-listing.ts';

/**
 * openSale {goodsId, price, sellerOrderId, signature}: the listing goes live once the server has
 * checked the trading gate, ownership in the database and on chain (ownerOf), the exchange's
 * approval on chain (getApproved), the CIP-23 signature, the price bounds and the release's
 * holding period. One live listing per collectible is guaranteed by a partial unique index.
 */
export async function openSale(ctx: AppContext, userId: number, input: { goodsId: number; price: number; sellerOrderId: string; signature: string }) {
  const { walletAddress } = await requireTrader(ctx, userId);
  const chain = requireSettlement(ctx);
  const g = await loadGoods(ctx.db.kysely, input.goodsId);
  checkSellable(ctx, g, userId, chain);
  checkPrice(ctx, input.price);
  if (await liveListing(ctx.db.kysely, g.id)) throw new ApiError(Status.GOODS_STATE, 'goodsAlreadyOnSale');
  const draft = await ctx.db.kysely.selectFrom('listings').selectAll().where('seller_order_id', '=', input.sellerOrderId).executeTakeFirst();
  await verifySignedDraft(ctx, chain, draft, { userId, goodsId: g.id, priceFen: input.price, kind: 'market', walletAddress, signature: input.signature });
  const now = ctx.now();
  try {
    await inTx(ctx, async (trx) => {
      const res = await trx
        .updateTable('listings')
        .set({ status: 'on_sale', signature: input.signature, listed_at: now })
        .where('id', '=', Number(draft!.id))
        .where('status', '=', 'draft')
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw new ApiError(Status.GOODS_STATE, 'saleDraftInvalid');
      const own = await trx.selectFrom('goods').select('owner_user_id').where('id', '=', g.id).executeTakeFirstOrThrow();
      if (Number(own.owner_user_id) !== userId) throw new ApiError(Status.FORBIDDEN, 'goodsNotYours');
      await trx.updateTable('listings').set({ status: 'void' }).where('goods_id', '=', g.id).where('seller_user_id', '=', userId).where('status', '=', 'draft').where('kind', '=', 'market').execute();
      await lockListable(trx, g.id, now);
      await setGoodsListed(trx, g.id, input.price, now);
      await historyAction(trx, { goodsId: g.id, action: 'list', from: userId, to: null, priceFen: input.price, at: now });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(Status.GOODS_STATE, 'goodsAlreadyOnSale');
    throw err;
  }
  const l = await ctx.db.kysely.selectFrom('listings').selectAll().where('id', '=', Number(draft!.id)).executeTakeFirstOrThrow();
  return toListing(l);
}
