import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { MEDIA_UPLOADS_PREFIX } from '@cfx/contract/routes.ts';
import { amzDateOf, EMPTY_SHA256, sha256Hex, signV4, uriEncode } from './sigv4.ts';
import { contentTypeOfKey, isStorageKey, StorageKeyError, type ByteRange, type RangedObject, type StorageProvider } from './types.ts';

/** STORAGE_PROVIDER=s3: an S3-compatible bucket reached over HTTPS with SigV4-signed requests. */
export interface S3Config {
  /** S3_ENDPOINT, e.g. `https://s3.eu-west-1.amazonaws.com`, `https://oss-cn-hangzhou.aliyuncs.com`, `http://127.0.0.1:9000`. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** S3_PUBLIC_BASE_URL: where browsers read `public/` keys (a CDN or the bucket's public URL); unset → served through us. */
  publicBaseUrl?: string;
  /** S3_PATH_STYLE (default 1): `endpoint/bucket/key`; 0 → virtual-hosted `bucket.endpoint/key` (needed by Aliyun OSS). */
  pathStyle: boolean;
  /** Per-request timeout. */
  timeoutMs: number;
}

export interface S3Request {
  method: 'PUT' | 'GET' | 'HEAD' | 'DELETE';
  url: string;
  headers: Record<string, string>;
}

/** The signed request for one object operation (exported for the request-shape test); `range` is a signed Range header. */
export function buildS3Request(cfg: S3Config, method: S3Request['method'], key: string, now: number, body?: { bytes: Buffer; contentType: string }, range?: string): S3Request {
  if (!isStorageKey(key)) throw new StorageKeyError();
  const endpoint = new URL(cfg.endpoint);
  const host = cfg.pathStyle ? endpoint.host : `${cfg.bucket}.${endpoint.host}`;
  const base = endpoint.pathname.replace(/\/+$/, '');
  const rawPath = cfg.pathStyle ? `${base}/${cfg.bucket}/${key}` : `${base}/${key}`;
  const payloadHash = body ? sha256Hex(body.bytes) : EMPTY_SHA256;
  const headers: Record<string, string> = { 'x-amz-content-sha256': payloadHash };
  if (body) headers['content-type'] = body.contentType;
  if (range) headers.range = range;
  const signed = signV4({
    method,
    host,
    path: rawPath,
    headers,
    payloadHash,
    region: cfg.region,
    service: 's3',
    accessKeyId: cfg.accessKeyId,
    secretAccessKey: cfg.secretAccessKey,
    amzDate: amzDateOf(now),
  });
  return { method, url: `${endpoint.protocol}//${host}${uriEncode(rawPath, false)}`, headers: signed.headers };
}

/** A failure talking to the bucket: carries the HTTP status, never the credentials or the signature. */
export class S3Error extends Error {
  constructor(readonly op: string, readonly httpStatus: number) {
    super(`s3 ${op} failed with HTTP ${httpStatus}`);
  }
}

export function s3Storage(cfg: S3Config, now: () => number = Date.now): StorageProvider {
  const send = async (req: S3Request, body?: Buffer) => {
    const init: RequestInit = { method: req.method, headers: req.headers, signal: AbortSignal.timeout(cfg.timeoutMs) };
    // A copy into a plain ArrayBuffer: what the DOM typings of fetch accept as a body.
    if (body) init.body = new Uint8Array(body).buffer;
    return fetch(req.url, init);
  };
  const publicBase = cfg.publicBaseUrl?.replace(/\/+$/, '');
  return {
    name: 's3',
    async put(key, bytes, contentType) {
      const res = await send(buildS3Request(cfg, 'PUT', key, now(), { bytes, contentType }), bytes);
      await res.body?.cancel();
      if (!res.ok) throw new S3Error('put', res.status);
    },
    async get(key) {
      const res = await send(buildS3Request(cfg, 'GET', key, now()));
      if (res.status === 404 || res.status === 403) {
        // 403: S3 answers it for a missing key when the credentials may not list the bucket.
        await res.body?.cancel();
        return undefined;
      }
      if (!res.ok || !res.body) {
        await res.body?.cancel();
        throw new S3Error('get', res.status);
      }
      return {
        body: Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>),
        size: Number(res.headers.get('content-length') ?? 0),
        // Our own type by the key's extension, not whatever the bucket was told or guessed.
        contentType: contentTypeOfKey(key),
      };
    },
    async getRange(key, range) {
      // The bucket reads the range itself: never the whole object through us.
      const res = await send(buildS3Request(cfg, 'GET', key, now(), undefined, rangeHeader(range)));
      if (res.status === 404 || res.status === 403) {
        await res.body?.cancel();
        return undefined;
      }
      const contentType = contentTypeOfKey(key);
      const lastModified = Date.parse(res.headers.get('last-modified') ?? '') || undefined;
      if (res.status === 416) {
        await res.body?.cancel();
        // `Content-Range: bytes */<size>` when the store says it; else one HEAD for the size.
        let total = Number(/\/(\d+)$/.exec(res.headers.get('content-range') ?? '')?.[1] ?? NaN);
        if (!Number.isFinite(total)) {
          const head = await send(buildS3Request(cfg, 'HEAD', key, now()));
          await head.body?.cancel();
          if (!head.ok) throw new S3Error('head', head.status);
          total = Number(head.headers.get('content-length') ?? 0);
        }
        return { totalSize: total, contentType, lastModified } satisfies RangedObject;
      }
      if (!res.ok || !res.body) {
        await res.body?.cancel();
        throw new S3Error('get', res.status);
      }
      const body = Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>);
      const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.headers.get('content-range') ?? '');
      if (res.status === 206 && m) return { totalSize: Number(m[3]), contentType, lastModified, range: { start: Number(m[1]), end: Number(m[2]) }, body };
      // A store that ignored the Range answered 200 with the whole object.
      return { totalSize: Number(res.headers.get('content-length') ?? 0), contentType, lastModified, body };
    },
    async delete(key) {
      const res = await send(buildS3Request(cfg, 'DELETE', key, now()));
      await res.body?.cancel();
      if (!res.ok && res.status !== 404) throw new S3Error('delete', res.status);
    },
    url(key) {
      return publicBase ? `${publicBase}/${uriEncode(key, false)}` : MEDIA_UPLOADS_PREFIX + key;
    },
  };
}

/** The Range header for one byte range. */
export function rangeHeader(r: ByteRange): string {
  return 'suffix' in r ? `bytes=-${r.suffix}` : `bytes=${r.start}-${r.end ?? ''}`;
}
