/**
 * Where the full-page login / register / forgot-password pages (/account/*) send the user back to:
 * the `redirect` (or `from`) query parameter, accepted only as a same-origin relative path — it must
 * start with a single "/" (not "//" or "/\", which browsers read as another host), hold no control
 * characters or backslashes, stay on this origin once resolved, and not be an /account page itself
 * (no loop). Anything else falls back to "/". Pure, so it is unit-tested (test/account-redirect.test.ts).
 */
export const ACCOUNT_PATHS = { login: '/account/login', register: '/account/register', forgot: '/account/forgot-password' } as const;

const BASE = 'https://origin.invalid';

export function safeRedirect(raw: string | null | undefined): string {
  if (!raw || raw.length > 2000) return '/';
  if (!raw.startsWith('/') || raw.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(raw)) return '/';
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return '/';
  }
  if (url.origin !== BASE) return '/';
  if (url.pathname === '/account' || url.pathname.startsWith('/account/')) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The target named by a query string (`redirect`, else `from`). */
export function redirectOf(search: URLSearchParams): string {
  return safeRedirect(search.get('redirect') ?? search.get('from'));
}

/** An /account page's URL carrying the return target (omitted when it is the home page). */
export function accountHref(page: keyof typeof ACCOUNT_PATHS, redirect: string, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams(extra);
  if (redirect !== '/') q.set('redirect', redirect);
  const s = q.toString();
  return `${ACCOUNT_PATHS[page]}${s ? `?${s}` : ''}`;
}
