import type { CatalogPaths } from '@cfx/contract/routes.ts';
import type { Caller, FilterMeta } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const FILTER_META_PATH: (typeof CatalogPaths)['filterMeta'] = '/background/nftMarket/v1/getFilterRelatedMetaInfo';

/** GET /background/nftMarket/v1/getFilterRelatedMetaInfo — releases, sorts and price ranges of the market filters (labels in the page language; `code: 200`). */
export function getFilterMeta(call: Caller) {
  return call<FilterMeta>(FILTER_META_PATH, undefined, { method: 'GET', silent: true });
}
