import { SearchPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';

/** POST /search/v1/delHistory/ {kw} — removes one term; {all: true} clears the history. */
export function delSearchHistory(kw: string | null) {
  return api<null>(SearchPaths.delHistory, kw === null ? { all: true } : { kw });
}
