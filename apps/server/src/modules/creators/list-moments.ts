import type { Moment } from '@cfx/contract/creators.ts';
import type { Page } from '@cfx/contract/paging.ts';
import type { AppContext } from '../../context.ts';
import { findCreator } from './own-creator.ts';
import { toMoments } from './moment-view.ts';

/**
 * listCreatorFriendsMoments: a creator's moments (not deleted), newest first, with their images
 * and pixel sizes. Public; with the creator's own token each moment is `deletable`.
 */
export async function listMoments(
  ctx: AppContext,
  by: { creatorId?: number; accountId?: string | null },
  pageNum: number,
  pageSize: number,
  viewerId: number | undefined,
): Promise<Page<Moment>> {
  const creator = await findCreator(ctx, by);
  const base = ctx.db.kysely.selectFrom('creator_moments').where('creator_id', '=', creator.id).where('deleted_at', 'is', null);
  const [count, rows] = await Promise.all([
    base.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirst(),
    base
      .select(['id', 'creator_id', 'content_html', 'created_at'])
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((pageNum - 1) * pageSize)
      .execute(),
  ]);
  const own = viewerId !== undefined && viewerId === creator.userId;
  return { list: await toMoments(ctx, rows, () => own), total: Number(count?.n ?? 0), pageNum, pageSize };
}
