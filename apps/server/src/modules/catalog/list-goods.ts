import type { GoodsCard } from '@cfx/contract/catalog.ts';
import type { Page } from '@cfx/contract/paging.ts';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { projectIdsOfCategory } from './project-info.ts';
import { GOODS_CARD_COLUMNS, goodsCardsOf, type GoodsRow } from './repo.ts';
import { cachedResult, invalidateCatalogCache } from './result-cache.ts';
import { runShaped, type Param } from './shaped-query.ts';

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

/** Totals are cached even with the page cache off: counting a large market costs more than its page. */
const COUNT_TTL_MS = 2000;

/** Drops cached list pages and totals of this database (a writer that must show its change at once). */
export const invalidateGoodsLists = invalidateCatalogCache;
/** @deprecated the old name of invalidateGoodsLists */
export const invalidateGoodsCounts = invalidateCatalogCache;

/**
 * Collectibles: the consignment market by default (on sale, newest listing first), filtered,
 * sorted and paged. One indexed query on `goods` per page (release and creator fields come from
 * the in-memory release map), compiled once per filter shape; pages and totals are cached
 * (result-cache.ts: exact on SQLite, at most CATALOG_CACHE_MS old on PostgreSQL).
 */
export async function listGoods(ctx: AppContext, f: GoodsFilter): Promise<Page<GoodsCard>> {
  const key = `goods-list|${f.status ?? ''}|${f.projectId ?? ''}|${f.category ?? ''}|${f.minPriceFen ?? ''}|${f.maxPriceFen ?? ''}|${f.sort ?? ''}|${f.pageNum}|${f.pageSize}`;
  return cachedResult(ctx, key, () => listGoodsUncached(ctx, f));
}

async function listGoodsUncached(ctx: AppContext, f: GoodsFilter): Promise<Page<GoodsCard>> {
  const status = f.status ?? 'on_sale';
  const sort = f.sort ?? 'default';
  const projectIds = f.category ? await projectIdsOfCategory(ctx, f.category) : undefined;
  const empty = { list: [], total: 0, pageNum: f.pageNum, pageSize: f.pageSize };
  if (projectIds && !projectIds.length) return empty;

  const values: Record<string, unknown> = {
    status,
    projectId: f.projectId,
    minPrice: f.minPriceFen,
    maxPrice: f.maxPriceFen,
    limit: f.pageSize,
    offset: (f.pageNum - 1) * f.pageSize,
  };
  projectIds?.forEach((id, i) => (values[`p${i}`] = id));
  const has = { project: f.projectId !== undefined, min: f.minPriceFen != null, max: f.maxPriceFen != null, cats: projectIds?.length ?? 0 };
  const filterShape = `${status}|${has.project}|${has.min}|${has.max}|${has.cats}`;
  const where = <Q extends { where: any }>(q: Q, p: Param): Q => {
    let w: any = q;
    if (status !== 'all') w = w.where('goods.status', '=', p('status'));
    // Burned collectibles (opened boxes, composed fragments) are never listed.
    else w = w.where(sql<boolean>`goods.status <> 'burned'`);
    if (has.project) w = w.where('goods.project_id', '=', p('projectId'));
    if (has.cats) w = w.where('goods.project_id', 'in', projectIds!.map((_, i) => p(`p${i}`)));
    if (has.min) w = w.where('goods.sale_price_fen', '>=', p('minPrice'));
    if (has.max) w = w.where('goods.sale_price_fen', '<=', p('maxPrice'));
    return w as Q;
  };

  const countKey = `goods-count|${filterShape}|${f.projectId ?? ''}|${f.category ?? ''}|${f.minPriceFen ?? ''}|${f.maxPriceFen ?? ''}`;
  const total = await cachedResult(ctx, countKey, async () => {
    const [row] = await runShaped<{ n: number }>(ctx, `goods-count|${filterShape}`, (p) => where(ctx.db.kysely.selectFrom('goods').select((e) => e.fn.countAll<number>().as('n')), p), values);
    return Number(row?.n ?? 0);
  }, COUNT_TTL_MS);

  const rows = await runShaped<GoodsRow>(ctx, `goods-page|${filterShape}|${sort}`, (p) => {
    let q = where(ctx.db.kysely.selectFrom('goods').select(GOODS_CARD_COLUMNS), p);
    const price = status === 'on_sale' ? 'goods.sale_price_fen' : 'goods.last_price_fen';
    switch (sort) {
      case 'priceAsc':
      case 'priceDesc': {
        const dir = sort === 'priceAsc' ? 'asc' : 'desc';
        // Held collectibles have no asking price: sort by the last price, unknown prices last.
        if (status !== 'on_sale') q = q.orderBy(sql`${sql.ref(price)} is null`);
        q = q.orderBy(price, dir).orderBy('goods.id', dir);
        break;
      }
      case 'serialAsc':
        q = q.orderBy('goods.project_id', 'asc').orderBy('goods.serial', 'asc');
        break;
      default:
        q = status === 'on_sale' ? q.orderBy('goods.listed_at', 'desc').orderBy('goods.id', 'desc') : q.orderBy('goods.id', 'desc');
    }
    return q.limit(p('limit')).offset(p('offset'));
  }, values);
  return { list: await goodsCardsOf(ctx, rows), total, pageNum: f.pageNum, pageSize: f.pageSize };
}
