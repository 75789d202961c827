import type { z } from 'zod';
import type { bidStatistics } from '@cfx/contract/market.ts';
import type { MarketPaths } from '@cfx/contract/routes.ts';
import { apiData } from '../api.ts';

export type BidStatistics = z.infer<typeof bidStatistics>;

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const BARGAIN_LIST_STATISTICS_PATH: (typeof MarketPaths)['bargainListStatistics'] = '/goods/v1/barginListStatistics';

/** POST /goods/v1/barginListStatistics — my active / accepted bids and the bids on my collectibles (the bid tabs, the bid box). */
export function getBidStatistics() {
  return apiData<BidStatistics>(BARGAIN_LIST_STATISTICS_PATH, {}, { silent: true });
}
