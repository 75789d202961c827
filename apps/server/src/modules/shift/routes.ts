import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as F from '@cfx/contract/goods-flows.ts';
import { GoodsFlowPaths } from '@cfx/contract/routes.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId } from '../accounts/index.ts';
import { langOf, ok } from '../../http/envelope.ts';
import { listTransfers, notifyTransfer } from './apply-transfer.ts';
import { queryShiftStatus } from './shift-status.ts';
import { giftReceiver, startGift, startShift } from './start-transfer.ts';

/** Moving a collectible to another own address and gifts (docs/drops.md "Shift and gifts"). Every call needs a login (1100). */
export function shiftRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['shift'];
  r.get(GoodsFlowPaths.queryShiftStatus, { schema: { tags, querystring: F.shiftStatusQuery, response: { 200: F.shiftStatusResponse } } }, async (req) => {
    return ok(req, await queryShiftStatus(ctx, await requireUserId(ctx, req), req.query.goodsId, langOf(req)));
  });
  r.post(GoodsFlowPaths.shift, { schema: { tags, body: F.shiftBody, response: { 200: F.transferIntentResponse } } }, async (req) => {
    return ok(req, await startShift(ctx, await requireUserId(ctx, req), req.body), 'shiftCreated');
  });
  r.post(GoodsFlowPaths.gift, { schema: { tags, body: F.giftBody, response: { 200: F.transferIntentResponse } } }, async (req) => {
    return ok(req, await startGift(ctx, await requireUserId(ctx, req), req.body), 'shiftCreated');
  });
  r.post(GoodsFlowPaths.giftReceiver, { schema: { tags, body: F.giftReceiverBody, response: { 200: F.giftReceiverResponse } } }, async (req) => {
    return ok(req, await giftReceiver(ctx, await requireUserId(ctx, req), req.body, langOf(req)));
  });
  r.post(GoodsFlowPaths.shiftNotify, { schema: { tags, body: F.shiftNotifyBody, response: { 200: F.goodsTransferResponse } } }, async (req) => {
    return ok(req, await notifyTransfer(ctx, await requireUserId(ctx, req), req.body));
  });
  r.post(GoodsFlowPaths.shiftRecord, { schema: { tags, body: F.shiftRecordBody, response: { 200: F.goodsTransferPageResponse } } }, async (req) => {
    return ok(req, await listTransfers(ctx, await requireUserId(ctx, req), req.body));
  });
}
