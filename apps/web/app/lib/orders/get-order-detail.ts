import type { OrderPaths } from '@cfx/contract/routes.ts';
import { apiData } from '../api.ts';
import type { OrderDetail } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const GET_NFT_ORDER_DETAIL_PATH: (typeof OrderPaths)['getNftOrderDetail'] = '/payment/nftOrder/V1/getNftOrderDetail';

/** POST /payment/nftOrder/V1/getNftOrderDetail {orderNo} — the order with its timeline (buyer or seller). Throws on failure. */
export function getOrderDetail(orderNo: string): Promise<OrderDetail> {
  return apiData<OrderDetail>(GET_NFT_ORDER_DETAIL_PATH, { orderNo });
}
