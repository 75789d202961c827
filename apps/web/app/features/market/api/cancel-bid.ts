import type { MarketPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import type { Bid } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const CANCEL_BARGIN_PATH: (typeof MarketPaths)['cancelBargin'] = '/goods/v1/cancelBargin/';

/** GET /goods/v1/cancelBargin/?id= — withdraw my bid (errors: the default red message). */
export function cancelBid(id: number) {
  return api<Bid>(CANCEL_BARGIN_PATH, undefined, { method: 'GET', query: { id } });
}
