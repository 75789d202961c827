import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as C from '@cfx/contract/catalog.ts';
import { Status } from '@cfx/contract/envelope.ts';
import { CatalogPaths } from '@cfx/contract/routes.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId } from '../accounts/index.ts';
import { ApiError, langOf, ok, okOfficial } from '../../http/envelope.ts';
import { getCommonInfo } from './get-common-info.ts';
import { getFilterMeta } from './get-filter-meta.ts';
import { goodsDetailsResponse } from './goods-detail-cache.ts';
import { getListHead } from './get-list-head.ts';
import { getProject, getProjectSale, getProjectTitle } from './get-project.ts';
import { listGoods } from './list-goods.ts';
import { listHistoryActions, listPriceHistory } from './list-goods-history.ts';
import { findAllProjects, listCreatorProjects, listProjects } from './list-projects.ts';
import { listCreators, queryCreator } from './query-creator.ts';
import { optionalUserId } from '../accounts/index.ts';

/** Releases, collectibles and creators. */
export function catalogRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['catalog'];

  r.post(CatalogPaths.projectIndex, { schema: { tags, body: C.projectListBody, response: { 200: C.projectPageResponse } } }, async (req) => {
    return ok(req, await listProjects(ctx, req.body));
  });
  r.post(CatalogPaths.projectDetails, { schema: { tags, body: C.idBody, response: { 200: C.projectDetailResponse } } }, async (req) => {
    return ok(req, await getProject(ctx, req.body.id));
  });
  r.get(CatalogPaths.projectSubSale, { schema: { tags, querystring: C.idQuery, response: { 200: C.projectSaleResponse } } }, async (req) => {
    return ok(req, await getProjectSale(ctx, req.query.id));
  });
  r.post(CatalogPaths.projectDetailsTitle, { schema: { tags, body: C.idBody, response: { 200: C.projectTitleResponse } } }, async (req) => {
    return ok(req, await getProjectTitle(ctx, req.body.id));
  });
  r.get(CatalogPaths.findAll, { schema: { tags, response: { 200: C.projectOptionsResponse } } }, async (req) => {
    return ok(req, await findAllProjects(ctx));
  });
  r.post(CatalogPaths.creatorProjects, { schema: { tags, body: C.creatorProjectsBody, response: { 200: C.projectPageResponse } } }, async (req) => {
    const { accountId, ...f } = req.body;
    return ok(req, await listCreatorProjects(ctx, accountId, f));
  });

  r.post(CatalogPaths.goodsList, { schema: { tags, body: C.goodsListBody, response: { 200: C.goodsPageResponse } } }, async (req) => {
    return ok(req, await listGoods(ctx, req.body));
  });
  // Answered as ready-made bytes (goods-detail-cache.ts); the response schema documents the same envelope.
  r.get(CatalogPaths.goodsDetails, { schema: { tags, querystring: C.idQuery, response: { 200: C.goodsDetailResponse } } }, async (req, reply) => {
    const bytes = await goodsDetailsResponse(ctx, req.query.id, langOf(req));
    // Bytes skip the serializer; the type provider only knows the object form of the schema.
    return reply.type('application/json; charset=utf-8').send(bytes as never);
  });
  r.get(CatalogPaths.commonInfo, { schema: { tags, response: { 200: C.commonInfoResponse } } }, async (req) => {
    return ok(req, getCommonInfo(ctx));
  });
  r.get(CatalogPaths.historyPrice, { schema: { tags, querystring: C.historyPriceQuery, response: { 200: C.pricePointsResponse } } }, async (req) => {
    return ok(req, await listPriceHistory(ctx, req.query.id, req.query.limit ?? undefined));
  });
  r.get(CatalogPaths.historyAction, { schema: { tags, querystring: C.historyActionQuery, response: { 200: C.historyActionsResponse } } }, async (req) => {
    return ok(req, await listHistoryActions(ctx, req.query.id, req.query.pageNum, req.query.pageSize));
  });
  r.post(CatalogPaths.listHead, { schema: { tags, response: { 200: C.listHeadResponse } } }, async (req) => {
    return ok(req, await getListHead(ctx, await requireUserId(ctx, req)));
  });
  r.get(CatalogPaths.filterMeta, { schema: { tags, response: { 200: C.filterMetaResponse } } }, async (req) => {
    return okOfficial(req, await getFilterMeta(ctx, langOf(req)));
  });

  r.post(CatalogPaths.creatorQuery, { schema: { tags, body: C.creatorQueryBody, response: { 200: C.creatorDetailResponse } } }, async (req) => {
    if (!req.body.accountId && req.body.id === undefined) throw new ApiError(Status.INVALID, 'badParams', {}, 400);
    return ok(req, await queryCreator(ctx, req.body, await optionalUserId(ctx, req)));
  });
  r.post(CatalogPaths.creatorList, { schema: { tags, body: C.creatorListBody, response: { 200: C.creatorPageResponse } } }, async (req) => {
    return ok(req, await listCreators(ctx, req.body.pageNum, req.body.pageSize));
  });
}
