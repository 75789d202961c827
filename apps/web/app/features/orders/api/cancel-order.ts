import type { OrderPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import type { OrderDetail } from '../../../lib/orders/types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const CANCEL_ORDER_PATH: (typeof OrderPaths)['cancelOrder'] = '/payment/nftOrder/V1/cannelOrder';

/** POST /payment/nftOrder/V1/cannelOrder {orderNo} — the buyer cancels an unpaid order (the listing is released). */
export function cancelOrder(orderNo: string) {
  return api<OrderDetail>(CANCEL_ORDER_PATH, { orderNo });
}
