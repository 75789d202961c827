import type { CatalogPaths } from '@cfx/contract/routes.ts';
import type { Caller, GoodsCard, MarketSort, Page } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const GOODS_LIST_PATH: (typeof CatalogPaths)['goodsList'] = '/goods/v1/list/index';

export interface MarketQuery {
  pageNum: number;
  pageSize: number;
  projectId?: number;
  minPriceFen?: number;
  maxPriceFen?: number;
  sort: MarketSort;
}

/** POST /goods/v1/list/index with status on_sale — the consignment market (asking-price filters, price/time sorts). */
export function listMarketGoods(call: Caller, q: MarketQuery) {
  return call<Page<GoodsCard>>(GOODS_LIST_PATH, { ...q, status: 'on_sale' });
}
