/**
 * Tabs of the search results page (pure, unit-tested): releases, collectibles, creators, each with
 * the `type` of POST /search/v1/queryFinal that pages it.
 */
export const SEARCH_TABS = ['projects', 'goods', 'creators'] as const;
export type SearchTab = (typeof SEARCH_TABS)[number];

export const TAB_TYPE: Record<SearchTab, '0' | '1' | '2'> = { projects: '0', goods: '1', creators: '2' };

export function parseTab(value: string | null): SearchTab | null {
  return (SEARCH_TABS as readonly string[]).includes(value ?? '') ? (value as SearchTab) : null;
}

/** Without a chosen tab: the first one with results (releases when nothing matched). */
export function pickTab(chosen: SearchTab | null, totals: Record<SearchTab, number>): SearchTab {
  if (chosen) return chosen;
  return SEARCH_TABS.find((tab) => totals[tab] > 0) ?? 'projects';
}
