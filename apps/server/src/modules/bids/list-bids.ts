import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { BidStatus, Database } from '../../db/schema.ts';
import type { AppContext } from '../../context.ts';
import { goodsCardsByIds } from '../catalog/index.ts';
import { notFound } from '../market/index.ts';
import { bidQuery, toBid } from './bid-view.ts';

/** barginList {goodsId, pageNum, pageSize}: the collectible's active, unexpired bids, highest first. */
export async function listBids(ctx: AppContext, viewerId: number | undefined, f: { goodsId: number; pageNum: number; pageSize: number }) {
  const g = await ctx.db.kysely.selectFrom('goods').select(['id', 'owner_user_id']).where('id', '=', f.goodsId).executeTakeFirst();
  if (!g) throw notFound('goodsNotFound');
  const now = ctx.now();
  const rows = await bidQuery(ctx.db.kysely)
    .where('bids.goods_id', '=', f.goodsId)
    .where('bids.status', '=', 'active')
    .where('bids.expires_at', '>', now)
    .orderBy('bids.amount_fen', 'desc')
    .orderBy('bids.id', 'asc')
    .limit(f.pageSize)
    .offset((f.pageNum - 1) * f.pageSize)
    .execute();
  const total = await ctx.db.kysely
    .selectFrom('bids')
    .select(sql<number>`count(*)`.as('n'))
    .where('goods_id', '=', f.goodsId)
    .where('status', '=', 'active')
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return { list: rows.map((r) => toBid(ctx, r, viewerId)), total: Number(total.n), pageNum: f.pageNum, pageSize: f.pageSize };
}

/** myBarginList {type: sent | received, status?, pageNum, pageSize}: my bids, or the bids on collectibles I own. */
export async function listMyBids(ctx: AppContext, userId: number, f: { type?: 'sent' | 'received' | null; status?: BidStatus | 'all' | null; pageNum: number; pageSize: number }) {
  const now = ctx.now();
  const cond = (eb: ExpressionBuilder<Database, 'bids'>) => {
    const parts: Expression<SqlBool>[] = [
      f.type === 'received'
        ? eb('bids.goods_id', 'in', eb.selectFrom('goods').select('goods.id').where('goods.owner_user_id', '=', userId))
        : eb('bids.bidder_user_id', '=', userId),
    ];
    if (f.status === 'active') parts.push(eb('bids.status', '=', 'active'), eb('bids.expires_at', '>', now));
    else if (f.status === 'expired') parts.push(eb.or([eb('bids.status', '=', 'expired'), eb.and([eb('bids.status', '=', 'active'), eb('bids.expires_at', '<=', now)])]));
    else if (f.status && f.status !== 'all') parts.push(eb('bids.status', '=', f.status));
    return eb.and(parts);
  };
  const rows = await bidQuery(ctx.db.kysely).where(cond).orderBy('bids.id', 'desc').limit(f.pageSize).offset((f.pageNum - 1) * f.pageSize).execute();
  const total = await ctx.db.kysely.selectFrom('bids').select(sql<number>`count(*)`.as('n')).where(cond).executeTakeFirstOrThrow();
  const cards = await goodsCardsByIds(ctx, [...new Set(rows.map((r) => Number(r.goods_id)))]);
  return {
    list: rows.map((r) => ({ ...toBid(ctx, r, userId), goods: cards.get(Number(r.goods_id)) ?? null })),
    total: Number(total.n),
    pageNum: f.pageNum,
    pageSize: f.pageSize,
  };
}

/** barginListStatistics: counts for the personal centre's bid tabs. */
export async function bidStatistics(ctx: AppContext, userId: number) {
  const now = ctx.now();
  const sent = await ctx.db.kysely
    .selectFrom('bids')
    .select([
      sql<number>`coalesce(sum(case when status = 'active' and expires_at > ${now} then 1 else 0 end), 0)`.as('active'),
      sql<number>`coalesce(sum(case when status = 'accepted' then 1 else 0 end), 0)`.as('accepted'),
    ])
    .where('bidder_user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const received = await ctx.db.kysely
    .selectFrom('bids')
    .innerJoin('goods', 'goods.id', 'bids.goods_id')
    .select([sql<number>`count(*)`.as('n'), sql<number>`count(distinct bids.goods_id)`.as('g'), sql<number | null>`max(bids.amount_fen)`.as('top')])
    .where('goods.owner_user_id', '=', userId)
    .where('bids.status', '=', 'active')
    .where('bids.expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return {
    sentActive: Number(sent.active),
    sentAccepted: Number(sent.accepted),
    receivedActive: Number(received.n),
    receivedGoods: Number(received.g),
    highestReceivedFen: received.top === null ? null : Number(received.top),
  };
}
