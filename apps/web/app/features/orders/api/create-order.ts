import type { OrderPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import type { OrderDetail } from '../../../lib/orders/types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const CREATE_ORDER_PATH: (typeof OrderPaths)['createOrder'] = '/payment/nftOrder/V1/createOrder';

/**
 * POST /payment/nftOrder/V1/createOrder {goodsId} — reserves the listing for the payment window.
 * Skips the default error message: the buy page shows the reason (trading gate, taken, …).
 */
export function createOrder(body: { goodsId: number }) {
  return api<OrderDetail>(CREATE_ORDER_PATH, body);
}
