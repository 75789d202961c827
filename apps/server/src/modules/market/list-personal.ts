import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { goodsCardQuery, toGoodsCard } from '../catalog/index.ts';

/** list/favorite {pageNum, pageSize}: my favourite collectibles, latest first. */
export async function listFavorites(ctx: AppContext, userId: number, f: { pageNum: number; pageSize: number }) {
  const rows = await goodsCardQuery(ctx)
    .innerJoin('favorites', 'favorites.goods_id', 'goods.id')
    .where('favorites.user_id', '=', userId)
    .orderBy('favorites.created_at', 'desc')
    .orderBy('goods.id', 'desc')
    .limit(f.pageSize)
    .offset((f.pageNum - 1) * f.pageSize)
    .execute();
  const total = Number((await ctx.db.kysely.selectFrom('favorites').select(sql<number>`count(*)`.as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow()).n);
  return { list: rows.map(toGoodsCard), total, pageNum: f.pageNum, pageSize: f.pageSize };
}

/** list/home {status?, pageNum, pageSize}: my collectibles (my assets), most recently acquired first. */
export async function listMyAssets(ctx: AppContext, userId: number, f: { status?: 'held' | 'on_sale' | 'all' | null; pageNum: number; pageSize: number }) {
  let q = goodsCardQuery(ctx).where('goods.owner_user_id', '=', userId);
  let c = ctx.db.kysely.selectFrom('goods').select(sql<number>`count(*)`.as('n')).where('owner_user_id', '=', userId);
  if (f.status === 'held' || f.status === 'on_sale') {
    q = q.where('goods.status', '=', f.status);
    c = c.where('status', '=', f.status);
  } else {
    // Burned collectibles (opened boxes, composed fragments) are not assets any more.
    q = q.where('goods.status', '!=', 'burned');
    c = c.where('status', '!=', 'burned');
  }
  const rows = await q.orderBy('goods.acquired_at', 'desc').orderBy('goods.id', 'desc').limit(f.pageSize).offset((f.pageNum - 1) * f.pageSize).execute();
  return { list: rows.map(toGoodsCard), total: Number((await c.executeTakeFirstOrThrow()).n), pageNum: f.pageNum, pageSize: f.pageSize };
}
