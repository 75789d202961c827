import type { OrderPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import type { PayMethod, PayResult } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const PAY_PATH: (typeof OrderPaths)['pay'] = '/payment/nftOrder/V1/pay';

/**
 * POST /payment/nftOrder/V1/pay {orderNo, method}: balance → paid at once; sandbox / alipay →
 * `payUrl` (the sandbox cashier page, or Alipay's page-pay URL) to send the buyer to.
 */
export function payOrder(body: { orderNo: string; method: PayMethod }) {
  return api<PayResult>(PAY_PATH, body, { silent: true });
}
