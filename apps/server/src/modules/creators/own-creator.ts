import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { notFound } from '../catalog/index.ts';

export interface CreatorRef {
  id: number;
  userId: number;
  accountId: string;
}

/** The creator of a signed-in user, or 1012 notCreator (users who are not creators). */
export async function requireOwnCreator(ctx: AppContext, userId: number, q: Q = ctx.db.kysely): Promise<CreatorRef> {
  const row = await q
    .selectFrom('creators')
    .innerJoin('users', 'users.id', 'creators.user_id')
    .select(['creators.id', 'creators.user_id', 'users.account_id'])
    .where('creators.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new ApiError(Status.FORBIDDEN, 'notCreator');
  return { id: Number(row.id), userId: Number(row.user_id), accountId: row.account_id };
}

/** A creator by id or by the account id of their user: 1404 creatorNotFound when unknown, 1001 when neither is given. */
export async function findCreator(ctx: AppContext, by: { creatorId?: number; accountId?: string | null }): Promise<CreatorRef> {
  let q = ctx.db.kysely.selectFrom('creators').innerJoin('users', 'users.id', 'creators.user_id').select(['creators.id', 'creators.user_id', 'users.account_id']);
  if (by.creatorId !== undefined) q = q.where('creators.id', '=', by.creatorId);
  else if (by.accountId?.trim()) q = q.where('users.account_id', '=', by.accountId.trim());
  else throw new ApiError(Status.INVALID, 'badParams', {}, 400);
  const row = await q.executeTakeFirst();
  if (!row) throw notFound('creatorNotFound');
  return { id: Number(row.id), userId: Number(row.user_id), accountId: row.account_id };
}
