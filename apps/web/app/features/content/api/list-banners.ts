import { ContentPaths } from '@cfx/contract/routes.ts';
import type { Caller } from './caller.ts';
import type { Banner } from './types.ts';

/** POST /background/banner/list {position} — the carousel of a page (code 200 on success). */
export function listBanners(call: Caller, position: Banner['position'] = 'home') {
  return call<Banner[]>(ContentPaths.bannerList, { position }, { silent: true });
}
