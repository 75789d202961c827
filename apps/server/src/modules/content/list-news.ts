import type { NewsCard } from '@cfx/contract/content.ts';
import type { Page } from '@cfx/contract/paging.ts';
import type { AppContext } from '../../context.ts';

const CARD_COLUMNS = ['news.id', 'news.title', 'news.cover', 'news.summary', 'news.category', 'news.is_hot', 'news.is_place', 'news.views', 'news.published_at'] as const;
export function newsCardQuery(ctx: AppContext) {
  // Only published items: a future published_at schedules an item; a draft (unpublished in the console) never shows.
  return ctx.db.kysely.selectFrom('news').select(CARD_COLUMNS).where('news.published_at', '<=', ctx.now()).where('news.draft', '=', 0);
}
export interface NewsCardRow {
  id: number;
  title: string;
  cover: string;
  summary: string;
  category: string;
  is_hot: number;
  is_place: number;
  views: number;
  published_at: number;
}
export function toNewsCard(r: NewsCardRow): NewsCard {
  return {
    id: Number(r.id),
    title: r.title,
    cover: r.cover,
    summary: r.summary,
    category: r.category,
    isHot: Boolean(Number(r.is_hot)),
    isPlace: Boolean(Number(r.is_place)),
    views: Number(r.views),
    publishedAt: Number(r.published_at),
  };
}

/** Published news, newest first, optionally of one category. */
export async function listNews(ctx: AppContext, f: { pageNum: number; pageSize: number; category?: string | null }): Promise<Page<NewsCard>> {
  let q = newsCardQuery(ctx);
  if (f.category) q = q.where('news.category', '=', f.category);
  const count = await q.clearSelect().select((e) => e.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = await q.orderBy('news.published_at', 'desc').orderBy('news.id', 'desc').limit(f.pageSize).offset((f.pageNum - 1) * f.pageSize).execute();
  return { list: rows.map(toNewsCard), total: Number(count?.n ?? 0), pageNum: f.pageNum, pageSize: f.pageSize };
}

/** Hot news (the "newsHostList" call), newest first. */
export async function listHotNews(ctx: AppContext, limit = 10) {
  const rows = await newsCardQuery(ctx).where('news.is_hot', '=', 1).orderBy('news.published_at', 'desc').orderBy('news.id', 'desc').limit(limit).execute();
  return rows.map(toNewsCard);
}

/** Placed (pinned) news in their placement order. */
export async function listPlacedNews(ctx: AppContext, limit = 10) {
  const rows = await newsCardQuery(ctx)
    .where('news.is_place', '=', 1)
    .orderBy('news.place_sort', 'asc')
    .orderBy('news.published_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toNewsCard);
}

export async function newsCardsByIds(ctx: AppContext, ids: number[]): Promise<Map<number, NewsCard>> {
  const out = new Map<number, NewsCard>();
  if (!ids.length) return out;
  for (const r of await newsCardQuery(ctx).where('news.id', 'in', ids).execute()) out.set(Number(r.id), toNewsCard(r));
  return out;
}
