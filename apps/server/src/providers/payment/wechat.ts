import crypto from 'node:crypto';
import type { PaymentProvider, ProviderTrade, RefundOutcome } from './types.ts';
import { formatChinaIso } from '@cfx/protocol/china-time.ts';

/**
 * WeChat Pay (微信支付) Native payment over APIv3, with node:crypto only:
 *
 * - requests carry `Authorization: WECHATPAY2-SHA256-RSA2048 mchid="…",nonce_str="…",timestamp="…",serial_no="…",signature="…"`,
 *   the signature being SHA256withRSA (merchant private key) over `METHOD\nPATH?QUERY\nTIMESTAMP\nNONCE\nBODY\n`;
 * - answers and notifies are verified with the WeChat Pay platform key (a platform certificate or the
 *   newer platform public key) named by `Wechatpay-Serial`: SHA256withRSA over `TIMESTAMP\nNONCE\nBODY\n`,
 *   and a `Wechatpay-Timestamp` more than 5 minutes away from our clock is refused (replayed or stale);
 * - the notify's `resource` is AEAD_AES_256_GCM-encrypted with the APIv3 key (nonce and associated_data
 *   in the clear, the 16-byte tag at the end of the ciphertext);
 * - amounts are integer fen on both sides (WeChat's `amount.total`).
 *
 * `POST /v3/pay/transactions/native` returns the `code_url` the web shows as a QR code (the pay URL of
 * this provider); `GET /v3/pay/transactions/out-trade-no/{no}?mchid=` is the reconciliation query;
 * `POST /v3/refund/domestic/refunds` and `GET /v3/refund/domestic/refunds/{out_refund_no}` refund stray
 * payments. The protocol pieces are exported for the sandbox (providers/payment/wechat-sandbox.ts), whose
 * notifies go through the same verification.
 */
export interface WechatPayConfig {
  mchId: string;
  appId: string;
  /** Serial number of the merchant API certificate (names our key to WeChat). */
  mchSerialNo: string;
  /** The merchant API private key (PEM, PKCS#8 or PKCS#1). */
  privateKey: string;
  /** The APIv3 key: 32 characters, the AES-256-GCM key of notify resources. */
  apiV3Key: string;
  /** The WeChat Pay platform public key (PEM) or platform certificate (PEM). */
  platformPublicKey: string;
  /** Its id (`PUB_KEY_ID_…`) or the certificate's serial number: what `Wechatpay-Serial` must say. */
  platformSerial: string;
  gateway: string;
}

/** The longest distance between `Wechatpay-Timestamp` and our clock (WeChat's SDKs use 5 minutes). */
export const WECHAT_MAX_SKEW_SECONDS = 300;

export const WECHAT_AUTH_SCHEMA = 'WECHATPAY2-SHA256-RSA2048';

/** The headers of a signed answer or notify (lower-case names, as Node gives them). */
export interface WechatSignedHeaders {
  'wechatpay-timestamp'?: string;
  'wechatpay-nonce'?: string;
  'wechatpay-signature'?: string;
  'wechatpay-serial'?: string;
}

export function wechatNonce(): string {
  return crypto.randomBytes(16).toString('hex').toUpperCase();
}

/** A PEM kept in one environment line may carry its line breaks as the two characters `\n`. */
const unescapePem = (pem: string) => pem.trim().replace(/\\n/g, '\n');

/** Reads a PEM public key or certificate (or a bare base64 SPKI key) into a key object. */
export function wechatPublicKey(pem: string): crypto.KeyObject {
  pem = unescapePem(pem);
  const text = pem.includes('-----BEGIN') ? pem : `-----BEGIN PUBLIC KEY-----\n${pem.replace(/\s+/g, '')}\n-----END PUBLIC KEY-----\n`;
  if (text.includes('BEGIN CERTIFICATE')) return new crypto.X509Certificate(text).publicKey;
  return crypto.createPublicKey(text);
}

