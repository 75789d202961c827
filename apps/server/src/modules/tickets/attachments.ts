import { Status } from '@cfx/contract/envelope.ts';
import { IMAGE_TYPES } from '@cfx/contract/settled-rules.ts';
import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import type { UploadPolicy } from '../uploads/index.ts';

/**
 * Screenshots attached to a ticket: images judged by their bytes like every upload, but private
 * (they often show order numbers, phone numbers or balances) — served only to their owner through
 * GET /official/settled/oss/file (and read by staff code through the storage provider).
 */
export const TICKET_IMAGE_POLICY: UploadPolicy = {
  kind: 'image',
  visibility: 'private',
  folder: 'ticket',
  accept: IMAGE_TYPES,
  maxBytes: (c) => c.imageMaxBytes,
  badType: 'uploadBadImageType',
};

/**
 * Attaches the uploads named by `keys` to message `messageId`, in order. Every key must be one of
 * `userId`'s own image uploads (anyone else's, or an unknown key: 1012 uploadNotYours) not attached
 * anywhere yet (1001 ticketBadAttachments); ticket_attachments.upload_id is unique, so two parallel
 * messages cannot both take one upload.
 */
export async function attachUploads(ctx: AppContext, trx: Q, userId: number, messageId: number, keys: string[]): Promise<void> {
  if (!keys.length) return;
  const uploads = await trx.selectFrom('uploads').select(['id', 'key', 'kind']).where('user_id', '=', userId).where('key', 'in', keys).execute();
  const byKey = new Map(uploads.map((u) => [u.key, u]));
  if (keys.some((k) => !byKey.has(k))) throw new ApiError(Status.FORBIDDEN, 'uploadNotYours');
  if (keys.some((k) => byKey.get(k)!.kind !== 'image')) throw new ApiError(Status.INVALID, 'ticketBadAttachments');
  const ids = keys.map((k) => Number(byKey.get(k)!.id));
  const taken = await trx.selectFrom('ticket_attachments').select('upload_id').where('upload_id', 'in', ids).executeTakeFirst();
  if (taken) throw new ApiError(Status.INVALID, 'ticketBadAttachments');
  await trx
    .insertInto('ticket_attachments')
    .values(ids.map((upload_id, position) => ({ message_id: messageId, upload_id, position })))
    .execute();
}
