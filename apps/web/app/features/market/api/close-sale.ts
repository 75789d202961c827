import type { MarketPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import type { CloseSaleResult } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const CLOSE_SALE_PATH: (typeof MarketPaths)['closeSale'] = '/goods/v1/closeSale';

/** POST /goods/v1/closeSale {goodsId} — off sale; the answer says what to approve(0) on chain. */
export function closeSale(body: { goodsId: number }) {
  return api<CloseSaleResult>(CLOSE_SALE_PATH, body, { silent: true });
}
