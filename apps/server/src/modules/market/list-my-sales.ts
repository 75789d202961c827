import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { ListingStatus } from '../../db/schema.ts';
import { goodsCardsByIds } from '../catalog/index.ts';
import { toListing } from './repo.ts';

const STATUSES: Record<string, ListingStatus[]> = {
  on_sale: ['on_sale', 'reserved'],
  sold: ['sold'],
  closed: ['closed', 'invalid'],
  all: ['on_sale', 'reserved', 'sold', 'closed', 'invalid'],
};

/** mySell {status?, pageNum, pageSize}: my listings (on sale incl. reserved / sold / closed), newest first. */
export async function listMySales(ctx: AppContext, userId: number, f: { status?: string | null; pageNum: number; pageSize: number }) {
  const statuses = STATUSES[f.status ?? 'all'] ?? STATUSES.all!;
  const base = ctx.db.kysely.selectFrom('listings').where('seller_user_id', '=', userId).where('status', 'in', statuses);
  const rows = await base.selectAll().orderBy('id', 'desc').limit(f.pageSize).offset((f.pageNum - 1) * f.pageSize).execute();
  const total = Number((await base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
  const cards = await goodsCardsByIds(ctx, [...new Set(rows.map((r) => Number(r.goods_id)))]);
  const sold = rows.filter((r) => r.status === 'sold').map((r) => Number(r.id));
  const orders = sold.length
    ? await ctx.db.kysely.selectFrom('orders').select(['listing_id', 'order_no', 'seller_income_fen', 'completed_at']).where('listing_id', 'in', sold).where('status', '=', 'completed').execute()
    : [];
  const byListing = new Map(orders.map((o) => [Number(o.listing_id), o]));
  return {
    list: rows.map((r) => {
      const o = byListing.get(Number(r.id));
      return {
        ...toListing(r),
        goods: cards.get(Number(r.goods_id)) ?? null,
        orderNo: o?.order_no ?? null,
        incomeFen: o ? Number(o.seller_income_fen) : null,
        soldAt: o?.completed_at == null ? null : Number(o.completed_at),
      };
    }),
    total,
    pageNum: f.pageNum,
    pageSize: f.pageSize,
  };
}
