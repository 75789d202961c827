import type { MarketPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const CANCEL_BARGIN_PATH: (typeof MarketPaths)['cancelBargin'] = '/goods/v1/cancelBargin/';

/** GET /goods/v1/cancelBargin/?id= — withdraw one of my bids. */
export function cancelBid(id: number) {
  return api<unknown>(CANCEL_BARGIN_PATH, undefined, { method: 'GET', query: { id } });
}
