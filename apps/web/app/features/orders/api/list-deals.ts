import type { OrderPaths } from '@cfx/contract/routes.ts';
import { apiData } from '../../../lib/api.ts';
import type { DealRecord, Page } from '../../../lib/orders/types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const DEAL_RECORDS_PATH: (typeof OrderPaths)['dealRecords'] = '/payment/nftDealRecord/V1/pageListNftDealRecordByParams';

/** POST /payment/nftDealRecord/V1/pageListNftDealRecordByParams {mine, pageNum, pageSize} — my completed deals (receipts with the chain tx). */
export function listDeals(q: { mine: 'buy' | 'sell' | 'all'; pageNum: number; pageSize: number }) {
  return apiData<Page<DealRecord>>(DEAL_RECORDS_PATH, q);
}
