import { ContentPaths } from '@cfx/contract/routes.ts';
import type { Caller } from './caller.ts';
import type { NewsDetail } from './types.ts';

/** GET /official/news/{id} — one item with sanitised HTML and its neighbours. Unknown id: 1404. */
export function getNews(call: Caller, id: string) {
  return call<NewsDetail>(ContentPaths.newsItem.replace(':id', encodeURIComponent(id)), undefined, { method: 'GET' });
}
