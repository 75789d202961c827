import type { CatalogPaths } from '@cfx/contract/routes.ts';
import { apiData } from '../../../lib/api.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const COMMON_INFO_PATH: (typeof CatalogPaths)['commonInfo'] = '/goods/v1/commonInfo/';

export interface CommonInfo {
  serverTime: number;
  chainId: number;
  explorerUrl: string;
  /** Platform commission on free-market sales, per mille of the price. */
  commissionPermille: number;
  currencySymbol: string;
}

/** GET /goods/v1/commonInfo/ — the commission rate shown before listing and buying. */
export function getCommonInfo() {
  return apiData<CommonInfo>(COMMON_INFO_PATH, undefined, { method: 'GET', silent: true });
}
