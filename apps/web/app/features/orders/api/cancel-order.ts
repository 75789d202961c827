import type { OrderPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import type { OrderDetail } from '../../../lib/orders/types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const CANNEL_ORDER_PATH: (typeof OrderPaths)['cannelOrder'] = '/payment/nftOrder/V1/cannelOrder';

/** POST /payment/nftOrder/V1/cannelOrder {orderNo} — the buyer cancels an unpaid order (the listing is released). */
export function cancelOrder(orderNo: string) {
  return api<OrderDetail>(CANNEL_ORDER_PATH, { orderNo });
}
