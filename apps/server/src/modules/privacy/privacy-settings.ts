import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { inTx } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import type { ClientMeta } from '../accounts/index.ts';
import { recordSecurityEvent } from '../accounts/index.ts';

export interface PrivacySettings {
  showCollection: boolean;
  personalizedRecommend: boolean;
}

/** Both switches are on until the user changes them (no row = the defaults). */
export const PRIVACY_DEFAULTS: PrivacySettings = { showCollection: true, personalizedRecommend: true };

export async function readPrivacySettings(ctx: AppContext, userId: number): Promise<PrivacySettings> {
  const row = await ctx.db.kysely.selectFrom('privacy_settings').select(['show_collection', 'personalized_recommend']).where('user_id', '=', userId).executeTakeFirst();
  if (!row) return { ...PRIVACY_DEFAULTS };
  return { showCollection: Number(row.show_collection) === 1, personalizedRecommend: Number(row.personalized_recommend) === 1 };
}

/** privacy/other/getsetting */
export async function getPrivacySettings(ctx: AppContext, userId: number): Promise<PrivacySettings> {
  const user = await ctx.db.kysely.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  if (!user) throw new ApiError(Status.SESSION_LOST, 'sessionLost');
  return readPrivacySettings(ctx, userId);
}

/**
 * privacy/other/setsetting: stores either switch (or both); answers the stored state. A change is
 * written to the security log. `showCollection: false` hides the user's collection on public pages
 * (list/userCollection answers `hidden` and no goods); `personalizedRecommend` is stored and exported —
 * the recommendations are the same for everyone today, so nothing else reads it yet.
 */
export async function setPrivacySettings(
  ctx: AppContext,
  userId: number,
  input: { showCollection?: boolean | null; personalizedRecommend?: boolean | null },
  meta: ClientMeta,
): Promise<PrivacySettings> {
  if (typeof input.showCollection !== 'boolean' && typeof input.personalizedRecommend !== 'boolean') throw new ApiError(Status.INVALID, 'badParams');
  const now = ctx.now();
  return inTx(ctx, async (trx) => {
    const row = await trx.selectFrom('privacy_settings').select(['show_collection', 'personalized_recommend']).where('user_id', '=', userId).executeTakeFirst();
    const before: PrivacySettings = row
      ? { showCollection: Number(row.show_collection) === 1, personalizedRecommend: Number(row.personalized_recommend) === 1 }
      : { ...PRIVACY_DEFAULTS };
    const next: PrivacySettings = {
      showCollection: input.showCollection ?? before.showCollection,
      personalizedRecommend: input.personalizedRecommend ?? before.personalizedRecommend,
    };
    const values = { show_collection: next.showCollection ? 1 : 0, personalized_recommend: next.personalizedRecommend ? 1 : 0, updated_at: now };
    await trx
      .insertInto('privacy_settings')
      .values({ user_id: userId, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .execute();
    if (next.showCollection !== before.showCollection || next.personalizedRecommend !== before.personalizedRecommend) {
      await recordSecurityEvent(trx, { userId, kind: 'privacy_changed', meta, detail: { ...next }, at: now });
    }
    return next;
  });
}
