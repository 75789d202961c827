import type { Suggestion } from '@cfx/contract/search.ts';
import type { AppContext } from '../../context.ts';
import { getSearchIndex, type KindIndex } from './search-index.ts';
import { checkSearchText, highlight, ranked } from './search-text.ts';

export const SUGGEST_LIMITS = { projects: 5, goods: 10, creators: 3 };

function toSuggestions(index: KindIndex, term: string, limit: number, type: Suggestion['type'], newestFirst: boolean): Suggestion[] {
  return ranked(index, term, limit, newestFirst).map((h) => {
    const name = index.names[h.idx]!;
    return { text: highlight(name, term), plainText: name, type, id: index.ids[h.idx]! };
  });
}

/** Search-box suggestions: releases ('0'), collectibles ('1') and creators ('2') whose names contain the text. */
export async function querySuggestions(ctx: AppContext, text: string | null | undefined) {
  const { term } = checkSearchText(text);
  if (!term) return { projects: [], goods: [], creators: [] };
  const index = await getSearchIndex(ctx);
  return {
    projects: toSuggestions(index.projects, term, SUGGEST_LIMITS.projects, '0', true),
    goods: toSuggestions(index.goods, term, SUGGEST_LIMITS.goods, '1', false),
    creators: toSuggestions(index.creators, term, SUGGEST_LIMITS.creators, '2', true),
  };
}
