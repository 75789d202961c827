import type { FastifyReply } from 'fastify';
import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { isPublicKey, isStorageKey } from '../../providers/storage/types.ts';

/**
 * Headers every served upload carries: the type we sniffed (by the key's extension), nosniff, and a
 * CSP that lets nothing in the file run or load anything even when opened as a document.
 */
function fileHeaders(reply: FastifyReply, contentType: string, size: number) {
  reply
    .type(contentType)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox");
  if (size > 0) reply.header('content-length', String(size));
}

/**
 * GET /media/uploads/<key> — a public upload (images). Only `public/` keys that match the key
 * pattern are looked up (no traversal, no directory listing: anything else is a plain 404). Keys
 * are random and never reused, so the file is cached for a year as immutable.
 */
export async function servePublicUpload(ctx: AppContext, key: string, reply: FastifyReply) {
  if (!isPublicKey(key)) return reply.code(404).type('text/plain').send('not found');
  const obj = await ctx.storage.get(key);
  if (!obj) return reply.code(404).type('text/plain').send('not found');
  fileHeaders(reply, obj.contentType, obj.size);
  reply.header('cache-control', 'public, max-age=31536000, immutable');
  return reply.send(obj.body);
}

/**
 * A private upload (documents) for its owner: the envelope 1404 for a key that is not one of the
 * user's uploads (the same answer whether it exists or not), else the file as an attachment under
 * its sanitised original name, never cached by shared caches.
 */
export async function servePrivateUpload(ctx: AppContext, userId: number, key: string, reply: FastifyReply) {
  const row = isStorageKey(key)
    ? await ctx.db.kysely.selectFrom('uploads').select(['user_id', 'original_name']).where('key', '=', key).executeTakeFirst()
    : undefined;
  if (!row || Number(row.user_id) !== userId) throw new ApiError(Status.NOT_FOUND_ITEM, 'notFound', {}, 404);
  const obj = await ctx.storage.get(key);
  if (!obj) throw new ApiError(Status.NOT_FOUND_ITEM, 'notFound', {}, 404);
  fileHeaders(reply, obj.contentType, obj.size);
  const ascii = row.original_name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  reply.header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(row.original_name)}`);
  reply.header('cache-control', 'private, no-store');
  return reply.send(obj.body);
}
