import { Status } from '@cfx/contract/envelope.ts';
import { STUDIO_RULES as R, type DraftInput, type ReleaseDraft } from '@cfx/contract/studio.ts';
import type { MessageKey } from '@cfx/contract/messages.ts';
import type { AppContext } from '../../context.ts';
import type { ReleaseDraftsTable } from '../../db/schema.ts';
import { inTx } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { sanitizeRichText } from '../../util/rich-text.ts';
import { ownedImages } from '../creators/index.ts';
import { draftState, draftView, ownDraft } from './draft-view.ts';

const invalid = (key: MessageKey) => new ApiError(Status.INVALID, key);
type Cols = Partial<Omit<ReleaseDraftsTable, 'id' | 'creator_id' | 'state' | 'created_at'>>;

/**
 * The columns of the fields given (undefined = unchanged, null = cleared). Each given value is
 * checked against its range here, before anything is written, so a bad value is 1001 with no row
 * written or changed; completeness (every field filled, the start ≥ 1 h ahead) is submit's.
 */
async function columnsOf(ctx: AppContext, userId: number, f: DraftInput): Promise<Cols> {
  const c: Cols = {};
  const inRange = (v: number | null | undefined, min: number, max: number, key: MessageKey) => {
    if (v === undefined || v === null) return v;
    if (!Number.isSafeInteger(v) || v < min || v > max) throw invalid(key);
    return v;
  };
  if (f.title !== undefined) {
    const t = (f.title ?? '').trim();
    if ([...t].length > R.titleMax || /[\r\n]/.test(t)) throw invalid('studioBadTitle');
    c.title = t;
  }
  if (f.storyHtml !== undefined) {
    const html = sanitizeRichText(f.storyHtml ?? '');
    if (html.length > R.storyMax) throw invalid('studioBadStory');
    c.story_html = html;
  }
  if (f.coverKey !== undefined) {
    // The cover is one of the creator's own image uploads (the studio's and profile's upload).
    if (f.coverKey) await ownedImages(ctx, userId, [f.coverKey]);
    c.cover_key = f.coverKey || null;
  }
  if (f.mediaKind !== undefined || f.mediaKey !== undefined) {
    const kind = f.mediaKind ?? null;
    const key = f.mediaKey || null;
    if ((kind === null) !== (key === null)) throw invalid('studioBadMedia');
    if (key) {
      // One of the creator's own public uploads: an image for 'image', a media file (video / 3D model) otherwise.
      const up = await ctx.db.kysely.selectFrom('uploads').select(['id', 'kind']).where('user_id', '=', userId).where('key', '=', key).executeTakeFirst();
      if (!up || !key.startsWith('public/') || String(up.kind) !== (kind === 'image' ? 'image' : 'media')) throw invalid('studioBadMedia');
    }
    c.media_kind = kind;
    c.media_key = key;
  }
  if (f.supply !== undefined) c.supply = inRange(f.supply, R.supplyMin, R.supplyMax, 'studioBadSupply');
  if (f.priceFen !== undefined) c.price_fen = inRange(f.priceFen, R.priceMinFen, R.priceMaxFen, 'studioBadPrice');
  if (f.saleStartAt !== undefined) c.sale_start_at = f.saleStartAt ?? null;
  if (f.perIdentityLimit !== undefined) c.per_identity_limit = inRange(f.perIdentityLimit, 1, R.perIdentityMax, 'studioBadLimit');
  if (f.holdingDays !== undefined) c.holding_days = inRange(f.holdingDays, 0, R.holdingDaysMax, 'studioBadHolding');
  if (f.royaltyPermille !== undefined) c.royalty_permille = inRange(f.royaltyPermille, 0, R.royaltyMaxPermille, 'studioBadRoyalty');
  return c;
}

/** A new draft of the creator (state draft). */
export async function createDraft(ctx: AppContext, creator: { id: number; userId: number }, f: DraftInput): Promise<ReleaseDraft> {
  const c = await columnsOf(ctx, creator.userId, f);
  const now = ctx.now();
  const row = await ctx.db.kysely
    .insertInto('release_drafts')
    .values({
      creator_id: creator.id, state: 'draft', title: c.title ?? '', story_html: c.story_html ?? '', cover_key: c.cover_key ?? null,
      media_kind: c.media_kind ?? null, media_key: c.media_key ?? null, supply: c.supply ?? null, price_fen: c.price_fen ?? null,
      sale_start_at: c.sale_start_at ?? null, per_identity_limit: c.per_identity_limit ?? null, holding_days: c.holding_days ?? null,
      royalty_permille: c.royalty_permille ?? null, review_reason: null, reviewer_staff_id: null, project_id: null,
      created_at: now, updated_at: now, submitted_at: null, reviewed_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return draftView(ctx, row);
}

/** Edits a draft in state draft or rejected (1036 otherwise); a rejected draft stays rejected, with its reason, until submitted again. */
export async function updateDraft(ctx: AppContext, creator: { id: number; userId: number }, id: number, f: DraftInput): Promise<ReleaseDraft> {
  const c = await columnsOf(ctx, creator.userId, f);
  return inTx(ctx, async (trx) => {
    await ownDraft(trx, creator.id, id);
    const res = await trx
      .updateTable('release_drafts')
      .set({ ...c, updated_at: ctx.now() })
      .where('id', '=', id)
      .where('state', 'in', ['draft', 'rejected'])
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw draftState();
    return draftView(ctx, await ownDraft(trx, creator.id, id));
  });
}
