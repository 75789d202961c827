import { ContentPaths } from '@cfx/contract/routes.ts';
import type { Caller } from './caller.ts';
import type { NewsCard } from './types.ts';

/** GET /official/news/v2/newsHostList — hot news (side list). */
export function listHotNews(call: Caller) {
  return call<NewsCard[]>(ContentPaths.newsHot, undefined, { method: 'GET', silent: true });
}
