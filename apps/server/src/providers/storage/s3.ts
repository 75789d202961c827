import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AwsClient } from 'aws4fetch';
import { MEDIA_UPLOADS_PREFIX } from '@cfx/contract/routes.ts';
import { contentTypeOfKey, isStorageKey, StorageKeyError, type ByteRange, type RangedObject, type StorageProvider } from './types.ts';

/**
 * STORAGE_PROVIDER=s3: an S3-compatible bucket reached over HTTP(S), each request signed with AWS
 * Signature V4 by `aws4fetch` (its signer is checked against AWS's published test suite; ours is
 * run against a real S3-protocol server, s3rver, in test/storage-s3.test.ts).
 */
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

export type S3Method = 'PUT' | 'GET' | 'HEAD' | 'DELETE';

/** The URL of one object: path-style `endpoint/bucket/key` or virtual-hosted `bucket.endpoint/key`. */
export function objectUrl(cfg: S3Config, key: string): string {
  if (!isStorageKey(key)) throw new StorageKeyError();
  const endpoint = new URL(cfg.endpoint);
  const host = cfg.pathStyle ? endpoint.host : `${cfg.bucket}.${endpoint.host}`;
  const base = endpoint.pathname.replace(/\/+$/, '');
  // Storage keys are [a-z0-9_-./] only: nothing in them needs encoding.
  return `${endpoint.protocol}//${host}${cfg.pathStyle ? `${base}/${cfg.bucket}/${key}` : `${base}/${key}`}`;
}

const sha256Hex = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

/**
 * The signed request for one object operation (exported for the request-shape test). The body's
 * SHA-256 is sent and signed (x-amz-content-sha256), so the bucket refuses bytes altered on the
 * way; the content type and `range` (a Range header) are signed as well. `now` fixes the signing
 * time (tests).
 */
export function buildS3Request(
  client: AwsClient,
  cfg: S3Config,
  method: S3Method,
  key: string,
  opts: { body?: { bytes: Buffer; contentType: string }; range?: string; now?: number; signal?: AbortSignal } = {},
): Promise<Request> {
  const url = objectUrl(cfg, key);
  const headers: Record<string, string> = { 'x-amz-content-sha256': opts.body ? sha256Hex(opts.body.bytes) : sha256Hex(Buffer.alloc(0)) };
  if (opts.body) headers['content-type'] = opts.body.contentType;
  if (opts.range) headers.range = opts.range;
  const datetime = opts.now === undefined ? undefined : new Date(opts.now).toISOString().replace(/[:-]|\.\d{3}/g, '');
  return client.sign(url, {
    method,
    headers,
    // A copy into a plain Uint8Array: what fetch's typings accept as a body.
    ...(opts.body ? { body: new Uint8Array(opts.body.bytes) } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
    // allHeaders: content-type and Range are signed too (aws4fetch leaves them out by default).
    aws: { allHeaders: true, ...(datetime ? { datetime } : {}) },
  });
}

/** The signing client of a configuration: SigV4 for service `s3` in the configured region, no retries (one request, one timeout). */
export function s3Client(cfg: S3Config): AwsClient {
  return new AwsClient({ accessKeyId: cfg.accessKeyId, secretAccessKey: cfg.secretAccessKey, region: cfg.region, service: 's3', retries: 0 });
}

/** A failure talking to the bucket: carries the HTTP status, never the credentials or the signature. */
export class S3Error extends Error {
  constructor(
    readonly op: string,
    readonly httpStatus: number,
  ) {
    super(`s3 ${op} failed with HTTP ${httpStatus}`);
  }
}

export function s3Storage(cfg: S3Config, now?: () => number): StorageProvider {
  const client = s3Client(cfg);
  const send = async (method: S3Method, key: string, opts: { body?: { bytes: Buffer; contentType: string }; range?: string } = {}) =>
    fetch(await buildS3Request(client, cfg, method, key, { ...opts, now: now?.(), signal: AbortSignal.timeout(cfg.timeoutMs) }));
  const publicBase = cfg.publicBaseUrl?.replace(/\/+$/, '');
  return {
    name: 's3',
    async put(key, bytes, contentType) {
      const res = await send('PUT', key, { body: { bytes, contentType } });
      await res.body?.cancel();
      if (!res.ok) throw new S3Error('put', res.status);
    },
    async get(key) {
      const res = await send('GET', key);
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
      const res = await send('GET', key, { range: rangeHeader(range) });
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
          const head = await send('HEAD', key);
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
      const res = await send('DELETE', key);
      await res.body?.cancel();
      if (!res.ok && res.status !== 404) throw new S3Error('delete', res.status);
    },
    url(key) {
      return publicBase ? `${publicBase}/${key}` : MEDIA_UPLOADS_PREFIX + key;
    },
  };
}

/** The Range header for one byte range. */
export function rangeHeader(r: ByteRange): string {
  return 'suffix' in r ? `bytes=-${r.suffix}` : `bytes=${r.start}-${r.end ?? ''}`;
}
