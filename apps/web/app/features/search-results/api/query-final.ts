import type { z } from 'zod';
import type { searchResults } from '@cfx/contract/search.ts';
import { SearchPaths } from '@cfx/contract/routes.ts';
import type { api } from '../../../lib/api.ts';

export type SearchResults = z.infer<typeof searchResults>;
/** Which list gets the page: 'all' (each), '0' releases, '1' collectibles, '2' creators; the others come back with totals only. */
export type SearchType = 'all' | '0' | '1' | '2';

/** POST /search/v1/queryFinal {text, pageNum, pageSize, type} — the results page (records history only with a token). */
export function queryFinal(call: typeof api, q: { text: string; pageNum: number; pageSize: number; type: SearchType }) {
  return call<SearchResults>(SearchPaths.queryFinal, q);
}
