import { useCallback, useEffect, useState } from 'react';
import { useUserStore } from '../../../stores/user.ts';
import { delSearchHistory } from '../api/del-history.ts';
import { querySuggestions, type Suggestions } from '../api/query-suggestions.ts';
import { getSearchHistory } from '../api/search-history.ts';

export type { Suggestion, Suggestions } from '../api/query-suggestions.ts';

/** Typing pauses this long before suggestions are requested. */
const DEBOUNCE_MS = 200;

export interface SearchSuggestionsState {
  /** null while there is no text (or before the first answer for it). */
  suggestions: Suggestions | null;
  /** The text `suggestions` answer (while a new text loads, the previous answer stays on screen). */
  suggestionsFor: string;
  history: string[];
  loading: boolean;
  removeHistory(kw: string): void;
  clearHistory(): void;
}

/**
 * with text, suggestions from POST /search/v1/query {text} (debounced, stale answers
 * dropped); without text, the signed-in user's history from GET /search/v1/searchHistory, whose
 * items can be deleted (/search/v1/delHistory/). Nothing is requested while the box is closed.
 */
export function useSearchSuggestions(text: string, enabled: boolean): SearchSuggestionsState {
  const token = useUserStore((s) => s.token);
  const [answer, setAnswer] = useState<{ text: string; suggestions: Suggestions } | null>(null);
  const [history, setHistory] = useState<string[]>([]);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    if (!enabled || !text) {
      setAnswer(null);
      setLoading(false);
      return;
    }
    const ctrl = new AbortController();
    setLoading(true);
    const id = window.setTimeout(() => {
      void querySuggestions(text, ctrl.signal).then((r) => {
        if (ctrl.signal.aborted) return;
        setAnswer({ text, suggestions: r.ok && r.data ? r.data : { projects: [], goods: [], creators: [] } });
        setLoading(false);
      });
    }, DEBOUNCE_MS);
    return () => {
      window.clearTimeout(id);
      ctrl.abort();
    };
  }, [text, enabled]);

  const empty = text === '';
  useEffect(() => {
    if (!enabled || !empty) return;
    if (!token) {
      setHistory([]);
      return;
    }
    const ctrl = new AbortController();
    void getSearchHistory(ctrl.signal).then((r) => {
      if (!ctrl.signal.aborted && r.ok) setHistory(Array.isArray(r.data) ? r.data : []);
    });
    return () => ctrl.abort();
  }, [enabled, empty, token]);

  const remove = useCallback((kw: string | null) => {
    const before = history;
    setHistory(kw === null ? [] : history.filter((h) => h !== kw));
    void delSearchHistory(kw).then((r) => {
      if (!r.ok) setHistory(before);
    });
  }, [history]);

  return {
    suggestions: answer?.suggestions ?? null,
    suggestionsFor: answer?.text ?? '',
    history,
    loading,
    removeHistory: remove,
    clearHistory: () => remove(null),
  };
}
