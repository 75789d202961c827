import { Status } from '@cfx/contract/envelope.ts';
import { STUDIO_RULES, type DraftState, type ReviewDraft } from '@cfx/contract/studio.ts';
import type { Page } from '@cfx/contract/admin.ts';
import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { createRelease } from '../drops/index.ts';
import { notifyUser } from '../messages/index.ts';
import { draftState, draftView, type DraftRow } from './draft-view.ts';

/**
 * Staff review of submitted drafts (the console's release reviews, docs/admin.md "Release
 * reviews"). Both decisions run in the console route's transaction, with its audit row:
 * - approve: the draft is claimed (submitted → approved, conditional) before the release is
 *   created through the release editor's createRelease (token range, stock and settings rows,
 *   the draft's royalty), and the draft keeps the release's id — so a second approval, even a
 *   concurrent one, finds the draft approved and answers the same release (one release);
 * - reject: submitted → rejected with the reason the creator sees; they may edit and resubmit.
 * The creator gets a `release_review` message (approved / rejected template, both languages).
 */
async function draftRow(q: Q, id: number): Promise<DraftRow> {
  const r = await q.selectFrom('release_drafts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!r) throw new ApiError(Status.NOT_FOUND_ITEM, 'studioDraftNotFound', {}, 404);
  return r;
}

async function creatorUser(q: Q, creatorId: number): Promise<number> {
  const c = await q.selectFrom('creators').select('user_id').where('id', '=', creatorId).executeTakeFirstOrThrow();
  return Number(c.user_id);
}

export async function approveDraft(ctx: AppContext, trx: Q, id: number, staffId: number, now: number): Promise<{ draftId: number; projectId: number; created: boolean; before: DraftState }> {
  const claimed = await trx
    .updateTable('release_drafts')
    .set({ state: 'approved', reviewer_staff_id: staffId, reviewed_at: now, review_reason: null, updated_at: now })
    .where('id', '=', id)
    .where('state', '=', 'submitted')
    .executeTakeFirst();
  const r = await draftRow(trx, id);
  if (Number(claimed.numUpdatedRows) !== 1) {
    if (r.state === 'approved' && r.project_id !== null) return { draftId: id, projectId: Number(r.project_id), created: false, before: 'approved' };
    throw draftState();
  }
  // The draft was checked when submitted; the start may have passed while it waited for review.
  if (r.sale_start_at === null || Number(r.sale_start_at) <= now) throw new ApiError(Status.INVALID, 'studioBadStart');
  const perIdentityLimit = Number(r.per_identity_limit ?? 1);
  const d = ctx.config.drops;
  const out = await createRelease(ctx, trx, {
    name: r.title,
    creatorId: Number(r.creator_id),
    cover: ctx.storage.url(r.cover_key ?? ''),
    category: 'art',
    descriptionHtml: r.story_html,
    supply: Number(r.supply),
    priceFen: Number(r.price_fen),
    saleStartAt: Number(r.sale_start_at),
    saleEndAt: null,
    holdingDays: Number(r.holding_days ?? 0),
    perIdentityLimit,
    maxPerOrder: Math.min(d.maxPerOrder, perIdentityLimit),
    commissionPermille: d.commissionPermille,
    royaltyPermille: Number(r.royalty_permille ?? 0),
  }, now);
  await trx.updateTable('release_drafts').set({ project_id: out.projectId }).where('id', '=', id).execute();
  // The artwork's video / 3D model (migration 0029); the cover stays its poster.
  if (r.media_kind && r.media_key) await trx.updateTable('projects').set({ media_kind: r.media_kind, media_key: r.media_key }).where('id', '=', out.projectId).execute();
  await notifyUser(ctx, trx, await creatorUser(trx, Number(r.creator_id)), 'release_review', { name: r.title, startAt: Number(r.sale_start_at) }, {
    template: 'release_approved', dedupeKey: `release_approved:${id}`, link: `/projects/detail/${out.projectId}`, now,
  });
  return { draftId: id, projectId: out.projectId, created: true, before: 'submitted' };
}

export async function rejectDraft(ctx: AppContext, trx: Q, id: number, reasonRaw: string, staffId: number, now: number): Promise<{ draftId: number; reason: string }> {
  const reason = reasonRaw.trim();
  if (!reason || [...reason].length > STUDIO_RULES.reasonMax) throw new ApiError(Status.INVALID, 'studioNeedReason');
  const r = await draftRow(trx, id);
  const res = await trx
    .updateTable('release_drafts')
    .set({ state: 'rejected', review_reason: reason, reviewer_staff_id: staffId, reviewed_at: now, updated_at: now })
    .where('id', '=', id)
    .where('state', '=', 'submitted')
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw draftState();
  await notifyUser(ctx, trx, await creatorUser(trx, Number(r.creator_id)), 'release_review', { name: r.title || `#${id}`, reason }, {
    template: 'release_rejected', dedupeKey: `release_rejected:${id}:${now}`, link: '/personal-center/make', now,
  });
  return { draftId: id, reason };
}

/** The review queue: drafts of a state (default submitted), oldest submission first, with their creator. */
export async function listForReview(ctx: AppContext, f: { state?: DraftState | null; pageNum: number; pageSize: number }): Promise<Page<ReviewDraft>> {
  const state = f.state ?? 'submitted';
  const q = ctx.db.kysely
    .selectFrom('release_drafts')
    .innerJoin('creators', 'creators.id', 'release_drafts.creator_id')
    .innerJoin('users', 'users.id', 'creators.user_id')
    .where('release_drafts.state', '=', state);
  const total = Number((await q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q
    .selectAll('release_drafts')
    .select(['creators.name as creator_name', 'users.account_id'])
    .orderBy('release_drafts.submitted_at', state === 'submitted' ? 'asc' : 'desc')
    .orderBy('release_drafts.id', 'asc')
    .limit(f.pageSize)
    .offset((f.pageNum - 1) * f.pageSize)
    .execute();
  return {
    list: rows.map((r) => ({ ...draftView(ctx, r), creatorId: Number(r.creator_id), creatorName: r.creator_name, creatorAccountId: r.account_id })),
    total,
    pageNum: f.pageNum,
    pageSize: f.pageSize,
  };
}
