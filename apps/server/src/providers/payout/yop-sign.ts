import crypto from 'node:crypto';

/**
 * YOP (YeePay Open Platform, 易宝开放平台) request signing, RSA variant `YOP-RSA2048-SHA256` with the
 * `yop-auth-v3` protocol, as documented in YeePay's "鉴权认证机制(RSA)" (the yop-typescript-sdk
 * repository's docs and its RsaV3Util):
 *
 *   authString       = yop-auth-v3/<appKey>/<timestamp yyyy-MM-ddTHH:mm:ssZ>/<expiredSeconds>
 *   canonicalRequest = authString \n METHOD \n <path> \n <canonical query> \n <canonical headers>
 *   canonical headers: content-type (POST), x-yop-appkey, x-yop-content-sha256, x-yop-request-id
 *                      (names lower-case, sorted, `urlencode(name):urlencode(value)`, joined by \n),
 *                      and the signed header list `a;b;c`
 *   x-yop-content-sha256 = hex(sha256(sorted urlencoded form parameters | the JSON body | "" for GET))
 *   signature = base64url(SHA256withRSA(privateKey, canonicalRequest)) without padding + "$SHA256"
 *   Authorization: YOP-RSA2048-SHA256 <authString>/<signed headers>/<signature>
 *
 * `test/payouts-providers.test.ts` signs the documentation's own canonical request with the
 * documentation's key and gets the documentation's signature byte for byte. The SM2/SM3 variant
 * (`YOP-SM2-SM3`) is not implemented: a merchant must use an RSA key pair.
 */
export const YOP_PROTOCOL = 'yop-auth-v3';
export const YOP_EXPIRE_SECONDS = 1800;
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/** RFC 3986 percent-encoding (spaces as %20), as the YOP documentation requires. */
export function yopEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Sorted `urlencode(key)=urlencode(value)` pairs joined by `&` (empty values kept as ``). */
export function canonicalParams(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((k) => k)
    .map((k) => `${yopEncode(k.trim())}=${yopEncode(params[k] ?? '')}`)
    .sort()
    .join('&');
}

/** `yyyy-MM-ddTHH:mm:ssZ` of an instant, in UTC. */
export function yopTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function toPem(key: string, kind: 'PRIVATE KEY' | 'PUBLIC KEY'): string {
  if (key.includes('-----BEGIN')) return key;
  const body = key.replace(/\s+/g, '');
  return `-----BEGIN ${kind}-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END ${kind}-----\n`;
}

/** base64url(SHA256withRSA) without padding, followed by `$SHA256`. */
export function yopSign(canonicalRequest: string, privateKey: string): string {
  const sig = crypto.createSign('RSA-SHA256').update(canonicalRequest, 'utf8').sign(toPem(privateKey, 'PRIVATE KEY'));
  return `${sig.toString('base64url')}$SHA256`;
}

export interface SignedRequest {
  headers: Record<string, string>;
  canonicalRequest: string;
}

/**
 * The headers of a signed form-encoded request (POST: parameters in the body; GET: in the query).
 * `requestId` and `now` are inputs so the signature can be reproduced.
 */
export function signYopRequest(input: {
  appKey: string;
  privateKey: string;
  method: 'GET' | 'POST';
  path: string;
  params: Record<string, string>;
  requestId: string;
  now: number;
}): SignedRequest {
  const content = canonicalParams(input.params);
  const contentSha256 = crypto.createHash('sha256').update(input.method === 'POST' ? content : '', 'utf8').digest('hex');
  const authString = `${YOP_PROTOCOL}/${input.appKey}/${yopTimestamp(input.now)}/${YOP_EXPIRE_SECONDS}`;
  const signed: Record<string, string> = {
    ...(input.method === 'POST' ? { 'content-type': FORM_CONTENT_TYPE } : {}),
    'x-yop-appkey': input.appKey,
    'x-yop-content-sha256': contentSha256,
    'x-yop-request-id': input.requestId,
  };
  const names = Object.keys(signed).sort();
  const canonicalHeaders = names.map((n) => `${yopEncode(n)}:${yopEncode(signed[n]!.trim().replace(/\s+/g, ' '))}`).join('\n');
  const canonicalQuery = input.method === 'GET' ? content : '';
  const canonicalRequest = [authString, input.method, input.path, canonicalQuery, canonicalHeaders].join('\n');
  const signature = yopSign(canonicalRequest, input.privateKey);
  return {
    canonicalRequest,
    headers: {
      ...signed,
      authorization: `YOP-RSA2048-SHA256 ${authString}/${names.join(';')}/${signature}`,
    },
  };
}

