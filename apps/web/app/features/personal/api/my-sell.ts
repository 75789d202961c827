import type { MarketPaths } from '@cfx/contract/routes.ts';
import { apiData } from '../../../lib/api.ts';
import type { MySellItem, Page, SaleFilter } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const MY_SELL_PATH: (typeof MarketPaths)['mySell'] = '/goods/v1/mySell';

/** POST /goods/v1/mySell {status, pageNum, pageSize} — my listings: on sale (incl. reserved), sold (with the proceeds), closed. */
export function mySell(q: { status: SaleFilter; pageNum: number; pageSize: number }) {
  return apiData<Page<MySellItem>>(MY_SELL_PATH, q, { silent: true });
}
