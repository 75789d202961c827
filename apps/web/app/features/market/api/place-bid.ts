import type { MarketPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import type { Bid } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const BARGAIN_PATH: (typeof MarketPaths)['bargain'] = '/goods/v1/bargin';

/** POST /goods/v1/bargin {goodsId, amount, expiresAt} — an offer to the owner (replaces my previous bid on it). */
export function placeBid(body: { goodsId: number; amount: number; expiresAt: number }) {
  return api<Bid>(BARGAIN_PATH, body, { silent: true });
}
