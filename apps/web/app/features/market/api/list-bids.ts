import type { MarketPaths } from '@cfx/contract/routes.ts';
import { apiData } from '../../../lib/api.ts';
import type { Bid, Page } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const BARGAIN_LIST_PATH: (typeof MarketPaths)['bargainList'] = '/goods/v1/barginList';

/** POST /goods/v1/barginList {goodsId, pageNum, pageSize} — the collectible's active bids, highest first. */
export function listBids(q: { goodsId: number; pageNum: number; pageSize: number }) {
  return apiData<Page<Bid>>(BARGAIN_LIST_PATH, q, { silent: true });
}
