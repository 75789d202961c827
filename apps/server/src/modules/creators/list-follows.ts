import type { FeedMoment, FollowedCreator } from '@cfx/contract/creators.ts';
import type { Page } from '@cfx/contract/paging.ts';
import type { AppContext } from '../../context.ts';
import { toMoments } from './moment-view.ts';

/**
 * The creators I follow, the newest follow first: name, avatar, intro, follower count and the time
 * of their newest moment (null without one).
 */
export async function listFollowedCreators(ctx: AppContext, userId: number, pageNum: number, pageSize: number): Promise<Page<FollowedCreator>> {
  const k = ctx.db.kysely;
  const [count, rows] = await Promise.all([
    k.selectFrom('follows').select((e) => e.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirst(),
    k
      .selectFrom('follows')
      .innerJoin('creators', 'creators.id', 'follows.creator_id')
      .innerJoin('users', 'users.id', 'creators.user_id')
      .leftJoin('creator_stats', 'creator_stats.creator_id', 'creators.id')
      .select((e) => [
        'creators.id',
        'creators.name',
        'creators.avatar',
        'creators.intro',
        'users.account_id',
        'creator_stats.followers',
        'follows.created_at as followed_at',
        e
          .selectFrom('creator_moments')
          .select((m) => m.fn.max<number>('creator_moments.created_at').as('t'))
          .whereRef('creator_moments.creator_id', '=', 'creators.id')
          .where('creator_moments.deleted_at', 'is', null)
          .as('last_moment_at'),
      ])
      .where('follows.user_id', '=', userId)
      .orderBy('follows.created_at', 'desc')
      .orderBy('creators.id', 'desc')
      .limit(pageSize)
      .offset((pageNum - 1) * pageSize)
      .execute(),
  ]);
  return {
    list: rows.map((r) => ({
      id: Number(r.id),
      accountId: r.account_id,
      name: r.name,
      avatar: r.avatar,
      intro: r.intro,
      followerCount: Number(r.followers ?? 0),
      lastMomentAt: r.last_moment_at === null || r.last_moment_at === undefined ? null : Number(r.last_moment_at),
      followedAt: Number(r.followed_at),
    })),
    total: Number(count?.n ?? 0),
    pageNum,
    pageSize,
  };
}

/** The follow feed: moments (not deleted) of the creators I follow, newest first, each with its creator. */
export async function listFollowFeed(ctx: AppContext, userId: number, pageNum: number, pageSize: number): Promise<Page<FeedMoment>> {
  const k = ctx.db.kysely;
  const base = k
    .selectFrom('creator_moments')
    .innerJoin('follows', (j) => j.onRef('follows.creator_id', '=', 'creator_moments.creator_id').on('follows.user_id', '=', userId))
    .where('creator_moments.deleted_at', 'is', null);
  const [count, rows] = await Promise.all([
    base.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirst(),
    base
      .innerJoin('creators', 'creators.id', 'creator_moments.creator_id')
      .innerJoin('users', 'users.id', 'creators.user_id')
      .select(['creator_moments.id', 'creator_moments.creator_id', 'creator_moments.content_html', 'creator_moments.created_at', 'creators.name', 'creators.avatar', 'users.account_id'])
      .orderBy('creator_moments.id', 'desc')
      .limit(pageSize)
      .offset((pageNum - 1) * pageSize)
      .execute(),
  ]);
  const moments = await toMoments(ctx, rows, () => false);
  return {
    list: moments.map((m, i) => ({ ...m, creator: { id: m.creatorId, accountId: rows[i]!.account_id, name: rows[i]!.name, avatar: rows[i]!.avatar } })),
    total: Number(count?.n ?? 0),
    pageNum,
    pageSize,
  };
}
