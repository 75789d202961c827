import type { MarketPaths } from '@cfx/contract/routes.ts';
import { apiData } from '../../../lib/api.ts';
import type { BidStatistics } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const BARGIN_LIST_STATISTICS_PATH: (typeof MarketPaths)['barginListStatistics'] = '/goods/v1/barginListStatistics';

/** POST /goods/v1/barginListStatistics — my active / accepted bids and the bids on my collectibles. */
export function getBidStatistics() {
  return apiData<BidStatistics>(BARGIN_LIST_STATISTICS_PATH, {}, { silent: true });
}
