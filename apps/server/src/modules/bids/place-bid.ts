import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import type { BidStatus } from '../../db/schema.ts';
import { ApiError } from '../../http/envelope.ts';
import { requireTrader } from '../kyc/index.ts';
import { inTx, isUniqueViolation } from '../../db/tx.ts';
import { checkPrice, loadGoods } from '../market/index.ts';
import { bidView } from './bid-view.ts';
import { notifyBidReceived } from '../messages/index.ts';

/**
 * bargin {goodsId, amount, expiresAt}: an offer to the collectible's owner, who may accept it
 * (agreeBargin) — never matched automatically. One active bid per bidder per collectible: a new
 * bid replaces the bidder's previous one (in one transaction, guarded by a partial unique index).
 * Bids are not funded; the bidder pays within the payment window once the owner accepts.
 */
export async function placeBid(ctx: AppContext, userId: number, input: { goodsId: number; amount: number; expiresAt: number }) {
  await requireTrader(ctx, userId);
  const g = await loadGoods(ctx.db.kysely, input.goodsId);
  if (g.owner_user_id === userId) throw new ApiError(Status.BID_STATE, 'bidOwnGoods');
  if (g.chain_status !== 'minted' || g.token_id === null) throw new ApiError(Status.GOODS_STATE, 'goodsNotMinted');
  checkPrice(ctx, input.amount);
  const now = ctx.now();
  const maxDays = ctx.config.market.bidMaxDays;
  if (input.expiresAt < now + 60_000 || input.expiresAt > now + maxDays * 86_400_000) throw new ApiError(Status.INVALID, 'bidBadExpiry', { d: maxDays });
  let id: number;
  try {
    id = await inTx(ctx, async (trx) => {
      await trx
        .updateTable('bids')
        .set((eb) => ({ status: eb.case().when('expires_at', '<=', now).then<BidStatus>('expired').else<BidStatus>('replaced').end(), updated_at: now }))
        .where('goods_id', '=', g.id)
        .where('bidder_user_id', '=', userId)
        .where('status', '=', 'active')
        .execute();
      const row = await trx
        .insertInto('bids')
        .values({ goods_id: g.id, bidder_user_id: userId, amount_fen: input.amount, expires_at: input.expiresAt, status: 'active', order_no: null, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      // The owner's "bid received" message, in the bid's transaction.
      await notifyBidReceived(ctx, trx, { bidId: Number(row.id), goodsId: g.id, ownerUserId: Number(g.owner_user_id), amountFen: input.amount, expiresAt: input.expiresAt }, now);
      return Number(row.id);
    });
  } catch (err) {
    // Two bids by the same bidder at the same instant: one wins, the other is told to retry.
    if (isUniqueViolation(err)) throw new ApiError(Status.BID_STATE, 'bidNotActive');
    throw err;
  }
  return (await bidView(ctx, id, userId))!;
}
