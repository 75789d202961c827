import type { z } from 'zod';
import type { suggestions } from '@cfx/contract/search.ts';
import { SearchPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';

/** Suggestions by kind: releases ('0'), collectibles ('1'), creators ('2', this server's addition). */
export type Suggestions = z.infer<typeof suggestions>;
export type Suggestion = Suggestions['projects'][number];

/** POST /search/v1/query {text} — name matches while typing (`text` has the match in <em>…</em>). */
export function querySuggestions(text: string, signal?: AbortSignal) {
  return api<Suggestions>(SearchPaths.query, { text }, { silent: true, signal });
}
