import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as S from '@cfx/contract/studio.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId } from '../accounts/index.ts';
import { ok } from '../../http/envelope.ts';
import { requireOwnCreator } from '../creators/index.ts';
import { draftView, ownDraft } from './draft-view.ts';
import { createDraft, updateDraft } from './save-draft.ts';
import { studioStats } from './studio-stats.ts';
import { submitDraft, withdrawDraft } from './submit-draft.ts';

/**
 * The creator studio (docs/api.md "Creator studio"): a signed-in creator's release drafts and the
 * numbers of their releases. Not signed in: 1100; signed in but not a creator: 1012 notCreator;
 * another creator's draft: 1404 (as an unknown one).
 */
export function studioRoutes(api: FastifyInstance, ctx: AppContext) {
  const r = api.withTypeProvider<ZodTypeProvider>();
  const tags = ['studio'];
  const me = async (req: Parameters<typeof requireUserId>[1]) => requireOwnCreator(ctx, await requireUserId(ctx, req));

  r.post(S.StudioPaths.drafts, { schema: { tags, body: S.draftsListBody } }, async (req) => {
    const c = await me(req);
    const { pageNum, pageSize } = req.body;
    const q = ctx.db.kysely.selectFrom('release_drafts').where('creator_id', '=', c.id);
    const total = Number((await q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const rows = await q.selectAll().orderBy('id', 'desc').limit(pageSize).offset((pageNum - 1) * pageSize).execute();
    return ok(req, { list: rows.map((x) => draftView(ctx, x)), total, pageNum, pageSize });
  });
  r.post(S.StudioPaths.draft, { schema: { tags, body: S.draftIdBody } }, async (req) => {
    const c = await me(req);
    return ok(req, draftView(ctx, await ownDraft(ctx.db.kysely, c.id, req.body.id)));
  });
  r.post(S.StudioPaths.create, { schema: { tags, body: S.draftCreateBody } }, async (req) => {
    return ok(req, await createDraft(ctx, await me(req), req.body), 'studioDraftSaved');
  });
  r.post(S.StudioPaths.update, { schema: { tags, body: S.draftUpdateBody } }, async (req) => {
    const { id, ...f } = req.body;
    return ok(req, await updateDraft(ctx, await me(req), id, f), 'studioDraftSaved');
  });
  r.post(S.StudioPaths.submit, { schema: { tags, body: S.draftIdBody } }, async (req) => {
    return ok(req, await submitDraft(ctx, (await me(req)).id, req.body.id), 'studioSubmitted');
  });
  r.post(S.StudioPaths.withdraw, { schema: { tags, body: S.draftIdBody } }, async (req) => {
    return ok(req, await withdrawDraft(ctx, (await me(req)).id, req.body.id), 'studioWithdrawn');
  });
  r.post(S.StudioPaths.stats, { schema: { tags } }, async (req) => {
    const c = await me(req);
    return ok(req, await studioStats(ctx, c));
  });
}