/**
 * Verifies a YOP answer: the `x-yop-sign` header signs the `result` object of the JSON body with
 * whitespace removed (SHA256withRSA, base64url, optional `$SHA256` suffix), as the SDK's VerifyUtils does.
 */
export function verifyYopResponse(body: string, sign: string | undefined, platformPublicKey: string): boolean {
  if (!sign) return false;
  let result = '';
  try {
    const parsed = JSON.parse(body) as { result?: unknown };
    if (parsed && typeof parsed.result === 'object' && parsed.result !== null) result = JSON.stringify(parsed.result);
  } catch {
    return false;
  }
  const data = result.replace(/\s/g, '');
  const b64 = sign.replace('$SHA256', '');
  try {
    return crypto.createVerify('RSA-SHA256').update(data, 'utf8').verify(toPem(platformPublicKey, 'PUBLIC KEY'), Buffer.from(b64, 'base64url'));
  } catch {
    return false;
  }
}

/**
 * RSA PKCS#1 v1.5 decryption of the envelope's AES key. Node 20 refuses RSA_PKCS1_PADDING in
 * privateDecrypt (CVE-2023-46809, the Marvin timing attack), so the raw RSA result is unpadded here
 * (00 02 <at least 8 non-zero bytes> 00 <key>). The envelope's content is signed by the platform and
 * verified below, and a wrong padding gives no different answer than a bad signature (null).
 */
function pkcs1v15Decrypt(privateKey: string, block: Buffer): Buffer | null {
  const raw = crypto.privateDecrypt({ key: toPem(privateKey, 'PRIVATE KEY'), padding: crypto.constants.RSA_NO_PADDING }, block);
  if (raw[0] !== 0 || raw[1] !== 2) return null;
  const sep = raw.indexOf(0, 2);
  if (sep < 10) return null;
  return raw.subarray(sep + 1);
}

/**
 * Opens a YOP notify's digital envelope (the `response` parameter): `<RSA-encrypted AES key>$<AES-128-ECB
 * encrypted content>$...`, each base64url; the decrypted content is `<json>$<signature>`, the signature
 * (SHA256withRSA by the platform, base64url) over the json. Returns the json text, or null when any step fails.
 */
export function openYopEnvelope(envelope: string, merchantPrivateKey: string, platformPublicKey: string): string | null {
  try {
    const [encKey, encData] = envelope.split('$');
    if (!encKey || !encData) return null;
    const aesKey = pkcs1v15Decrypt(merchantPrivateKey, Buffer.from(encKey, 'base64url'));
    if (!aesKey) return null;
    const decipher = crypto.createDecipheriv('aes-128-ecb', aesKey, null);
    const plain = Buffer.concat([decipher.update(Buffer.from(encData, 'base64url')), decipher.final()]).toString('utf8');
    const cut = plain.lastIndexOf('$');
    if (cut <= 0) return null;
    const json = plain.slice(0, cut);
    const sig = plain.slice(cut + 1);
    const ok = crypto.createVerify('RSA-SHA256').update(json, 'utf8').verify(toPem(platformPublicKey, 'PUBLIC KEY'), Buffer.from(sig, 'base64url'));
    return ok ? json : null;
  } catch {
    return null;
  }
}
