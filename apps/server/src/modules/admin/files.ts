import type { FastifyReply } from 'fastify';
import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { isStorageKey } from '../../providers/storage/types.ts';

/**
 * Private uploads for staff (docs/admin.md "Files"): an application's qualification documents and
 * a ticket's screenshots. A key is served only when it is attached to the application / ticket
 * named in the request (so a staff member cannot read arbitrary private files by key); the route
 * audits every download. Served as an attachment, never cached, with the same locked-down headers
 * as the owner's download.
 */
export async function attachedUpload(q: Q, kind: 'application' | 'ticket', id: number, key: string): Promise<{ name: string } | undefined> {
  if (!isStorageKey(key)) return undefined;
  if (kind === 'application') {
    return q
      .selectFrom('settled_application_files as f')
      .innerJoin('uploads as u', 'u.id', 'f.upload_id')
      .select(['u.original_name as name'])
      .where('f.application_id', '=', id)
      .where('u.key', '=', key)
      .executeTakeFirst();
  }
  return q
    .selectFrom('ticket_attachments as a')
    .innerJoin('ticket_messages as m', 'm.id', 'a.message_id')
    .innerJoin('uploads as u', 'u.id', 'a.upload_id')
    .select(['u.original_name as name'])
    .where('m.ticket_id', '=', id)
    .where('u.key', '=', key)
    .executeTakeFirst();
}

export async function sendUpload(ctx: AppContext, reply: FastifyReply, key: string, name: string): Promise<FastifyReply> {
  const obj = await ctx.storage.get(key);
  if (!obj) throw new ApiError(Status.NOT_FOUND_ITEM, 'notFound', {}, 404);
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  reply
    .type(obj.contentType)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox")
    .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`)
    .header('cache-control', 'private, no-store');
  if (obj.size > 0) reply.header('content-length', String(obj.size));
  return reply.send(obj.body);
}
