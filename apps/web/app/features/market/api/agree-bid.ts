import type { MarketPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import type { OrderDetail } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const AGREE_BARGAIN_PATH: (typeof MarketPaths)['agreeBargain'] = '/goods/v1/agreeBargin/';

/** POST /goods/v1/agreeBargin/ {bidId, sellerOrderId, signature} — accept a bid; an order is created for the bidder. */
export function agreeBid(body: { bidId: number; sellerOrderId: string; signature: string }) {
  return api<OrderDetail>(AGREE_BARGAIN_PATH, body, { silent: true });
}
