import { CatalogPaths } from '@cfx/contract/routes.ts';
import type { Caller } from './caller.ts';
import type { GoodsDetail } from './types.ts';

/** GET /goods/v1/details/?id= — one collectible (owner, attributes, release, creator). Unknown id: 1404. */
export function getGoods(call: Caller, id: string) {
  return call<GoodsDetail>(CatalogPaths.goodsDetails, undefined, { method: 'GET', query: { id } });
}
