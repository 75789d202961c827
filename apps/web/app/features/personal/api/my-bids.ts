import type { MarketPaths } from '@cfx/contract/routes.ts';
import { apiData } from '../../../lib/api.ts';
import type { MyBid, Page } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const MY_BARGAIN_LIST_PATH: (typeof MarketPaths)['myBargainList'] = '/goods/v1/myBarginList';

/** POST /goods/v1/myBarginList {type: sent | received, status, pageNum, pageSize} — my bids, or the bids on my collectibles (counter bids). */
export function myBids(q: { type: 'sent' | 'received'; status: 'all' | 'active'; pageNum: number; pageSize: number }) {
  return apiData<Page<MyBid>>(MY_BARGAIN_LIST_PATH, q, { silent: true });
}
