import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { notFound } from '../market/index.ts';
import { bidView } from './bid-view.ts';

/** GET cancelBargin/ ?id=: the bidder withdraws an active bid. */
export async function cancelBid(ctx: AppContext, userId: number, bidId: number) {
  const b = await ctx.db.kysely.selectFrom('bids').select(['bidder_user_id', 'status', 'expires_at']).where('id', '=', bidId).executeTakeFirst();
  if (!b) throw notFound('bidNotFound');
  if (Number(b.bidder_user_id) !== userId) throw new ApiError(Status.FORBIDDEN, 'bidNotYours');
  const now = ctx.now();
  if (b.status !== 'active' || Number(b.expires_at) <= now) throw new ApiError(Status.BID_STATE, 'bidNotActive');
  const res = await ctx.db.kysely.updateTable('bids').set({ status: 'cancelled', updated_at: now }).where('id', '=', bidId).where('status', '=', 'active').executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw new ApiError(Status.BID_STATE, 'bidNotActive');
  return (await bidView(ctx, bidId, userId))!;
}
