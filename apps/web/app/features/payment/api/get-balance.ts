import type { OrderPaths } from '@cfx/contract/routes.ts';
import { apiData } from '../../../lib/api.ts';
import type { Balance } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const BALANCE_PATH: (typeof OrderPaths)['balance'] = '/payment/account/V1/queryBalance';

/** GET /payment/account/V1/queryBalance — available balance, money in settlement, the latest movements. */
export function getBalance(): Promise<Balance> {
  return apiData<Balance>(BALANCE_PATH, undefined, { method: 'GET', silent: true });
}