function privateKeyOf(pem: string): crypto.KeyObject {
  pem = unescapePem(pem);
  const text = pem.includes('-----BEGIN') ? pem : `-----BEGIN PRIVATE KEY-----\n${pem.replace(/\s+/g, '')}\n-----END PRIVATE KEY-----\n`;
  return crypto.createPrivateKey(text);
}

/** SHA256withRSA, base64: the signature of a request (our key) or of an answer / notify (the platform's key). */
export function wechatSign(key: crypto.KeyObject | string, message: string): string {
  return crypto.createSign('RSA-SHA256').update(message, 'utf8').sign(key, 'base64');
}

/** The message a request signature covers. */
export function wechatRequestMessage(method: string, pathAndQuery: string, timestamp: string, nonce: string, body: string): string {
  return `${method}\n${pathAndQuery}\n${timestamp}\n${nonce}\n${body}\n`;
}

/** The message an answer or notify signature covers. */
export function wechatResponseMessage(timestamp: string, nonce: string, body: string): string {
  return `${timestamp}\n${nonce}\n${body}\n`;
}

/** Parses an Authorization header of our schema into its fields (the test gateway and the sandbox read it). */
export function parseWechatAuthorization(header: string | undefined): Record<string, string> | null {
  if (!header?.startsWith(`${WECHAT_AUTH_SCHEMA} `)) return null;
  const out: Record<string, string> = {};
  for (const m of header.slice(WECHAT_AUTH_SCHEMA.length + 1).matchAll(/(\w+)="([^"]*)"/g)) out[m[1]!] = m[2]!;
  return out;
}

/**
 * Verifies a platform signature: the serial must be the configured platform key's, the timestamp
 * within WECHAT_MAX_SKEW_SECONDS of `nowMs`, and the RSA signature valid over the raw body.
 */
export function verifyWechatSignature(platform: { serial: string; key: crypto.KeyObject }, h: WechatSignedHeaders, body: string, nowMs: number): boolean {
  const ts = h['wechatpay-timestamp'];
  const nonce = h['wechatpay-nonce'];
  const signature = h['wechatpay-signature'];
  if (!ts || !nonce || !signature || h['wechatpay-serial'] !== platform.serial) return false;
  if (!/^\d{1,12}$/.test(ts) || Math.abs(Number(ts) - Math.floor(nowMs / 1000)) > WECHAT_MAX_SKEW_SECONDS) return false;
  try {
    return crypto.createVerify('RSA-SHA256').update(wechatResponseMessage(ts, nonce, body), 'utf8').verify(platform.key, signature, 'base64');
  } catch {
    return false;
  }
}

export interface WechatResource {
  algorithm: string;
  ciphertext: string;
  associated_data?: string;
  nonce: string;
  original_type?: string;
}

