import crypto from 'node:crypto';

/**
 * AWS Signature Version 4 (header form), as S3 and S3-compatible stores (MinIO, Ceph, Aliyun OSS's
 * S3 API, Cloudflare R2, …) expect it. Pure functions over node:crypto; checked against AWS's
 * published examples in test/storage.test.ts.
 */
export interface SignInput {
  method: string;
  host: string;
  /** The request path, not yet encoded (`/bucket/public/img/x.png`); each segment is URI-encoded here. */
  path: string;
  query?: Record<string, string>;
  /** Headers to sign besides host (names in any case). x-amz-date is added from `amzDate`. */
  headers?: Record<string, string>;
  /** Hex SHA-256 of the body (or `UNSIGNED-PAYLOAD`). */
  payloadHash: string;
  region: string;
  service: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `YYYYMMDDTHHMMSSZ` */
  amzDate: string;
}

export interface Signed {
  /** The headers to send: the input's, plus host, x-amz-date and authorization. */
  headers: Record<string, string>;
  authorization: string;
  signature: string;
  canonicalRequest: string;
  stringToSign: string;
  signedHeaders: string;
}

export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

export const sha256Hex = (data: string | Buffer) => crypto.createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => crypto.createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 encoding as SigV4 wants it: unreserved characters kept, everything else %XX (upper case); `/` kept unless `encodeSlash`. */
export function uriEncode(s: string, encodeSlash: boolean): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-._~]/.test(c) || (c === '/' && !encodeSlash)) out += c;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The canonical query string: names and values encoded, sorted by name then value, `name=` for an empty value. */
export function canonicalQuery(query: Record<string, string> = {}): string {
  return Object.entries(query)
    .map(([k, v]) => [uriEncode(k, true), uriEncode(v, true)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/** `YYYYMMDDTHHMMSSZ` of an instant. */
export function amzDateOf(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

export function signV4(input: SignInput): Signed {
  const headers: Record<string, string> = { ...(input.headers ?? {}) };
  const lower = new Map<string, string>();
  for (const [k, v] of Object.entries(headers)) lower.set(k.toLowerCase(), v);
  if (!lower.has('host')) {
    headers.host = input.host;
    lower.set('host', input.host);
  }
  headers['x-amz-date'] = input.amzDate;
  lower.set('x-amz-date', input.amzDate);
  const names = [...lower.keys()].sort();
  const canonicalHeaders = names.map((n) => `${n}:${lower.get(n)!.trim().replace(/\s+/g, ' ')}\n`).join('');
  const signedHeaders = names.join(';');
  const canonicalRequest = [
    input.method.toUpperCase(),
    uriEncode(input.path || '/', false),
    canonicalQuery(input.query),
    canonicalHeaders,
    signedHeaders,
    input.payloadHash,
  ].join('\n');
  const day = input.amzDate.slice(0, 8);
  const scope = `${day}/${input.region}/${input.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', input.amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const kDate = hmac(`AWS4${input.secretAccessKey}`, day);
  const kSigning = hmac(hmac(hmac(kDate, input.region), input.service), 'aws4_request');
  const signature = hmac(kSigning, stringToSign).toString('hex');
  const authorization = `AWS4-HMAC-SHA256 Credential=${input.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  headers.authorization = authorization;
  return { headers, authorization, signature, canonicalRequest, stringToSign, signedHeaders };
}
