import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { API_BASE, Status } from '@cfx/contract/envelope.ts';
import { SettledPaths } from '@cfx/contract/routes.ts';
import type { UploadResult } from '@cfx/contract/settled.ts';
import type { AppContext } from '../../context.ts';
import { inTx, lockKey, type Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { extensionOf } from '../../providers/storage/types.ts';
import { IMAGE_BOUNDS, type UploadPolicy } from './policies.ts';
import { sniff } from './sniff.ts';
import { formatChinaDate } from '@cfx/protocol/china-time.ts';

/** A file arriving in a request: its client-side name and a stream of its bytes (busboy marks `truncated` at its size limit). */
export interface IncomingFile {
  filename: string;
  file: Readable & { truncated?: boolean };
}

export interface SavedUpload extends UploadResult {
  id: number;
}

const MB = 1024 * 1024;
const DAY = 24 * 3600_000;
/** Bytes of multipart framing and headers allowed on top of the file itself. */
const MULTIPART_OVERHEAD = 64 * 1024;

const refused = (key: ConstructorParameters<typeof ApiError>[1], vars: Record<string, string | number> = {}) => new ApiError(Status.UPLOAD_REFUSED, key, vars);

/**
 * The one file part of a multipart upload request, read with the policy's size limit (busboy stops
 * storing at it and marks the stream truncated). Not multipart, no file part, or a declared body far
 * larger than the policy allows: the envelope (1030) with a clear message, before reading the body.
 */
export async function filePart(ctx: AppContext, req: FastifyRequest, policy: UploadPolicy): Promise<IncomingFile | undefined> {
  if (!req.isMultipart()) throw refused('uploadNotMultipart');
  const max = policy.maxBytes(ctx.config.uploads);
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > max + MULTIPART_OVERHEAD) throw refused('uploadTooLarge', { mb: toMb(max) });
  try {
    return await req.file({ limits: { fileSize: max, files: 1, fields: 10, fieldSize: 4096, parts: 12, headerPairs: 100 }, throwFileSizeLimit: false });
  } catch {
    // Malformed multipart, a prototype-polluting field name, too many parts: a bad request, never a 500.
    throw new ApiError(Status.INVALID, 'badParams', {}, 400);
  }
}

/**
 * Checks and stores one uploaded file for `userId` under `policy`, and records it in `uploads`:
 * - the user's 24-hour quota (files and bytes): looked at before anything is read, and reserved
 *   atomically with the upload's row once the size is known, before the file is stored;
 * - the size: empty or over the policy's limit is refused;
 * - the type by magic bytes (sniff.ts), never by the file name or the client's content type;
 * - images: a readable pixel size within IMAGE_BOUNDS;
 * - a random unguessable key `<public|private>/<folder>/<yyyymm>/<32 hex>.<ext of the sniffed type>`;
 *   the client's file name is sanitised and kept as metadata only.
 * Every refusal is an ApiError (status 1030 / 1006) with a clear zh/en message; a storage failure is
 * 503 `uploadFailed`. Reusable by any feature that takes files (moments, KYC scans, news images).
 */
