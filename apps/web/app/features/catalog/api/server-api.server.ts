/**
 * Route loaders' API client (server only). Loaders run in the server process, so they call the
 * gateway over HTTP on the same server — the in-process origin, never the Host the browser sent —
 * with the page's language (header `lang` and the `lang` cookie, as the browser client would).
 *
 * No token is sent: the token lives in localStorage, so server-rendered pages are the logged-out
 * view (docs/web.md "How SSR is served"). The result has the same shape as lib/api.ts `api()`,
 * so the operation files under features/<domain>/api/ take either as their `call`.
 *
 * Lives in features/catalog because app/lib was outside the catalog issue's files; the content and
 * search-results operations do not import it — only route loaders do.
 */
import { data } from 'react-router';
import type { Envelope } from '@cfx/contract/envelope.ts';
import { API_BASE, isSuccess, type ApiOptions, type ApiResult } from '../../../lib/api.ts';
import { DEFAULT_LANG, langFromCookieHeader, type Lang } from '../../../i18n/index.ts';
import type { Caller } from './caller.ts';

/** How long a loader waits for one API call. */
const TIMEOUT_MS = 10_000;

/**
 * Where the gateway is reachable from this process: `INTERNAL_API_ORIGIN` when set; else the
 * server's own listening address (`HOST`/`PORT`, as apps/server reads them; a wildcard host means
 * loopback); else (the Vite dev server, which proxies /mvapi) the request's own origin.
 */
export function apiOrigin(request: Request, env: Record<string, string | undefined> = process.env): string {
  if (env.INTERNAL_API_ORIGIN) return env.INTERNAL_API_ORIGIN.replace(/\/+$/, '');
  if (env.PORT) {
    const host = !env.HOST || env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
    return `http://${host.includes(':') ? `[${host}]` : host}:${env.PORT}`;
  }
  return new URL(request.url).origin;
}

/** The language of the page request (an unsupported cookie never gets here: the root loader 404s). */
export function requestLang(request: Request): Lang {
  const lang = langFromCookieHeader(request.headers.get('Cookie'));
  return lang === 'invalid' ? DEFAULT_LANG : lang;
}

/** A `call` for loaders: same signature and result as the browser's `api()`. */
export function serverApi(request: Request): Caller {
  const origin = apiOrigin(request);
  const lang = requestLang(request);
  return async function call<T = unknown>(path: string, body?: unknown, opts: ApiOptions = {}): Promise<ApiResult<T>> {
    const method = opts.method ?? 'POST';
    const headers: Record<string, string> = { channel: 'pc', lang, cookie: `lang=${lang}`, accept: 'application/json' };
    let url = origin + API_BASE + path;
    if (opts.query) {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(opts.query)) if (v !== undefined) q.set(k, String(v));
      const s = q.toString();
      if (s) url += (url.includes('?') ? '&' : '?') + s;
    }
    const signals = [request.signal, AbortSignal.timeout(TIMEOUT_MS)];
    if (opts.signal) signals.push(opts.signal);
    const init: RequestInit = { method, headers, signal: AbortSignal.any(signals) };
    if (method === 'POST') {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body ?? {});
    }
    let envelope: Partial<Envelope<T>>;
    try {
      const res = await fetch(url, init);
      envelope = (await res.json()) as Partial<Envelope<T>>;
    } catch (err) {
      if (!request.signal.aborted) console.error('[loader api]', path, err instanceof Error ? err.message : err);
      return { ok: false, data: null, status: '', code: '', message: '', networkError: true };
    }
    const status = String(envelope.status ?? '');
    const code = envelope.code ?? '';
    const message = envelope.message || envelope.msg || '';
    if (isSuccess(path, { status, code })) return { ok: true, data: envelope.data as T, status, code, message };
    return { ok: false, data: envelope.data ?? null, status, code, message };
  };
}

/** Status codes that mean "no such item" for a page: unknown (1404) or malformed (1001) ids. */
const NOT_FOUND = new Set(['1404', '1001']);

/**
 * The data of a result the page cannot do without: an unknown or malformed id is a real HTTP 404
 * (the layout's error page); an unreachable API is 503; any other failure 502.
 */
export function required<T>(r: ApiResult<T>): NonNullable<T> {
  if (r.ok && r.data !== null && r.data !== undefined) return r.data as NonNullable<T>;
  if (r.networkError) throw data(null, { status: 503, statusText: 'Service Unavailable' });
  if (NOT_FOUND.has(r.status) || NOT_FOUND.has(String(r.code)) || (r.ok && r.data === null)) throw data(null, { status: 404 });
  throw data(null, { status: 502, statusText: 'Bad Gateway' });
}

/** The data of a result the page can show without (a home module, a side list): null on failure. */
export function optional<T>(r: ApiResult<T>): T | null {
  return r.ok ? r.data : null;
}

/** The public origin of the page (for absolute Open Graph URLs). */
export function pageOrigin(request: Request): string {
  return new URL(request.url).origin;
}

/** A positive page number from `?page=` (anything else is page 1). */
export function pageParam(url: URL, name = 'page'): number {
  const n = Number(url.searchParams.get(name));
  return Number.isInteger(n) && n >= 1 && n <= 10_000 ? n : 1;
}
