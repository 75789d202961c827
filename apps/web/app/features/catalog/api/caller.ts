import type { api } from '../../../lib/api.ts';

/**
 * What the operation files call: the browser's `api()` (lib/api.ts) or, in route loaders, the
 * server's `serverApi(request)` (server-api.server.ts) — same arguments, same result.
 */
export type Caller = typeof api;
