import { CatalogPaths } from '@cfx/contract/routes.ts';
import type { Caller } from './caller.ts';
import type { GoodsCard, Page } from './types.ts';

/** POST /goods/v1/list/index — collectibles; here every collectible of one release (`status: 'all'`). */
export function listReleaseGoods(call: Caller, q: { projectId: number; pageNum: number; pageSize: number }) {
  return call<Page<GoodsCard>>(CatalogPaths.goodsList, { projectId: q.projectId, pageNum: q.pageNum, pageSize: q.pageSize, status: 'all', sort: 'serialAsc' });
}
