import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Status } from '@cfx/contract/envelope.ts';
import * as M from '@cfx/contract/market.ts';
import { formatMessage } from '@cfx/contract/messages.ts';
import { OrderPaths } from '@cfx/contract/routes.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId } from '../accounts/index.ts';
import { requireTraderUserId } from '../kyc/index.ts';
import { body, langOf, ok } from '../../http/envelope.ts';
import { cancelOrder } from './cancel-order.ts';
import { createOrder } from './create-order.ts';
import { getOrderDetail, queryAmount } from './get-order.ts';
import { listDeals } from './list-deals.ts';
import { listOrders, pageOrders } from './list-orders.ts';
import { paymentWindowText } from './payment-window.ts';

/** Orders and deal records. */
/**
 * The primary sale's order creation (modules/drops: drops/routes.ts), given by the app: the same
 * call creates a drop order for a {projectId, count} body. Orders import nothing of drops.
 */
export interface DropOrders {
  isDropOrderBody(b: { projectId?: number; goodsId?: number; listingId?: number }): b is { projectId: number; count?: number };
  createDropOrderFor(ctx: AppContext, userId: number, body: { projectId: number; count?: number }, reply: FastifyReply): Promise<Awaited<ReturnType<typeof createOrder>>>;
}

export function orderRoutes(app: FastifyInstance, ctx: AppContext, drops: DropOrders) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['orders'];
  r.post(OrderPaths.createOrder, { schema: { tags, body: M.createOrderBody, response: { 200: M.orderDetailResponse } } }, async (req, reply) => {
    // The session and the trading gate's row in one read for a buyer this process has not seen (the order's gate check then hits the cache).
    const userId = await requireTraderUserId(ctx, req);
    // {projectId, count}: a primary-sale (drop) order (modules/drops); else a market order.
    const detail = drops.isDropOrderBody(req.body) ? await drops.createDropOrderFor(ctx, userId, req.body, reply) : await createOrder(ctx, userId, req.body);
    const lang = langOf(req);
    return body(Status.OK, detail, formatMessage('orderCreated', lang, { d: paymentWindowText(ctx.config.market.paymentWindowMs, lang) }));
  });
  r.post(OrderPaths.getNftOrderDetail, { schema: { tags, body: M.orderNoBody, response: { 200: M.orderDetailResponse } } }, async (req) => {
    return ok(req, await getOrderDetail(ctx, await requireUserId(ctx, req), req.body.orderNo));
  });
  r.post(OrderPaths.queryAmount, { schema: { tags, body: M.orderNoBody, response: { 200: M.queryAmountResponse } } }, async (req) => {
    return ok(req, await queryAmount(ctx, await requireUserId(ctx, req), req.body.orderNo));
  });
  r.post(OrderPaths.cancelOrder, { schema: { tags, body: M.orderNoBody, response: { 200: M.orderDetailResponse } } }, async (req) => {
    return ok(req, await cancelOrder(ctx, await requireUserId(ctx, req), req.body.orderNo), 'orderCancelled');
  });
  r.post(OrderPaths.queryNftOrderList, { schema: { tags, body: M.orderListBody, response: { 200: M.orderListResponse } } }, async (req) => {
    return ok(req, await listOrders(ctx, await requireUserId(ctx, req), req.body));
  });
  r.post(OrderPaths.pageListNftOrder, { schema: { tags, body: M.orderPageBody, response: { 200: M.orderPageResponse } } }, async (req) => {
    return ok(req, await pageOrders(ctx, await requireUserId(ctx, req), req.body));
  });
  r.post(OrderPaths.dealRecords, { schema: { tags, body: M.dealRecordBody, response: { 200: M.dealPageResponse } } }, async (req) => {
    return ok(req, await listDeals(ctx, req, req.body));
  });
}
