import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as F from '@cfx/contract/goods-flows.ts';
import { GoodsFlowPaths } from '@cfx/contract/routes.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId } from '../accounts/index.ts';
import { langOf, ok } from '../../http/envelope.ts';
import { getBoxInfo } from './box-release.ts';
import { createBoxRelease } from './create-box-release.ts';
import { confirmOpenBox, openBox } from './open-box.ts';

/** Blind boxes (docs/drops.md "Blind boxes"): the public odds and proof, opening a box, and the dev-mode box release. */
export function boxRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['boxes'];
  r.get(GoodsFlowPaths.boxInfo, { schema: { tags, querystring: F.boxInfoQuery, response: { 200: F.boxInfoResponse } } }, async (req) => {
    return ok(req, await getBoxInfo(ctx, req.query.projectId));
  });
  r.get(GoodsFlowPaths.openBox, { schema: { tags, querystring: F.openBoxQuery, response: { 200: F.openingResponse } } }, async (req) => {
    return ok(req, await openBox(ctx, await requireUserId(ctx, req), req.query.goodsId, langOf(req), { retry: req.query.retry === '1' }));
  });
  r.post(GoodsFlowPaths.openBoxConfirm, { schema: { tags, body: F.openBoxConfirmBody, response: { 200: F.openingResponse } } }, async (req) => {
    return ok(req, await confirmOpenBox(ctx, await requireUserId(ctx, req), req.body, langOf(req)), 'boxSubmitted');
  });
  if (ctx.config.devMode) {
    // hide: development helpers never appear in the API docs (/mvapi/docs).
    r.post(GoodsFlowPaths.devBoxRelease, { schema: { hide: true, tags: ['dev'], body: F.devBoxReleaseBody, response: { 200: F.devBoxReleaseResponse } } }, async (req) => {
      const userId = await requireUserId(ctx, req);
      const rarities = ['隐藏', '稀有', '普通'];
      const names = ['星海隐藏款', '月光稀有款', '晨曦普通款'];
      const kinds = (req.body.kinds ?? [{ count: 1 }, { count: 2 }, { count: 3 }]).map((k, i) => ({
        name: k.name ?? names[i] ?? `款式${i + 1}`,
        rarity: k.rarity ?? rarities[i] ?? '普通',
        count: k.count,
      }));
      const supply = kinds.reduce((n, k) => n + k.count, 0);
      return ok(req, await createBoxRelease(ctx, userId, {
        kinds,
        priceFen: req.body.priceFen ?? undefined,
        revealInEpochs: req.body.revealInEpochs ?? undefined,
        grantTo: { userId, count: Math.min(supply, req.body.grant ?? supply) },
      }));
    });
  }
}