/** AEAD_AES_256_GCM with the APIv3 key; null when the tag does not verify (tampered or another key). */
export function decryptWechatResource(apiV3Key: string, r: WechatResource): string | null {
  if (r.algorithm !== 'AEAD_AES_256_GCM' || typeof r.ciphertext !== 'string' || typeof r.nonce !== 'string') return null;
  const key = Buffer.from(apiV3Key, 'utf8');
  if (key.length !== 32) return null;
  const data = Buffer.from(r.ciphertext, 'base64');
  if (data.length < 17) return null;
  try {
    const d = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(r.nonce, 'utf8'));
    d.setAuthTag(data.subarray(data.length - 16));
    d.setAAD(Buffer.from(r.associated_data ?? '', 'utf8'));
    return Buffer.concat([d.update(data.subarray(0, data.length - 16)), d.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** The reverse of decryptWechatResource (the sandbox and tests build notifies with it). */
export function encryptWechatResource(apiV3Key: string, plaintext: string, originalType: string): WechatResource {
  const nonce = crypto.randomBytes(6).toString('hex');
  const c = crypto.createCipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(nonce, 'utf8'));
  c.setAAD(Buffer.from(originalType, 'utf8'));
  const enc = Buffer.concat([c.update(plaintext, 'utf8'), c.final(), c.getAuthTag()]);
  return { original_type: originalType, algorithm: 'AEAD_AES_256_GCM', ciphertext: enc.toString('base64'), associated_data: originalType, nonce };
}

/** RFC 3339 in China time (WeChat's time_expire: 2026-11-27T15:04:05+08:00). */
export function wechatTime(ms: number): string {
  return formatChinaIso(ms);
}

const REFUND_EVENT: Record<string, RefundOutcome['status']> = { 'REFUND.SUCCESS': 'succeeded', 'REFUND.ABNORMAL': 'failed', 'REFUND.CLOSED': 'failed' };
const REFUND_STATUS: Record<string, RefundOutcome['status']> = { SUCCESS: 'succeeded', PROCESSING: 'processing', ABNORMAL: 'failed', CLOSED: 'failed' };

/** What a verified notify says. */
export type WechatNotice =
  | { kind: 'trade'; trade: ProviderTrade }
  | { kind: 'refund'; refund: RefundOutcome & { refundNo: string } }
  /** Verified, but nothing we act on (another event type). */
  | { kind: 'other'; eventType: string };

/**
 * The notify route hands a notify to the provider as flat parameters: the four signature headers and
 * the raw JSON body under `body` (the signature covers the bytes as sent).
 */
export function wechatNotifyParams(headers: Record<string, unknown>, body: string): Record<string, string> {
  const p: Record<string, string> = { body };
  for (const k of ['wechatpay-timestamp', 'wechatpay-nonce', 'wechatpay-signature', 'wechatpay-serial'] as const) {
    const v = headers[k];
    if (typeof v === 'string') p[k] = v;
  }
  return p;
}

function tradeOf(t: Record<string, unknown>, mchId: string, appId: string): ProviderTrade | null {
  if (t.mchid !== mchId || t.appid !== appId) return null;
  const amount = t.amount as { total?: unknown } | undefined;
  const total = amount?.total;
  if (typeof t.out_trade_no !== 'string' || !t.out_trade_no || typeof t.transaction_id !== 'string' || !t.transaction_id) return null;
  if (typeof total !== 'number' || !Number.isSafeInteger(total) || total < 0) return null;
  const raw: Record<string, string> = { out_trade_no: t.out_trade_no, transaction_id: t.transaction_id, trade_state: String(t.trade_state ?? ''), total: String(total) };
  if (typeof t.success_time === 'string') raw.success_time = t.success_time;
  if (typeof t.trade_type === 'string') raw.trade_type = t.trade_type;
  return { orderNo: t.out_trade_no, tradeNo: t.transaction_id, amountFen: total, paid: t.trade_state === 'SUCCESS', raw };
}

function refundOf(r: Record<string, unknown>, mchId: string | null): (RefundOutcome & { refundNo: string }) | null {
  if (mchId !== null && r.mchid !== undefined && r.mchid !== mchId) return null;
  const status = REFUND_STATUS[String(r.refund_status ?? r.status ?? '')];
  if (!status || typeof r.out_refund_no !== 'string' || !r.out_refund_no) return null;
  return { refundNo: r.out_refund_no, refundTradeNo: typeof r.refund_id === 'string' ? r.refund_id : null, status, reason: status === 'failed' ? `WeChat refund ${String(r.refund_status ?? r.status)}` : null };
}

/** Verifies and opens a notify (signature, serial, freshness, then AES-GCM); null when any check fails. */
export function openWechatNotify(
  v: { platform: { serial: string; key: crypto.KeyObject }; apiV3Key: string; mchId: string; appId: string },
  params: Record<string, string>,
  nowMs: number,
): WechatNotice | null {
  const body = params.body ?? '';
  if (!verifyWechatSignature(v.platform, params, body, nowMs)) return null;
  let n: { event_type?: unknown; resource?: WechatResource };
  try {
    n = JSON.parse(body);
  } catch {
    return null;
  }
  if (!n || typeof n !== 'object' || typeof n.event_type !== 'string' || !n.resource || typeof n.resource !== 'object') return null;
  const plain = decryptWechatResource(v.apiV3Key, n.resource);
  if (plain === null) return null;
  let r: Record<string, unknown>;
  try {
    r = JSON.parse(plain);
  } catch {
    return null;
  }
  if (!r || typeof r !== 'object') return null;
  if (n.event_type.startsWith('TRANSACTION.')) {
    const trade = tradeOf(r, v.mchId, v.appId);
    return trade ? { kind: 'trade', trade } : null;
  }
  if (n.event_type in REFUND_EVENT) {
    const refund = refundOf(r, v.mchId);
    return refund ? { kind: 'refund', refund } : null;
  }
  return { kind: 'other', eventType: n.event_type };
}

/** A WeChat Pay provider: the production adapter and the sandbox both answer these. */
export interface WechatProvider extends PaymentProvider {
  readonly name: 'wechat';
  /** Opens a verified notify: a payment or a refund outcome (null when it does not verify). */
  openNotify(params: Record<string, string>): WechatNotice | null;
  refund: NonNullable<PaymentProvider['refund']>;
  queryRefund: NonNullable<PaymentProvider['queryRefund']>;
  verifyRefundNotify: NonNullable<PaymentProvider['verifyRefundNotify']>;
}

/** An answer of the API we could not use: `transient` errors are asked again later, the others are refusals. */
export class WechatApiError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: string,
    message: string,
    readonly transient: boolean,
  ) {
    super(`WeChat Pay ${httpStatus} ${code}: ${message}`);
  }
}

