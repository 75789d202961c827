import type { z } from 'zod';
import type { bid } from '@cfx/contract/market.ts';
import type { MarketPaths } from '@cfx/contract/routes.ts';
import { api } from '../api.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const CANCEL_BARGAIN_PATH: (typeof MarketPaths)['cancelBargain'] = '/goods/v1/cancelBargin/';

/**
 * GET /goods/v1/cancelBargin/?id= — withdraw one of my bids (the collectible page's bid box and
 * my bids in the personal center); errors: the default red message.
 */
export function cancelBid(id: number) {
  return api<z.infer<typeof bid>>(CANCEL_BARGAIN_PATH, undefined, { method: 'GET', query: { id } });
}
