/**
 * The one API client. Every call is POST JSON unless stated, to /mvapi/public<path>,
 * with headers `channel: pc`, `token` when signed in, and `lang` (the server localises by it).
 *
 * Generic handling:
 * - status or code 1100 → clear the user, close all messages, red "session lost" message, and
 *   leave /personal-center pages for `/`;
 * - any other failure → red closable message with the server's message/msg (unless the path is
 *   in SKIP_DEFAULT_ERROR or the call passes `silent: true`);
 * - network errors are logged only.
 */
import type { Envelope } from '@cfx/contract/envelope.ts';
import { browserT, langFromDocument } from '../i18n/index.ts';
import { useUserStore } from '../stores/user.ts';
import { toast } from '../stores/toast.ts';
import { goTo, isPersonalCenterPath } from './navigation.ts';

/** Same values as @cfx/contract/envelope.ts (not imported as values: that module pulls zod into the bundle). */
export const API_BASE = '/mvapi/public';
export const STATUS_OK = '000000';
export const STATUS_SESSION_LOST = '1100';

/** Paths whose failures skip the default error message. Matched as substrings. */
export const SKIP_DEFAULT_ERROR = [
  '/api/user/profile/v1/userprofile',
  '/api/user/profile/v1/profpic/list',
  '/api/user/profile/v1/getrealnameinfo',
  '/payment/nftDealRecord/V1/pageListNftDealRecordByParams',
  '/payment/nftOrder/V1/queryNftOrderList',
  '/payment/nftOrder/V1/pageListNftOrder',
  '/payment/nftOrder/V1/createOrder',
  '/payment/nftOrder/V1/getNftOrderDetail',
  '/payment/merchant/V1/getSecondMerchantDetail',
  '/payment/account/V1/querySecondAccount',
  '/goods/v1/closeSale',
  '/goods/v1/openSale',
  '/goods/v1/cost',
  '/api/user/mint/v1/nftmint',
] as const;

export interface ApiOptions {
  method?: 'GET' | 'POST';
  /** Query parameters (mostly for GET). */
  query?: Record<string, string | number | undefined>;
  /** Skip the default red error message for this call (spec's skip list is applied automatically). */
  silent?: boolean;
  /**
   * Treat status 1100 as an ordinary failure instead of a lost session. Used by the password
   * reset, where 1100 means "the reset token failed", not "you are logged out".
   */
  ownSessionCodes?: boolean;
  signal?: AbortSignal;
}

export type ApiResult<T> =
  | { ok: true; data: T; status: string; code: string | number; message: string; networkError?: false }
  | { ok: false; data: T | null; status: string; code: string | number; message: string; networkError?: boolean };

export function isSuccess(path: string, body: Pick<Envelope<unknown>, 'status' | 'code'>): boolean {
  if (path.includes('official')) return String(body.code) === '200';
  if (path.includes('background')) return body.status === STATUS_OK || String(body.code) === '200';
  return body.status === STATUS_OK;
}

function usesDefaultErrors(path: string): boolean {
  return !path.includes('background');
}

function messageOf(body: Partial<Envelope<unknown>>): string {
  if (body.message) return body.message;
  if (body.msg) return body.msg;
  if (typeof body.data === 'string' && body.data) return body.data;
  return '';
}

let sessionLostAt = 0;

/** session lost. Public so other modules (e.g. tests, future wallet code) can trigger it. */
export function handleSessionLost() {
  useUserStore.getState().clear();
  // Several calls may fail together (the message stream's logout and a save a moment later): the first shows
  // the message, the others neither show another nor close it — closing it left the user with no message at all.
  if (Date.now() - sessionLostAt > 500) {
    toast.closeAll();
    toast.error(browserT()('session.lost'));
  }
  sessionLostAt = Date.now();
  if (typeof window !== 'undefined' && isPersonalCenterPath(window.location.pathname)) goTo('/', { replace: true });
}

export async function api<T = unknown>(path: string, body?: unknown, opts: ApiOptions = {}): Promise<ApiResult<T>> {
  const method = opts.method ?? 'POST';
  const headers: Record<string, string> = { channel: 'pc', lang: langFromDocument(), accept: 'application/json' };
  const token = useUserStore.getState().token;
  if (token) headers.token = token;
  let url = API_BASE + path;
  if (opts.query) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.query)) if (v !== undefined) q.set(k, String(v));
    const s = q.toString();
    if (s) url += (url.includes('?') ? '&' : '?') + s;
  }
  let init: RequestInit = { method, headers, signal: opts.signal, credentials: 'same-origin' };
  if (method === 'POST') {
    headers['content-type'] = 'application/json';
    init = { ...init, body: JSON.stringify(body ?? {}) };
  }

  let envelope: Partial<Envelope<T>>;
  try {
    const res = await fetch(url, init);
    envelope = (await res.json()) as Partial<Envelope<T>>;
  } catch (err) {
    // network errors are logged only.
    if (!(err instanceof DOMException && err.name === 'AbortError')) console.error('[api]', path, err);
    return { ok: false, data: null, status: '', code: '', message: '', networkError: true };
  }

  const status = String(envelope.status ?? '');
  const code = envelope.code ?? '';
  const message = messageOf(envelope);
  if (isSuccess(path, { status, code })) {
    return { ok: true, data: envelope.data as T, status, code, message };
  }
  if (!opts.ownSessionCodes && (status === STATUS_SESSION_LOST || String(code) === STATUS_SESSION_LOST)) {
    handleSessionLost();
    return { ok: false, data: envelope.data ?? null, status, code, message };
  }
  const skipped = opts.silent || SKIP_DEFAULT_ERROR.some((p) => path.includes(p));
  if (!skipped && usesDefaultErrors(path)) toast.error(message || browserT()('common.requestFailed'));
  return { ok: false, data: envelope.data ?? null, status, code, message };
}

/** For TanStack Query: resolves with data or throws (the message was already shown unless silent). */
export async function apiData<T>(path: string, body?: unknown, opts?: ApiOptions): Promise<T> {
  const r = await api<T>(path, body, opts);
  if (!r.ok) throw new ApiError(r.message, r.status);
  return r.data;
}

export class ApiError extends Error {
  constructor(message: string, readonly status: string) {
    super(message || status || 'network error');
  }
}
