import type { bid } from '@cfx/contract/market.ts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';

/** Bids as the API shows them: an active bid past its expiry is reported 'expired' (it no longer counts). */
export function bidQuery(q: Q) {
  return q
    .selectFrom('bids')
    .innerJoin('users as bu', 'bu.id', 'bids.bidder_user_id')
    .select(['bids.id', 'bids.goods_id', 'bids.bidder_user_id', 'bids.amount_fen', 'bids.expires_at', 'bids.status', 'bids.order_no', 'bids.created_at', 'bu.account_id', 'bu.nickname']);
}
export type BidRow = NonNullable<Awaited<ReturnType<ReturnType<typeof bidQuery>['executeTakeFirst']>>>;

/** Nicknames of other bidders are masked (first character + ***). */
const mask = (s: string) => (s ? `${[...s][0]}***` : '***');

export function toBid(ctx: AppContext, r: BidRow, viewerId?: number): z.infer<typeof bid> {
  const mine = viewerId !== undefined && Number(r.bidder_user_id) === viewerId;
  const status = r.status === 'active' && Number(r.expires_at) <= ctx.now() ? 'expired' : r.status;
  return {
    id: Number(r.id),
    goodsId: Number(r.goods_id),
    amountFen: Number(r.amount_fen),
    expiresAt: Number(r.expires_at),
    status,
    bidder: { accountId: mine ? r.account_id : '', nickname: mine ? r.nickname : mask(r.nickname) },
    mine,
    orderNo: mine ? r.order_no : null,
    createdAt: Number(r.created_at),
  };
}

export async function bidView(ctx: AppContext, id: number, viewerId?: number) {
  const r = await bidQuery(ctx.db.kysely).where('bids.id', '=', id).executeTakeFirst();
  return r ? toBid(ctx, r, viewerId) : undefined;
}
