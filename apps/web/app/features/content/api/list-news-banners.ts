import type { ContentPaths } from '@cfx/contract/routes.ts';
import type { Caller } from './caller.ts';
import type { Banner } from './types.ts';

/** Checked against the contract by type (a value import of the paths would grow the shared chunk of `/`). */
const NEWS_BANNER_PATH: (typeof ContentPaths)['newsBanners'] = '/official/news/newsBannerList';

/** GET /official/news/newsBannerList — the news page's banners (position `news`), in their order; code 200. */
export function listNewsBanners(call: Caller) {
  return call<Banner[]>(NEWS_BANNER_PATH, undefined, { method: 'GET', silent: true });
}
