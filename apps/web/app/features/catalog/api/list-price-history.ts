import { CatalogPaths } from '@cfx/contract/routes.ts';
import type { Caller } from './caller.ts';
import type { PricePoint } from './types.ts';

/** GET /goods/v1/list/historyPrice/?id=&limit= — trade prices, oldest first. */
export function listPriceHistory(call: Caller, id: string, limit = 200) {
  return call<PricePoint[]>(CatalogPaths.historyPrice, undefined, { method: 'GET', query: { id, limit }, silent: true });
}
