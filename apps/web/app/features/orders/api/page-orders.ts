import type { OrderPaths } from '@cfx/contract/routes.ts';
import { apiData } from '../../../lib/api.ts';
import type { OrderCard, OrderFilter, Page } from '../../../lib/orders/types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const PAGE_LIST_NFT_ORDER_PATH: (typeof OrderPaths)['pageListNftOrder'] = '/payment/nftOrder/V1/pageListNftOrder';

/** POST /payment/nftOrder/V1/pageListNftOrder {role, status, pageNum, pageSize} — my orders as buyer or seller, newest first. */
export function pageOrders(q: { role: 'buyer' | 'seller'; status: OrderFilter; pageNum: number; pageSize: number }) {
  return apiData<Page<OrderCard>>(PAGE_LIST_NFT_ORDER_PATH, q);
}
