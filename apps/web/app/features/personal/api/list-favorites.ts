import type { MarketPaths } from '@cfx/contract/routes.ts';
import { apiData } from '../../../lib/api.ts';
import type { GoodsCard, Page } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const FAVORITE_PATH: (typeof MarketPaths)['favorite'] = '/goods/v1/list/favorite';

/** POST /goods/v1/list/favorite {pageNum, pageSize} — my favourites. */
export function listFavorites(q: { pageNum: number; pageSize: number }) {
  return apiData<Page<GoodsCard>>(FAVORITE_PATH, q, { silent: true });
}
