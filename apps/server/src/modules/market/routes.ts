import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as M from '@cfx/contract/market.ts';
import { MarketPaths } from '@cfx/contract/routes.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId } from '../accounts/index.ts';
import { langOf, ok } from '../../http/envelope.ts';
import { closeSale } from './close-sale.ts';
import { getCost } from './get-cost.ts';
import { listMySales } from './list-my-sales.ts';
import { listFavorites, listMyAssets } from './list-personal.ts';
import { openSale } from './open-sale.ts';
import { preOpenSale } from './pre-open-sale.ts';
import { toggleLove } from './toggle-love.ts';
import { notifyOpenClose } from './watch-chain.ts';

/** Selling on the consignment market and the personal collection calls. */
export function marketRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['market'];
  r.get(MarketPaths.cost, { schema: { tags, querystring: M.costQuery, response: { 200: M.costResponse } } }, async (req) => {
    return ok(req, await getCost(ctx, { price: req.query.price, goodsId: req.query.goodsId }, langOf(req)));
  });
  r.post(MarketPaths.preOpenSale, { schema: { tags, body: M.preOpenSaleBody, response: { 200: M.preOpenSaleResponse } } }, async (req) => {
    const userId = await requireUserId(ctx, req);
    return ok(req, await preOpenSale(ctx, userId, req.body, langOf(req)));
  });
  r.post(MarketPaths.openSale, { schema: { tags, body: M.openSaleBody, response: { 200: M.listingResponse } } }, async (req) => {
    return ok(req, await openSale(ctx, await requireUserId(ctx, req), req.body), 'saleOpened');
  });
  r.post(MarketPaths.closeSale, { schema: { tags, body: M.closeSaleBody, response: { 200: M.closeSaleResponse } } }, async (req) => {
    return ok(req, await closeSale(ctx, await requireUserId(ctx, req), req.body.goodsId), 'saleClosed');
  });
  r.post(MarketPaths.openAndCloseNotify, { schema: { tags, body: M.openAndCloseNotifyBody, response: { 200: M.chainListingStateResponse } } }, async (req) => {
    return ok(req, await notifyOpenClose(ctx, await requireUserId(ctx, req), req.body.goodsId));
  });
  r.post(MarketPaths.mySell, { schema: { tags, body: M.mySellBody, response: { 200: M.mySellResponse } } }, async (req) => {
    return ok(req, await listMySales(ctx, await requireUserId(ctx, req), req.body));
  });
  r.post(MarketPaths.love, { schema: { tags, body: M.loveBody, response: { 200: M.loveResponse } } }, async (req) => {
    return ok(req, await toggleLove(ctx, await requireUserId(ctx, req), req.body.goodsId));
  });
  r.post(MarketPaths.favorite, { schema: { tags, body: M.favoriteListBody, response: { 200: M.goodsCardPageResponse } } }, async (req) => {
    return ok(req, await listFavorites(ctx, await requireUserId(ctx, req), req.body));
  });
  r.post(MarketPaths.home, { schema: { tags, body: M.homeListBody, response: { 200: M.goodsCardPageResponse } } }, async (req) => {
    return ok(req, await listMyAssets(ctx, await requireUserId(ctx, req), req.body));
  });
}
