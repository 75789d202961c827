import type { OrderPaths } from '@cfx/contract/routes.ts';
import { apiData } from '../../../lib/api.ts';
import type { AmountInfo } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const QUERY_AMOUNT_PATH: (typeof OrderPaths)['queryAmount'] = '/payment/nftOrder/V1/queryAmount';

/** POST /payment/nftOrder/V1/queryAmount {orderNo} — amount, deadline, the payment methods available now and my balance. */
export function queryAmount(orderNo: string): Promise<AmountInfo> {
  return apiData<AmountInfo>(QUERY_AMOUNT_PATH, { orderNo }, { silent: true });
}
