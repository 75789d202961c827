import type { MarketPaths } from '@cfx/contract/routes.ts';
import { apiData } from '../../../lib/api.ts';
import type { AssetFilter, GoodsCard, Page } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const HOME_PATH: (typeof MarketPaths)['home'] = '/goods/v1/list/home';

/** POST /goods/v1/list/home {status, pageNum, pageSize} — my collectibles (digital assets), latest acquired first. */
export function listMyAssets(q: { status: AssetFilter; pageNum: number; pageSize: number }) {
  return apiData<Page<GoodsCard>>(HOME_PATH, q, { silent: true });
}
