import { Status } from '@cfx/contract/envelope.ts';
import { draftProblem, type ReleaseDraft } from '@cfx/contract/studio.ts';
import type { AppContext } from '../../context.ts';
import { inTx } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { draftState, draftView, ownDraft } from './draft-view.ts';

/**
 * Submits a draft (state draft or rejected) for review: every field is checked (draftProblem — a
 * title, a cover, supply 1–100000, price ￥0.01–1,000,000, a start ≥ 1 h ahead, a per-identity
 * limit ≥ 1, a royalty 0–10 %); the first rule broken is 1001 with its message and the draft is
 * left as it was. A second submit of a submitted draft is 1036.
 */
export async function submitDraft(ctx: AppContext, creatorId: number, id: number): Promise<ReleaseDraft> {
  return inTx(ctx, async (trx) => {
    const r = await ownDraft(trx, creatorId, id);
    if (r.state !== 'draft' && r.state !== 'rejected') throw draftState();
    const now = ctx.now();
    const d = draftView(ctx, r);
    const problem = draftProblem(d, now);
    if (problem) throw new ApiError(Status.INVALID, problem);
    const res = await trx
      .updateTable('release_drafts')
      .set({ state: 'submitted', submitted_at: now, updated_at: now })
      .where('id', '=', id)
      .where('state', '=', r.state)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw draftState();
    return draftView(ctx, await ownDraft(trx, creatorId, id));
  });
}

/** Takes a submitted draft back to draft (1036 when it is not submitted — e.g. already reviewed). */
export async function withdrawDraft(ctx: AppContext, creatorId: number, id: number): Promise<ReleaseDraft> {
  return inTx(ctx, async (trx) => {
    await ownDraft(trx, creatorId, id);
    const now = ctx.now();
    const res = await trx.updateTable('release_drafts').set({ state: 'draft', updated_at: now }).where('id', '=', id).where('state', '=', 'submitted').executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw draftState();
    return draftView(ctx, await ownDraft(trx, creatorId, id));
  });
}
