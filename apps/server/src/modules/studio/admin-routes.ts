import type { FastifyInstance } from 'fastify';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import * as S from '@cfx/contract/studio.ts';
import type { AppContext } from '../../context.ts';
import { adminRoute } from '../admin/index.ts';
import { releaseChanged } from '../drops/index.ts';
import { syncReleaseRoyalty } from '../drops/index.ts';
import { approveDraft, listForReview, rejectDraft } from './review-draft.ts';

/**
 * The console's release reviews (docs/admin.md "Release reviews"), permission catalog.edit: the
 * queue of submitted drafts, approve (the release is created in the action's transaction, with
 * its audit row) and reject with a reason.
 */
export function studioAdminRoutes(scope: FastifyInstance, ctx: AppContext) {
  adminRoute(scope, ctx, { path: AdminPaths.releaseReviewsList, access: 'catalog.edit', audit: false, body: S.reviewListBody, handler: (c) => listForReview(ctx, c.body) });
  adminRoute(scope, ctx, {
    path: AdminPaths.releaseReviewApprove, access: 'catalog.edit', audit: true, body: S.draftIdBody, okKey: 'studioApproved',
    handler: async (c) => {
      const r = await c.tx(
        (trx, now) => approveDraft(ctx, trx, c.body.id, c.staff.id, now),
        (x) => ({ action: 'release_draft.approve', targetType: 'release_draft', targetId: x.draftId, summary: { before: { state: x.before }, after: { state: 'approved', projectId: x.projectId }, created: x.created } }),
      );
      if (r.created) {
        releaseChanged(ctx, r.projectId, { renamed: true });
        try {
          await syncReleaseRoyalty(ctx, r.projectId);
        } catch (err) {
          c.req.log.warn({ err, projectId: r.projectId }, 'release royalty not sent to the chain');
        }
      }
      return { draftId: r.draftId, projectId: r.projectId, created: r.created };
    },
  });
  adminRoute(scope, ctx, {
    path: AdminPaths.releaseReviewReject, access: 'catalog.edit', audit: true, body: S.reviewRejectBody, okKey: 'studioRejected',
    handler: (c) =>
      c.tx(
        (trx, now) => rejectDraft(ctx, trx, c.body.id, c.body.reason, c.staff.id, now),
        (x) => ({ action: 'release_draft.reject', targetType: 'release_draft', targetId: x.draftId, summary: { before: { state: 'submitted' }, after: { state: 'rejected', reason: x.reason } } }),
      ),
  });
}
