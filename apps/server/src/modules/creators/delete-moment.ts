import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';

/**
 * deleteCreatorFriendsMoments: the creator deletes one of their moments (soft: deleted_at is set,
 * the row and its images stay for the record). Deleting it again answers success. Another
 * creator's moment is 1012 momentNotYours; an unknown id 1404.
 */
export async function deleteMoment(ctx: AppContext, userId: number, id: number): Promise<{ id: number; deleted: true }> {
  const row = await ctx.db.kysely
    .selectFrom('creator_moments')
    .innerJoin('creators', 'creators.id', 'creator_moments.creator_id')
    .select(['creator_moments.id', 'creator_moments.deleted_at', 'creators.user_id'])
    .where('creator_moments.id', '=', id)
    .executeTakeFirst();
  if (!row) throw new ApiError(Status.NOT_FOUND_ITEM, 'momentNotFound', {}, 404);
  if (Number(row.user_id) !== userId) throw new ApiError(Status.FORBIDDEN, 'momentNotYours');
  if (row.deleted_at === null) {
    await ctx.db.kysely.updateTable('creator_moments').set({ deleted_at: ctx.now() }).where('id', '=', id).where('deleted_at', 'is', null).execute();
  }
  return { id, deleted: true };
}
