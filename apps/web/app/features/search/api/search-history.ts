import { SearchPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';

/** GET /search/v1/searchHistory — the signed-in user's recent terms, newest first (a visitor's is empty). */
export function getSearchHistory(signal?: AbortSignal) {
  return api<string[]>(SearchPaths.history, undefined, { method: 'GET', silent: true, signal });
}
