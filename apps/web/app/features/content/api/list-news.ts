import { ContentPaths } from '@cfx/contract/routes.ts';
import type { Caller } from './caller.ts';
import type { NewsCard, Page } from './types.ts';

/** GET /official/news/list?pageNum=&pageSize=&category= — newest first. */
export function listNews(call: Caller, q: { pageNum: number; pageSize: number; category?: string }) {
  return call<Page<NewsCard>>(ContentPaths.newsList, undefined, { method: 'GET', query: { pageNum: q.pageNum, pageSize: q.pageSize, category: q.category || undefined } });
}
