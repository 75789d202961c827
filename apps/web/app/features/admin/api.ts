/**
 * The console's API client: POST JSON to ADMIN_BASE<path> with the staff token in `x-staff-token`
 * (and `lang`), never the user's token. A lost staff session (1070) clears the tab's session and
 * goes to /admin/login, keeping where the staff member was. Errors are returned, not toasted:
 * each page shows them where the action was taken.
 */
import { ADMIN_BASE, STAFF_TOKEN_HEADER } from '@cfx/contract/admin-rules.ts';
import { langFromDocument } from '../../i18n/index.ts';
import { goTo } from '../../lib/navigation.ts';
import { staffToken, useStaffStore } from './session.ts';

export const STATUS_OK = '000000';
export const STAFF_SESSION_LOST = '1070';

export type AdminResult<T> = { ok: true; data: T; message: string; status: string } | { ok: false; data: null; message: string; status: string };

export class AdminError extends Error {
  constructor(message: string, readonly status: string) {
    super(message);
  }
}

export function toLogin() {
  staffToken.clear();
  useStaffStore.getState().setMe(null);
  const here = window.location.pathname + window.location.search;
  if (!window.location.pathname.startsWith('/admin/login')) goTo(`/admin/login?next=${encodeURIComponent(here)}`, { replace: true });
}

export async function adminApi<T>(path: string, body: unknown = {}, opts: { token?: string } = {}): Promise<AdminResult<T>> {
  const token = opts.token ?? staffToken.get();
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json', lang: langFromDocument() };
  if (token) headers[STAFF_TOKEN_HEADER] = token;
  let env: { status?: string; data?: T; message?: string };
  try {
    const res = await fetch(ADMIN_BASE + path, { method: 'POST', headers, body: JSON.stringify(body ?? {}), credentials: 'omit', cache: 'no-store' });
    env = (await res.json()) as typeof env;
  } catch {
    return { ok: false, data: null, message: '', status: 'network' };
  }
  const status = String(env.status ?? '');
  const message = env.message ?? '';
  if (status === STATUS_OK) return { ok: true, data: env.data as T, message, status };
  if (status === STAFF_SESSION_LOST && !opts.token) toLogin();
  return { ok: false, data: null, message, status };
}

/** For TanStack Query: the data, or throws AdminError with the server's message. */
export async function adminData<T>(path: string, body?: unknown): Promise<T> {
  const r = await adminApi<T>(path, body);
  if (!r.ok) throw new AdminError(r.message, r.status);
  return r.data;
}

/** A staff-only file (GET ?id=&key=) as a blob; the caller saves or shows it. */
export async function adminFile(path: string, id: number, key: string): Promise<Blob> {
  const res = await fetch(`${ADMIN_BASE}${path}?id=${id}&key=${encodeURIComponent(key)}`, {
    headers: { [STAFF_TOKEN_HEADER]: staffToken.get(), lang: langFromDocument() },
    credentials: 'omit',
    cache: 'no-store',
  });
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('application/json')) {
    const env = (await res.json()) as { status?: string; message?: string };
    if (env.status === STAFF_SESSION_LOST) toLogin();
    throw new AdminError(env.message ?? '', String(env.status ?? ''));
  }
  if (!res.ok) throw new AdminError('', String(res.status));
  return res.blob();
}

/** Saves a blob under `name` through a temporary link. */
export function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
