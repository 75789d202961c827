import { sql } from 'kysely';
import type { GoodsCard } from '@cfx/contract/catalog.ts';
import type { Page } from '@cfx/contract/paging.ts';
import type { AppContext } from '../../context.ts';
import { goodsCardQuery, toGoodsCard, type GoodsCardRow } from './repo.ts';

export interface GoodsFilter {
  pageNum: number;
  pageSize: number;
  projectId?: number;
  status?: 'on_sale' | 'held' | 'all' | null;
  category?: string | null;
  minPriceFen?: number | null;
  maxPriceFen?: number | null;
  sort?: 'default' | 'newest' | 'priceAsc' | 'priceDesc' | 'serialAsc' | null;
}

/**
 * Totals of a filter are cached for a short time per database: counting a large market on every
 * page turn would cost more than the page itself. A writer that must show exact totals at once
 * calls invalidateGoodsCounts.
 */
const COUNT_TTL_MS = 2000;
const COUNT_CACHE_MAX = 500;
const counts = new WeakMap<object, Map<string, { n: number; at: number }>>();
export function invalidateGoodsCounts(ctx: AppContext) {
  counts.delete(ctx.db);
}

/** Collectibles: the consignment market by default (on sale, newest listing first), filtered, sorted and paged. */
export async function listGoods(ctx: AppContext, f: GoodsFilter): Promise<Page<GoodsCard>> {
  const status = f.status ?? 'on_sale';
  let q = goodsCardQuery(ctx);
  if (status !== 'all') q = q.where('goods.status', '=', status);
  if (f.projectId !== undefined) q = q.where('goods.project_id', '=', f.projectId);
  if (f.category) q = q.where('projects.category', '=', f.category);
  if (f.minPriceFen != null) q = q.where('goods.sale_price_fen', '>=', f.minPriceFen);
  if (f.maxPriceFen != null) q = q.where('goods.sale_price_fen', '<=', f.maxPriceFen);

  const key = JSON.stringify([status, f.projectId, f.category, f.minPriceFen, f.maxPriceFen]);
  let cache = counts.get(ctx.db);
  if (!cache) counts.set(ctx.db, (cache = new Map()));
  const hit = cache.get(key);
  let total: number;
  if (hit && performance.now() - hit.at < COUNT_TTL_MS) {
    total = hit.n;
  } else {
    // Only the joins a filter needs: the count of the market alone is an index-only scan.
    let cq = ctx.db.kysely.selectFrom('goods').select((e) => e.fn.countAll<number>().as('n'));
    if (status !== 'all') cq = cq.where('goods.status', '=', status);
    if (f.projectId !== undefined) cq = cq.where('goods.project_id', '=', f.projectId);
    if (f.category) cq = cq.where('goods.project_id', 'in', (s) => s.selectFrom('projects').select('projects.id').where('projects.category', '=', f.category!));
    if (f.minPriceFen != null) cq = cq.where('goods.sale_price_fen', '>=', f.minPriceFen);
    if (f.maxPriceFen != null) cq = cq.where('goods.sale_price_fen', '<=', f.maxPriceFen);
    const c = cq.compile();
    const [row] = await ctx.db.run(c, c.parameters);
    total = Number(row?.n ?? 0);
    if (cache.size >= COUNT_CACHE_MAX) cache.clear();
    cache.set(key, { n: total, at: performance.now() });
  }

  const priceCol = status === 'on_sale' ? 'goods.sale_price_fen' : 'goods.last_price_fen';
  let ordered = q;
  switch (f.sort ?? 'default') {
    case 'priceAsc':
      ordered = status === 'on_sale' ? ordered.orderBy(priceCol, 'asc') : ordered.orderBy(sql`${sql.ref(priceCol)} is null`).orderBy(priceCol, 'asc');
      ordered = ordered.orderBy('goods.id', 'asc');
      break;
    case 'priceDesc':
      ordered = status === 'on_sale' ? ordered.orderBy(priceCol, 'desc') : ordered.orderBy(sql`${sql.ref(priceCol)} is null`).orderBy(priceCol, 'desc');
      ordered = ordered.orderBy('goods.id', 'desc');
      break;
    case 'serialAsc':
      ordered = ordered.orderBy('goods.project_id', 'asc').orderBy('goods.serial', 'asc');
      break;
    default:
      ordered = status === 'on_sale' ? ordered.orderBy('goods.listed_at', 'desc').orderBy('goods.id', 'desc') : ordered.orderBy('goods.id', 'desc');
  }
  const page = ordered.limit(f.pageSize).offset((f.pageNum - 1) * f.pageSize).compile();
  const rows = await ctx.db.run<GoodsCardRow>(page as never, page.parameters);
  return { list: rows.map(toGoodsCard), total, pageNum: f.pageNum, pageSize: f.pageSize };
}
