import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as D from '@cfx/contract/drops.ts';
import { DevPaths, DropPaths } from '@cfx/contract/routes.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId } from '../accounts/index.ts';
import { ok, okOfficial } from '../../http/envelope.ts';
import { DropBusy } from './admission.ts';
import { createDropOrder } from './create-drop-order.ts';
import { createDropRelease } from './create-drop-release.ts';
import { nowStint } from './now-stint.ts';
import { phaseRoutes } from './phase-routes.ts';

/** createOrder's body names a release and no listing: a drop order. */
export function isDropOrderBody(b: { projectId?: number; goodsId?: number; listingId?: number }): b is { projectId: number; count?: number } {
  return b.projectId !== undefined && b.goodsId === undefined && b.listingId === undefined;
}

/** createOrder {projectId, count} (dispatched from orders/routes.ts): a busy answer (1021) carries Retry-After. */
export async function createDropOrderFor(ctx: AppContext, userId: number, body: { projectId: number; count?: number }, reply: FastifyReply) {
  try {
    return await createDropOrder(ctx, userId, body);
  } catch (err) {
    if (err instanceof DropBusy) reply.header('retry-after', String(Math.max(1, Math.ceil(err.retryAfterMs / 1000))));
    throw err;
  }
}

/** GET /official/stint/nowStint/ (code 200 like every `official` path), and the dev-mode test release. */
export function dropRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['drops'];
  r.get(DropPaths.nowStint, { schema: { tags, querystring: D.nowStintQuery, response: { 200: D.nowStintResponse } } }, async (req) => {
    return okOfficial(req, await nowStint(ctx, await requireUserId(ctx, req), req.query.projectId));
  });
  // Sale phases, whitelist, free claim, lottery (phase-routes.ts).
  phaseRoutes(app, ctx);
  if (ctx.config.devMode) {
    // hide: development helpers never appear in the API docs (/mvapi/docs).
    r.post(DevPaths.createDropRelease, { schema: { hide: true, tags: ['dev'], body: D.devDropReleaseBody, response: { 200: D.devDropReleaseResponse } } }, async (req) => {
      return ok(req, await createDropRelease(ctx, await requireUserId(ctx, req), req.body));
    });
  }
}
