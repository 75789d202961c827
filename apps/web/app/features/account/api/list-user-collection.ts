import { SecurityPaths } from '@cfx/contract/routes.ts';
import type { ApiOptions, ApiResult } from '../../../lib/api.ts';
import type { UserCollection } from './types.ts';

/** The loader's server caller or the browser's `api` (same shape). */
type Caller = <T = unknown>(path: string, body?: unknown, opts?: ApiOptions) => Promise<ApiResult<T>>;

/** goods/v1/list/userCollection — a user's collection on public pages (`hidden` when they switched it off). */
export function listUserCollection(call: Caller, q: { accountId: string; pageNum: number; pageSize: number }) {
  return call<UserCollection>(SecurityPaths.userCollection, q, { silent: true });
}
