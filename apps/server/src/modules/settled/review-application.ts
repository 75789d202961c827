import { Status } from '@cfx/contract/envelope.ts';
import { charLength, SETTLED_LIMITS } from '@cfx/contract/settled-rules.ts';
import type { SettledApplication } from '@cfx/contract/settled.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { changed, inTx } from '../../db/tx.ts';
import type { SettledStatus } from '../../db/schema.ts';
import { onboardCreator } from '../creators/index.ts';
import { invalidateProjectInfo } from '../catalog/index.ts';
import { invalidateSearchIndex } from '../search/index.ts';
import { applicationViews } from './application-view.ts';

export type ReviewDecision = Exclude<SettledStatus, 'submitted'>;

/** From which states each decision may be taken. A decided application (approved / rejected) is final. */
const FROM: Record<ReviewDecision, SettledStatus[]> = {
  reviewing: ['submitted'],
  approved: ['submitted', 'reviewing'],
  rejected: ['submitted', 'reviewing'],
};

/**
 * A staff decision on an application (for the admin console): `reviewing` (taken up), `approved`,
 * or `rejected` with a reason of 1-500 characters that the applicant sees. One conditional UPDATE
 * in a transaction with its event row: two staff deciding at once cannot both win, and repeating a
 * decision is refused (1031) rather than applied twice. The caller checks that `staffId` is staff.
 * Approving also makes the applicant a creator in the same transaction (creators/onboard-creator.ts:
 * a creators row bound to their account, built from the application, and a message); an applicant
 * who already is one keeps their creator. Staff then create the release for that creator.
 */
export async function reviewApplication(
  ctx: AppContext,
  staffId: number,
  id: number,
  decision: ReviewDecision,
  reason?: string,
): Promise<SettledApplication> {
  const why = (reason ?? '').trim();
  if (decision === 'rejected' && (!why || charLength(why) > SETTLED_LIMITS.rejectReasonMax)) throw new ApiError(Status.INVALID, 'settledBadReason');
  if (!(decision in FROM)) throw new ApiError(Status.INVALID, 'badParams');
  const now = ctx.now();
  const view = await inTx(ctx, async (trx) => {
    const row = await trx.selectFrom('settled_applications').select(['id', 'status']).where('id', '=', id).executeTakeFirst();
    if (!row) throw new ApiError(Status.NOT_FOUND_ITEM, 'settledNotFound', {}, 404);
    const decided = decision !== 'reviewing';
    const r = await trx
      .updateTable('settled_applications')
      .set({
        status: decision,
        updated_at: now,
        ...(decided ? { reviewed_by: staffId, reviewed_at: now, reject_reason: decision === 'rejected' ? why : null } : {}),
      })
      .where('id', '=', id)
      .where('status', 'in', FROM[decision])
      .executeTakeFirst();
    if (changed(r) !== 1) throw new ApiError(Status.SETTLED_STATE, 'settledNotReviewable');
    await trx
      .insertInto('settled_application_events')
      .values({ application_id: id, from_status: row.status, to_status: decision, actor_user_id: staffId, reason: why || null, created_at: now })
      .execute();
    if (decision === 'approved') await onboardCreator(ctx, trx, id, now);
    return (await applicationViews(ctx, [id], trx))[0]!;
  });
  if (decision === 'approved') {
    // The new creator shows in search and the release map of this process at once.
    invalidateSearchIndex(ctx);
    invalidateProjectInfo(ctx);
  }
  return view;
}
