import { ContentPaths } from '@cfx/contract/routes.ts';
import type { Caller } from './caller.ts';
import type { NewsCard } from './types.ts';

/** GET /official/news/v2/newsPlaceList — pinned announcements, in order (the home marquee). */
export function listPlacedNews(call: Caller) {
  return call<NewsCard[]>(ContentPaths.newsPlace, undefined, { method: 'GET', silent: true });
}
