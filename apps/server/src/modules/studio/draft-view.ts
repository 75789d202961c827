import { Status } from '@cfx/contract/envelope.ts';
import type { ReleaseDraft } from '@cfx/contract/studio.ts';
import type { AppContext } from '../../context.ts';
import type { Selectable } from 'kysely';
import type { ReleaseDraftsTable } from '../../db/schema.ts';
import type { Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';

export type DraftRow = Selectable<ReleaseDraftsTable>;

const num = (v: number | string | null) => (v === null ? null : Number(v));

/** A draft row as the API answers it (the cover's public URL added). */
export function draftView(ctx: AppContext, r: DraftRow): ReleaseDraft {
  return {
    id: Number(r.id),
    state: r.state,
    title: r.title,
    storyHtml: r.story_html,
    coverKey: r.cover_key,
    cover: r.cover_key ? ctx.storage.url(r.cover_key) : null,
    mediaKind: r.media_kind,
    mediaKey: r.media_key,
    supply: num(r.supply),
    priceFen: num(r.price_fen),
    saleStartAt: num(r.sale_start_at),
    perIdentityLimit: num(r.per_identity_limit),
    holdingDays: num(r.holding_days),
    royaltyPermille: num(r.royalty_permille),
    reviewReason: r.review_reason,
    projectId: num(r.project_id),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    submittedAt: num(r.submitted_at),
    reviewedAt: num(r.reviewed_at),
  };
}

/** A draft of this creator (1404 studioDraftNotFound for an unknown id or another creator's draft: the same answer). */
export async function ownDraft(q: Q, creatorId: number, id: number): Promise<DraftRow> {
  const r = await q.selectFrom('release_drafts').selectAll().where('id', '=', id).where('creator_id', '=', creatorId).executeTakeFirst();
  if (!r) throw new ApiError(Status.NOT_FOUND_ITEM, 'studioDraftNotFound', {}, 404);
  return r;
}

/** Not possible in the draft's state: 1036. */
export const draftState = () => new ApiError(Status.DRAFT_STATE, 'studioDraftState');
