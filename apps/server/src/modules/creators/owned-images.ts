import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { isPublicKey } from '../../providers/storage/types.ts';

export interface OwnedImage {
  id: number;
  key: string;
}

/**
 * The user's own public image uploads for `keys`, in the same order. A key that is not one of the
 * user's image uploads (another user's, a document, a private file, unknown, malformed) refuses the
 * whole call with 1012 uploadNotYours — the same answer whatever the reason, so keys of other users
 * cannot be probed.
 */
export async function ownedImages(ctx: AppContext, userId: number, keys: readonly string[]): Promise<OwnedImage[]> {
  if (!keys.length) return [];
  if (keys.some((k) => !isPublicKey(k))) throw new ApiError(Status.FORBIDDEN, 'uploadNotYours');
  const rows = await ctx.db.kysely
    .selectFrom('uploads')
    .select(['id', 'key'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'image')
    .where('key', 'in', [...keys])
    .execute();
  const byKey = new Map(rows.map((r) => [r.key, Number(r.id)]));
  return keys.map((key) => {
    const id = byKey.get(key);
    if (id === undefined) throw new ApiError(Status.FORBIDDEN, 'uploadNotYours');
    return { id, key };
  });
}
