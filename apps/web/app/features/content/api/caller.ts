import type { api } from '../../../lib/api.ts';

/** The browser's `api()` or a route loader's server caller — same arguments, same result. */
export type Caller = typeof api;
