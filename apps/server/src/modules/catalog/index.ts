/** The public face of modules/catalog: what other modules, flows and the app may use (docs/architecture.md, "Module map"). */
export { readGoods } from './get-goods.ts';
export { getProject } from './get-project.ts';
export { invalidateGoodsLists } from './list-goods.ts';
export { listUnmintedGoods, markMinted } from './mint-queue.ts';
export type { UnmintedGoods } from './mint-queue.ts';
export { invalidateProjectInfo, projectInfos } from './project-info.ts';
export { creatorCardsByIds, queryCreator } from './query-creator.ts';
export { SOLD, STATUS_RANK, goodsCardQuery, goodsCardsByIds, jsonArray, notFound, projectCardsByIds, projectStatusOf, projectStatusRank, toGoodsCard } from './repo.ts';
export { invalidateCatalogCache } from './result-cache.ts';
export { catalogRoutes } from './routes.ts';