/** A key that does not parse stops the start with the variable's name (never its value). */
function readKey(name: string, read: () => crypto.KeyObject): crypto.KeyObject {
  try {
    return read();
  } catch {
    throw new Error(`${name} is not a valid PEM key (or certificate)`);
  }
}

const TRANSIENT_CODES = new Set(['SYSTEM_ERROR', 'FREQUENCY_LIMITED', 'NOT_ENOUGH', 'SYSTEMERROR']);

export function wechatPayment(cfg: WechatPayConfig, opts: { now?: () => number; fetch?: typeof fetch } = {}): WechatProvider {
  const now = opts.now ?? Date.now;
  const doFetch = opts.fetch ?? fetch;
  const key = readKey('WECHATPAY_PRIVATE_KEY', () => privateKeyOf(cfg.privateKey));
  const platform = { serial: cfg.platformSerial, key: readKey('WECHATPAY_PLATFORM_PUBLIC_KEY', () => wechatPublicKey(cfg.platformPublicKey)) };
  const gateway = cfg.gateway.replace(/\/+$/, '');

  /** One signed call; the answer's signature must verify before anything in it is used. */
  async function call(method: 'GET' | 'POST', pathAndQuery: string, payload?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const ts = String(Math.floor(now() / 1000));
    const nonce = wechatNonce();
    const signature = wechatSign(key, wechatRequestMessage(method, pathAndQuery, ts, nonce, body));
    const auth = `${WECHAT_AUTH_SCHEMA} mchid="${cfg.mchId}",nonce_str="${nonce}",timestamp="${ts}",serial_no="${cfg.mchSerialNo}",signature="${signature}"`;
    let res: Response;
    try {
      res = await doFetch(gateway + pathAndQuery, {
        method,
        headers: { authorization: auth, accept: 'application/json', 'user-agent': 'cfx-market/1 (node)', ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
        body: payload === undefined ? undefined : body,
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      throw new WechatApiError(0, 'NETWORK', String(err), true);
    }
    const text = await res.text();
    const headers: WechatSignedHeaders = {
      'wechatpay-timestamp': res.headers.get('wechatpay-timestamp') ?? undefined,
      'wechatpay-nonce': res.headers.get('wechatpay-nonce') ?? undefined,
      'wechatpay-signature': res.headers.get('wechatpay-signature') ?? undefined,
      'wechatpay-serial': res.headers.get('wechatpay-serial') ?? undefined,
    };
    if (!verifyWechatSignature(platform, headers, text, now())) {
      // No decision on an answer we cannot attribute to WeChat Pay: asked again later.
      throw new WechatApiError(res.status, 'BAD_SIGNATURE', 'the answer is not signed by the platform key', true);
    }
    let json: Record<string, unknown> = {};
    if (text) {
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        throw new WechatApiError(res.status, 'BAD_JSON', 'the answer is not JSON', true);
      }
    }
    if (res.status >= 200 && res.status < 300) return { status: res.status, json };
    const code = String(json.code ?? res.status);
    if (res.status === 404) return { status: 404, json };
    throw new WechatApiError(res.status, code, String(json.message ?? ''), res.status >= 500 || res.status === 429 || TRANSIENT_CODES.has(code));
  }

  const provider: WechatProvider = {
    name: 'wechat',
    async createPayment(req) {
      const { json } = await call('POST', '/v3/pay/transactions/native', {
        appid: cfg.appId,
        mchid: cfg.mchId,
        description: req.subject.slice(0, 127),
        out_trade_no: req.orderNo,
        time_expire: wechatTime(req.expiresAt),
        notify_url: req.notifyUrl,
        amount: { total: req.amountFen, currency: 'CNY' },
      });
      if (typeof json.code_url !== 'string' || !json.code_url) throw new WechatApiError(200, 'NO_CODE_URL', 'the answer has no code_url', true);
      return { payUrl: json.code_url };
    },
    openNotify(params) {
      return openWechatNotify({ platform, apiV3Key: cfg.apiV3Key, mchId: cfg.mchId, appId: cfg.appId }, params, now());
    },
    verifyNotify(params) {
      const n = provider.openNotify(params);
      return n?.kind === 'trade' ? n.trade : null;
    },
    verifyRefundNotify(params) {
      const n = provider.openNotify(params);
      return n?.kind === 'refund' ? n.refund : null;
    },
    async queryTrade(orderNo) {
      const { status, json } = await call('GET', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}?mchid=${encodeURIComponent(cfg.mchId)}`);
      if (status === 404) return null;
      const t = tradeOf(json, cfg.mchId, cfg.appId);
      return t && t.paid && t.orderNo === orderNo ? t : null;
    },
    // A stray payment is refunded whole: the refund and the trade's total are the payment's amount.
    async refund(req) {
      let json: Record<string, unknown>;
      let status: number;
      try {
        ({ status, json } = await call('POST', '/v3/refund/domestic/refunds', {
          transaction_id: req.tradeNo,
          out_refund_no: req.refundNo,
          reason: '重复或无法匹配订单的支付，原路退回',
          notify_url: req.notifyUrl,
          amount: { refund: req.amountFen, total: req.amountFen, currency: 'CNY' },
        }));
      } catch (err) {
        if (err instanceof WechatApiError && !err.transient) return { status: 'failed', refundTradeNo: null, reason: `${err.code}: ${err.message}`.slice(0, 200) };
        throw err;
      }
      if (status === 404) return { status: 'failed', refundTradeNo: null, reason: `${String(json.code ?? 'RESOURCE_NOT_EXISTS')}: ${String(json.message ?? 'unknown trade')}`.slice(0, 200) };
      const r = refundOf(json, null);
      if (!r) throw new WechatApiError(200, 'BAD_REFUND', 'the refund answer has no known status', true);
      return { status: r.status, refundTradeNo: r.refundTradeNo, reason: r.reason };
    },
    async queryRefund(req) {
      const { status, json } = await call('GET', `/v3/refund/domestic/refunds/${encodeURIComponent(req.refundNo)}`);
      if (status === 404) return null;
      const r = refundOf(json, null);
      return r ? { status: r.status, refundTradeNo: r.refundTradeNo, reason: r.reason } : null;
    },
  };
  return provider;
}
