import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as M from '@cfx/contract/market.ts';
import { MarketPaths } from '@cfx/contract/routes.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId, tokenOf } from '../accounts/index.ts';
import { ok } from '../../http/envelope.ts';
import { findSessionUser } from '../accounts/index.ts';
import { acceptBid } from './accept-bid.ts';
import { cancelBid } from './cancel-bid.ts';
import { bidStatistics, listBids, listMyBids } from './list-bids.ts';
import { placeBid } from './place-bid.ts';

/** Bids ("bargin", spelled as in the spec): offers an owner may accept. */
export function bidRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['bids'];
  r.post(MarketPaths.bargain, { schema: { tags, body: M.bargainBody, response: { 200: M.bidResponse } } }, async (req) => {
    return ok(req, await placeBid(ctx, await requireUserId(ctx, req), req.body), 'bidPlaced');
  });
  r.post(MarketPaths.bargainList, { schema: { tags, body: M.bargainListBody, response: { 200: M.bidPageResponse } } }, async (req) => {
    const token = tokenOf(req);
    const viewer = token ? await findSessionUser(ctx, token) : undefined;
    return ok(req, await listBids(ctx, viewer, req.body));
  });
  r.post(MarketPaths.agreeBargain, { schema: { tags, body: M.agreeBargainBody, response: { 200: M.orderDetailResponse } } }, async (req) => {
    return ok(req, await acceptBid(ctx, await requireUserId(ctx, req), req.body), 'bidAccepted');
  });
  r.get(MarketPaths.cancelBargain, { schema: { tags, querystring: M.cancelBargainQuery, response: { 200: M.bidResponse } } }, async (req) => {
    return ok(req, await cancelBid(ctx, await requireUserId(ctx, req), req.query.id), 'bidCancelled');
  });
  r.post(MarketPaths.myBargainList, { schema: { tags, body: M.myBargainListBody, response: { 200: M.myBidPageResponse } } }, async (req) => {
    return ok(req, await listMyBids(ctx, await requireUserId(ctx, req), req.body));
  });
  r.post(MarketPaths.bargainListStatistics, { schema: { tags, response: { 200: M.bidStatisticsResponse } } }, async (req) => {
    return ok(req, await bidStatistics(ctx, await requireUserId(ctx, req)));
  });
}
