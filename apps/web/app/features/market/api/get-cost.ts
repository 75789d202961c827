import type { MarketPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import type { Cost } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const COST_PATH: (typeof MarketPaths)['cost'] = '/goods/v1/cost';

/** GET /goods/v1/cost ?price=&goodsId= — commission (and royalty) deducted from a sale at `price`. Skips the default error message. */
export function getCost(q: { price: number; goodsId?: number }, signal?: AbortSignal) {
  return api<Cost>(COST_PATH, undefined, { method: 'GET', query: q, signal });
}
