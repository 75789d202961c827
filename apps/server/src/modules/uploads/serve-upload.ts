import type { FastifyReply } from 'fastify';
import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { isPublicKey, isStorageKey, type ByteRange } from '../../providers/storage/types.ts';
import { hashString } from '../../util/prng.ts';
import { encodePicture, loadSharp, parseRendition, renditionCache, RENDITION_MAX_WAITING, RENDITION_TYPES, withRenderSlot } from '../media/index.ts';

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
 *
 * `?w=<rendition width>&fmt=webp|avif` answers a resized rendition of a JPEG, PNG or WebP upload
 * (`media/renditions.ts`: fixed widths, never enlarged, cached in memory, immutable); any other
 * width or format, or a rendition of a file that is not such a picture, is 400 1001. The same works
 * whatever the storage provider (local or S3), since the original is read through it.
 *
 * Originals answer HTTP Range requests (video seeking; both providers read only the range: the
 * local file from its offset, S3 with a Range GET): `Accept-Ranges: bytes`, one range
 * `bytes=a-b`, `bytes=a-` or `bytes=-n` → 206 with `Content-Range: bytes a-b/size`; a range that
 * starts past the end (or `bytes=-0`) → 416 with `Content-Range: bytes *\/size`. Several ranges, a
 * malformed Range, or an `If-Range` that is not our ETag → the whole file (200). The ETag is
 * derived from the key (keys are never reused, so the bytes behind one never change);
 * `If-None-Match` with it → 304.
 */
export async function servePublicUpload(
  ctx: AppContext,
  key: string,
  reply: FastifyReply,
  q: { w?: string; fmt?: string } = {},
  h: { range?: string; ifRange?: string; ifNoneMatch?: string } = {},
) {
  if (!isPublicKey(key)) return reply.code(404).type('text/plain').send('not found');
  const rendition = q.w !== undefined || q.fmt !== undefined ? parseRendition(q) : undefined;
  if (rendition && !RASTER_EXT.test(key)) throw new ApiError(Status.INVALID, 'badParams', {}, 400);
  const cacheKey = rendition ? `upload|${key}|${rendition.width}|${rendition.format}` : '';
  const cached = rendition ? renditionCache.get(cacheKey) : undefined;
  if (rendition && cached) return sendRendition(reply, cacheKey, rendition.format, cached);
  if (!rendition) return serveOriginal(ctx, key, reply, h);
  const obj = await ctx.storage.get(key);
  if (!obj) return reply.code(404).type('text/plain').send('not found');
  const sharp = await loadSharp();
  // Without sharp on this platform: the original, not pinned in caches under the rendition's URL.
  if (sharp) {
    const input = await readAll(obj.body, MAX_RENDITION_INPUT);
    if (!input) throw new ApiError(Status.INVALID, 'badParams', {}, 400);
    const out = await withRenderSlot(() => encodePicture(sharp, input, rendition.width, rendition.format), RENDITION_MAX_WAITING);
    renditionCache.set(cacheKey, out);
    return sendRendition(reply, cacheKey, rendition.format, out);
  }
  fileHeaders(reply, obj.contentType, obj.size);
  reply.header('cache-control', 'public, max-age=3600');
  return reply.send(obj.body);
}

/** One range `bytes=a-b` | `bytes=a-` | `bytes=-n`; undefined for no, several or malformed ranges (the whole file is served). */
export function parseRange(header: string | undefined): ByteRange | undefined {
  const m = header ? /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') return { suffix: Number(m[2]) };
  const start = Number(m[1]);
  if (m[2] === '') return { start };
  const end = Number(m[2]);
  return end >= start ? { start, end } : undefined;
}

/** The original of a public upload, whole or one byte range, streamed from the provider. */
async function serveOriginal(ctx: AppContext, key: string, reply: FastifyReply, h: { range?: string; ifRange?: string; ifNoneMatch?: string }) {
  const etag = `"o-${hashString(key).toString(36)}"`;
  const common = () =>
    reply.header('accept-ranges', 'bytes').header('etag', etag).header('cache-control', 'public, max-age=31536000, immutable');
  if (h.ifNoneMatch && h.ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
    const exists = await ctx.storage.getRange(key, { start: 0, end: 0 });
    if (!exists) return reply.code(404).type('text/plain').send('not found');
    exists.body?.destroy();
    common();
    return reply.code(304).send();
  }
  const range = h.ifRange === undefined || h.ifRange.trim() === etag ? parseRange(h.range) : undefined;
  if (!range) {
    const obj = await ctx.storage.get(key);
    if (!obj) return reply.code(404).type('text/plain').send('not found');
    fileHeaders(reply, obj.contentType, obj.size);
    common();
    return reply.send(obj.body);
  }
  const part = await ctx.storage.getRange(key, range);
  if (!part) return reply.code(404).type('text/plain').send('not found');
  if (part.lastModified) reply.header('last-modified', new Date(part.lastModified).toUTCString());
  if (!part.body) {
    common();
    return reply.code(416).header('content-range', `bytes */${part.totalSize}`).type('text/plain').send('range not satisfiable');
  }
  if (!part.range) {
    // The store sent the whole object.
    fileHeaders(reply, part.contentType, part.totalSize);
    common();
    return reply.send(part.body);
  }
  fileHeaders(reply, part.contentType, part.range.end - part.range.start + 1);
  common();
  return reply.code(206).header('content-range', `bytes ${part.range.start}-${part.range.end}/${part.totalSize}`).send(part.body);
}

/** Pictures that get renditions (the uploads module names keys by the sniffed type). */
const RASTER_EXT = /\.(jpg|png|webp)$/;
/** Larger originals are not resized on the fly (uploads are capped well below this anyway). */
const MAX_RENDITION_INPUT = 20 * 1024 * 1024;

function sendRendition(reply: FastifyReply, cacheKey: string, format: keyof typeof RENDITION_TYPES, body: Buffer) {
  fileHeaders(reply, RENDITION_TYPES[format], body.length);
  reply.header('cache-control', 'public, max-age=31536000, immutable').header('etag', `"u-${hashString(cacheKey).toString(36)}"`);
  return reply.send(body);
}

/** The whole stream as one buffer, or undefined (and the stream destroyed) past `max` bytes. */
async function readAll(body: NodeJS.ReadableStream & { destroy?: () => void }, max: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of body) {
    const b = Buffer.isBuffer(c) ? c : Buffer.from(c as string);
    n += b.length;
    if (n > max) {
      body.destroy?.();
      return undefined;
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks);
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
