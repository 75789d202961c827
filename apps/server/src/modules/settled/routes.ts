import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SettledPaths } from '@cfx/contract/routes.ts';
import { SETTLED_OPEN_STATUSES } from '@cfx/contract/settled-rules.ts';
import * as S from '@cfx/contract/settled.ts';
import type { AppContext } from '../../context.ts';
import { okOfficial } from '../../http/envelope.ts';
import { requireUserId } from '../accounts/index.ts';
import { applicationViews } from './application-view.ts';
import { submitApplication } from './submit-application.ts';

/** My applications shown at most (newest first). */
const MINE_MAX = 50;

/** The project application: submit, and my applications with their status. `official` paths answer code 200. */
export function settledRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['settled'];

  r.post(SettledPaths.submit, { schema: { tags, body: S.settledSubmitBody, response: { 200: S.settledSubmitResponse } } }, async (req) => {
    const userId = await requireUserId(ctx, req);
    return okOfficial(req, await submitApplication(ctx, userId, req.body), 'settledSubmitted');
  });

  r.get(SettledPaths.mine, { schema: { tags, response: { 200: S.settledMineResponse } } }, async (req, reply) => {
    const userId = await requireUserId(ctx, req);
    const ids = await ctx.db.kysely
      .selectFrom('settled_applications')
      .select('id')
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(MINE_MAX)
      .execute();
    const list = await applicationViews(ctx, ids.map((x) => Number(x.id)));
    reply.header('cache-control', 'private, no-store');
    return okOfficial(req, {
      list,
      hasOpen: list.some((a) => SETTLED_OPEN_STATUSES.includes(a.status)),
      limits: { imageMaxBytes: ctx.config.uploads.imageMaxBytes, fileMaxBytes: ctx.config.uploads.fileMaxBytes },
    });
  });
}
