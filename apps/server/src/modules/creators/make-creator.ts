import { CREATOR_LIMITS } from '@cfx/contract/creator-rules.ts';
import type { AppContext } from '../../context.ts';
import { inTx } from '../../db/tx.ts';
import { hashString } from '../../util/prng.ts';
import { ART_STYLES, imageId, imageUrl } from '../content/index.ts';

/**
 * Makes a user a creator (users.is_creator = 1 and a creators row with generated artwork as avatar
 * and banner, their nickname as name); a creator already is one (same answer). Used by the
 * DEV_MODE-only /dev/make-creator (browser tests) — creators are otherwise onboarded by staff.
 */
export async function makeCreator(ctx: AppContext, userId: number, name?: string): Promise<{ creatorId: number; accountId: string }> {
  return inTx(ctx, async (trx) => {
    const user = await trx.selectFrom('users').select(['account_id', 'nickname']).where('id', '=', userId).executeTakeFirstOrThrow();
    const existing = await trx.selectFrom('creators').select('id').where('user_id', '=', userId).executeTakeFirst();
    if (existing) return { creatorId: Number(existing.id), accountId: user.account_id };
    const seed = hashString(`creator-user:${user.account_id}`);
    const style = seed % ART_STYLES;
    const row = await trx
      .insertInto('creators')
      .values({
        user_id: userId,
        name: [...(name?.trim() || user.nickname)].slice(0, CREATOR_LIMITS.nameMax).join(''),
        avatar: imageUrl(imageId('c', style, seed)),
        banner: imageUrl(imageId('cb', style, seed)),
        intro: '',
        media_links: '[]',
        sort: 0,
        created_at: ctx.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.updateTable('users').set({ is_creator: 1 }).where('id', '=', userId).execute();
    return { creatorId: Number(row.id), accountId: user.account_id };
  });
}
