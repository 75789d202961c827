import { CREATOR_LIMITS } from '@cfx/contract/creator-rules.ts';
import type { FollowState } from '@cfx/contract/creators.ts';
import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { inTx, lockKey, type Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { findCreator } from './own-creator.ts';

const MINUTE = 60_000;

/** A creator's follower count (creator_stats; no row = 0). */
export async function followerCount(q: Q, creatorId: number): Promise<number> {
  const row = await q.selectFrom('creator_stats').select('followers').where('creator_id', '=', creatorId).executeTakeFirst();
  return Number(row?.followers ?? 0);
}

/**
 * Follows (`follow: true`) or unfollows a creator; idempotent: following twice leaves one row and
 * counts one follower, unfollowing what is not followed is fine. In one transaction:
 * - the per-user rate limit (CREATOR_LIMITS.followActionsPerMinute calls of either kind per
 *   minute, counted in follow_events; on PostgreSQL the user's calls are serialised by an advisory
 *   lock so two parallel calls cannot both pass the last slot);
 * - the follows row: INSERT … ON CONFLICT DO NOTHING / DELETE — the primary key decides a race
 *   between two follows of the same pair (the second inserts nothing);
 * - the follower counter moves only when a row was inserted (+1) or deleted (−1), so it always
 *   equals the number of follows rows of the creator;
 * - an event row for the rate limit and the audit.
 * A creator cannot follow themself (1001 followSelf); an unknown creator is 1404.
 */
export async function setFollow(ctx: AppContext, userId: number, creatorId: number, follow: boolean): Promise<FollowState> {
  const creator = await findCreator(ctx, { creatorId });
  if (creator.userId === userId) throw new ApiError(Status.INVALID, 'followSelf');
  return inTx(ctx, async (trx) => {
    await lockKey(ctx, trx, `follow:${userId}`);
    const now = ctx.now();
    const recent = await trx
      .selectFrom('follow_events')
      .select((e) => [e.fn.countAll<number>().as('n'), e.fn.min<number>('created_at').as('oldest')])
      .where('user_id', '=', userId)
      .where('created_at', '>', now - MINUTE)
      .executeTakeFirst();
    if (Number(recent?.n ?? 0) >= CREATOR_LIMITS.followActionsPerMinute) {
      const wait = Math.max(1, Math.ceil((Number(recent!.oldest) + MINUTE - now) / 1000));
      throw new ApiError(Status.RATE_LIMITED, 'followTooFast', { s: wait });
    }

    let changed: boolean;
    if (follow) {
      const inserted = await trx
        .insertInto('follows')
        .values({ user_id: userId, creator_id: creatorId, created_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'creator_id']).doNothing())
        .returning('creator_id')
        .executeTakeFirst();
      changed = inserted !== undefined;
      if (changed) {
        await trx
          .insertInto('creator_stats')
          .values({ creator_id: creatorId, followers: 1, updated_at: now })
          .onConflict((oc) => oc.column('creator_id').doUpdateSet((eb) => ({ followers: eb('creator_stats.followers', '+', 1), updated_at: now })))
          .execute();
      }
    } else {
      const deleted = await trx.deleteFrom('follows').where('user_id', '=', userId).where('creator_id', '=', creatorId).returning('creator_id').executeTakeFirst();
      changed = deleted !== undefined;
      if (changed) {
        await trx
          .updateTable('creator_stats')
          .set((eb) => ({ followers: eb('followers', '-', 1), updated_at: now }))
          .where('creator_id', '=', creatorId)
          .execute();
      }
    }
    await trx.insertInto('follow_events').values({ user_id: userId, creator_id: creatorId, follow: follow ? 1 : 0, changed: changed ? 1 : 0, created_at: now }).execute();
    return { creatorId, following: follow, followerCount: await followerCount(trx, creatorId) };
  });
}