export async function saveUpload(
  ctx: AppContext,
  userId: number,
  part: IncomingFile | undefined,
  policy: UploadPolicy,
  log?: Pick<FastifyBaseLogger, 'error'>,
): Promise<SavedUpload> {
  if (!part) throw refused('uploadNoFile');
  const cfg = ctx.config.uploads;
  const max = policy.maxBytes(cfg);
  try {
    await checkQuota(ctx, userId);
  } catch (err) {
    part.file.resume();
    throw err;
  }

  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of part.file) {
      size += (chunk as Buffer).length;
      if (size <= max) chunks.push(chunk as Buffer);
    }
  } catch {
    // The body ended inside the file part (malformed multipart, a client that went away).
    throw new ApiError(Status.INVALID, 'badParams', {}, 400);
  }
  if (part.file.truncated || size > max) throw refused('uploadTooLarge', { mb: toMb(max) });
  if (size === 0) throw refused('uploadEmpty');
  const bytes = Buffer.concat(chunks, size);

  const sniffed = sniff(bytes);
  if (!sniffed || !policy.accept.includes(sniffed.type)) throw refused(policy.badType);
  if (sniffed.type.startsWith('image/')) {
    const { width = 0, height = 0 } = sniffed;
    const ok = width >= IMAGE_BOUNDS.minSide && height >= IMAGE_BOUNDS.minSide && width <= IMAGE_BOUNDS.maxSide && height <= IMAGE_BOUNDS.maxSide && width * height <= IMAGE_BOUNDS.maxPixels;
    if (!ok) throw refused('uploadBadImage', { min: IMAGE_BOUNDS.minSide, max: IMAGE_BOUNDS.maxSide });
  }

  const now = ctx.now();
  const month = formatChinaDate(now).slice(0, 7).replace('-', '');
  const key = `${policy.visibility}/${policy.folder}/${month}/${crypto.randomBytes(16).toString('hex')}.${extensionOf(sniffed.type)}`;
  const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
  const name = sanitiseFileName(part.filename);
  // The quota is reserved before the file is stored: the upload's row is written in the transaction
  // that counts the user's last 24 hours (files and bytes, with this file), so parallel uploads
  // cannot together pass the cap. A store that fails deletes the row: the reservation is given back.
  const id = await inTx(ctx, async (trx) => {
    await lockKey(ctx, trx, `uploads:${userId}`);
    const used = await usedToday(trx, userId, now);
    if (used.files >= cfg.perUserDay) throw new ApiError(Status.RATE_LIMITED, 'uploadDailyCap', { n: cfg.perUserDay });
    if (used.bytes + size > cfg.bytesPerUserDay) throw new ApiError(Status.RATE_LIMITED, 'uploadDailyBytes', { mb: toMb(cfg.bytesPerUserDay) });
    const row = await trx
      .insertInto('uploads')
      .values({ user_id: userId, key, kind: policy.kind, content_type: sniffed.type, size, sha256, original_name: name, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  });
  try {
    await ctx.storage.put(key, bytes, sniffed.type);
  } catch (err) {
    await ctx.db.kysely.deleteFrom('uploads').where('id', '=', id).execute();
    await ctx.storage.delete(key).catch(() => undefined);
    // The provider's error carries no secret (S3Error: operation and HTTP status only).
    log?.error({ err: (err as Error).message, provider: ctx.storage.name }, 'upload storage put failed');
    throw new ApiError(Status.SERVER_ERROR, 'uploadFailed', {}, 503);
  }
  return { id, key, url: uploadUrl(ctx, key), name, size, type: sniffed.type };
}

/** Where the owner reads an upload: the public URL of public keys, the owner-only download path of private ones. */
export function uploadUrl(ctx: Pick<AppContext, 'storage'>, key: string): string {
  return key.startsWith('public/') ? ctx.storage.url(key) : `${API_BASE}${SettledPaths.file}?key=${encodeURIComponent(key)}`;
}

async function usedToday(q: Q, userId: number, now: number): Promise<{ files: number; bytes: number }> {
  const r = await q
    .selectFrom('uploads')
    .select((eb) => [eb.fn.countAll<number>().as('files'), eb.fn.sum<number>('size').as('bytes')])
    .where('user_id', '=', userId)
    .where('created_at', '>', now - DAY)
    .executeTakeFirst();
  return { files: Number(r?.files ?? 0), bytes: Number(r?.bytes ?? 0) };
}

/** A first look before the body is read (no reservation: saveUpload reserves once the size is known). */
async function checkQuota(ctx: AppContext, userId: number) {
  const cfg = ctx.config.uploads;
  const used = await usedToday(ctx.db.kysely, userId, ctx.now());
  if (used.files >= cfg.perUserDay) throw new ApiError(Status.RATE_LIMITED, 'uploadDailyCap', { n: cfg.perUserDay });
  if (used.bytes >= cfg.bytesPerUserDay) throw new ApiError(Status.RATE_LIMITED, 'uploadDailyBytes', { mb: toMb(cfg.bytesPerUserDay) });
}

const toMb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;

/**
 * The client's file name as harmless metadata: the last path segment only, Unicode NFC, no control
 * characters or characters file systems and headers reject, whitespace collapsed, at most 100
 * characters (the extension kept), `file` when nothing is left.
 */
export function sanitiseFileName(raw: string | undefined): string {
  let s = (raw ?? '').normalize('NFC');
  s = s.split(/[/\\]/).pop() ?? '';
  s = s.replace(/[\u0000-\u001f\u007f-\u009f<>:"|?*\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '').replace(/\s+/g, ' ').trim();
  s = s.replace(/^\.+/, '');
  const chars = [...s];
  if (chars.length > 100) {
    const dot = s.lastIndexOf('.');
    const ext = dot > 0 && s.length - dot <= 10 ? s.slice(dot) : '';
    s = chars.slice(0, 100 - [...ext].length).join('') + ext;
  }
  return s || 'file';
}
