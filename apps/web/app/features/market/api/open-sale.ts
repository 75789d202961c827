import type { MarketPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import type { Listing } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const OPEN_SALE_PATH: (typeof MarketPaths)['openSale'] = '/goods/v1/openSale';

/** POST /goods/v1/openSale {goodsId, price, sellerOrderId, signature} — the listing goes live. */
export function openSale(body: { goodsId: number; price: number; sellerOrderId: string; signature: string }) {
  return api<Listing>(OPEN_SALE_PATH, body, { silent: true });
}
