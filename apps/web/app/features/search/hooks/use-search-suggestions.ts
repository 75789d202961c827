/**
 * HOOK for the search issue (spec §2, §7): suggestions come from POST /search/v1/query {text}
 * (data.projects, data.goods) only when there is text; with no text the history comes from
 * GET /search/v1/searchHistory (a list of strings) and can be deleted with /search/v1/delHistory/.
 *
 * Until that issue lands this returns empty lists, and the search box renders nothing extra.
 */
export interface SearchSuggestion {
  text: string;
  plainText: string;
  /** '0' project, '1' collectible */
  type: '0' | '1';
  id: string;
}

export interface SearchSuggestions {
  suggestions: SearchSuggestion[];
  history: string[];
  loading: boolean;
}

export function useSearchSuggestions(_text: string, _enabled: boolean): SearchSuggestions {
  return { suggestions: [], history: [], loading: false };
}
