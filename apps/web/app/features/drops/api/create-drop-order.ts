import type { OrderPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import type { OrderDetail } from '@cfx/contract/market.ts';

/** Checked against the contract by type (a value import would grow the shared chunk). */
const CREATE_ORDER_PATH: (typeof OrderPaths)['createOrder'] = '/payment/nftOrder/V1/createOrder';

/**
 * POST /payment/nftOrder/V1/createOrder {projectId, count} — reserves units of a release (a drop
 * order) for the payment window. Its failures skip the default message: the buy box
 * shows them (1021 排队中 / 1022 已售罄 / 1023 限购 / 1024 未开售 / 1011 the trading gate).
 */
export function createDropOrder(body: { projectId: number; count: number }) {
  return api<OrderDetail>(CREATE_ORDER_PATH, body);
}
