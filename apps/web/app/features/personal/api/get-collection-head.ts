import type { CatalogPaths } from '@cfx/contract/routes.ts';
import { apiData } from '../../../lib/api.ts';
import type { CollectionHead } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const LIST_HEAD_PATH: (typeof CatalogPaths)['listHead'] = '/goods/v1/list/head';

/** POST /goods/v1/list/head — my collection in numbers: total, held, on sale, series, valuation. */
export function getCollectionHead() {
  return apiData<CollectionHead>(LIST_HEAD_PATH, {}, { silent: true });
}
