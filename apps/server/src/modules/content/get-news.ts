import type { AppContext } from '../../context.ts';
import { notFound } from '../catalog/index.ts';
import { newsCardQuery, toNewsCard } from './list-news.ts';

/** One published news item with its neighbours (`prev` older, `next` newer); counts a view. */
export async function getNews(ctx: AppContext, rawId: string) {
  const id = /^\d{1,15}$/.test(rawId) ? Number(rawId) : 0;
  if (!id) throw notFound('newsNotFound');
  const row = await newsCardQuery(ctx).select(['news.content_html', 'news.author']).where('news.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('newsNotFound');
  const at = Number(row.published_at);
  const [prev, next] = await Promise.all([
    newsCardQuery(ctx)
      .clearSelect()
      .select(['news.id', 'news.title'])
      .where((e) => e.or([e('news.published_at', '<', at), e.and([e('news.published_at', '=', at), e('news.id', '<', id)])]))
      .orderBy('news.published_at', 'desc')
      .orderBy('news.id', 'desc')
      .limit(1)
      .executeTakeFirst(),
    ctx.db.kysely
      .selectFrom('news')
      .select(['news.id', 'news.title'])
      .where('news.published_at', '<=', ctx.now())
      .where('news.draft', '=', 0)
      .where((e) => e.or([e('news.published_at', '>', at), e.and([e('news.published_at', '=', at), e('news.id', '>', id)])]))
      .orderBy('news.published_at', 'asc')
      .orderBy('news.id', 'asc')
      .limit(1)
      .executeTakeFirst(),
  ]);
  await ctx.db.kysely.updateTable('news').set((e) => ({ views: e('views', '+', 1) })).where('id', '=', id).execute();
  return {
    ...toNewsCard(row),
    views: Number(row.views) + 1,
    author: row.author,
    contentHtml: row.content_html,
    prev: prev ? { id: Number(prev.id), title: prev.title } : null,
    next: next ? { id: Number(next.id), title: next.title } : null,
  };
}
