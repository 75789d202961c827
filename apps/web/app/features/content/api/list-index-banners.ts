import type { ContentPaths } from '@cfx/contract/routes.ts';
import type { Caller } from './caller.ts';
import type { Banner } from './types.ts';

/** Checked against the contract by type (a value import of the paths would grow the shared chunk of `/`). */
const INDEX_BANNER_PATH: (typeof ContentPaths)['indexBanner'] = '/goods/v1/list/indexBanner';

/** GET /goods/v1/list/indexBanner — the home page's banners (position `home`), in their order; status 000000. */
export function listIndexBanners(call: Caller) {
  return call<Banner[]>(INDEX_BANNER_PATH, undefined, { method: 'GET', silent: true });
}
