import type { MarketPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import type { PreOpenSale } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const PRE_OPEN_SALE_PATH: (typeof MarketPaths)['preOpenSale'] = '/goods/v1/preOpenSale';

/** POST /goods/v1/preOpenSale {goodsId, price, bidId?} — a draft listing: typed data to sign, the exchange to approve. */
export function preOpenSale(body: { goodsId: number; price: number; bidId?: number }) {
  return api<PreOpenSale>(PRE_OPEN_SALE_PATH, body, { silent: true });
}
