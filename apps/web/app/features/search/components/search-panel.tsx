import { useEffect, useState, type RefObject } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { highlightParts, suggestionHref } from '../highlight.ts';
import { useSearchSuggestions, type Suggestion } from '../hooks/use-search-suggestions.ts';
import { SearchIcon, type PanelHandle } from './search-box.tsx';

type Option = { kind: 'search'; text: string } | { kind: 'suggestion'; s: Suggestion } | { kind: 'history'; text: string };

const GROUPS = [
  ['projects', 'search.groupProjects'],
  ['goods', 'search.groupGoods'],
  ['creators', 'search.groupCreators'],
] as const;

/**
 * The search box's panel (lazy chunk): with text, "search for …" and the suggestions (releases,
 * collectibles, creators; the match highlighted); without text, the signed-in user's history with
 * a delete button per term and "clear". Arrow keys move through the options (via `handle`).
 */
export default function SearchPanel({
  open,
  term,
  listId,
  handle,
  onSearch,
  onNavigate,
  onActiveId,
  onVisible,
}: {
  open: boolean;
  term: string;
  listId: string;
  handle: RefObject<PanelHandle | null>;
  onSearch(text: string): void;
  onNavigate(to: string): void;
  onActiveId(id: string | undefined): void;
  onVisible(visible: boolean): void;
}) {
  const { t } = useTranslation();
  const { suggestions, suggestionsFor, history, loading, removeHistory, clearHistory } = useSearchSuggestions(term, open);
  const [active, setActive] = useState(-1);

  const options: Option[] = term
    ? [{ kind: 'search', text: term }, ...GROUPS.flatMap(([key]) => (suggestions?.[key] ?? []).map((s): Option => ({ kind: 'suggestion', s })))]
    : history.map((text): Option => ({ kind: 'history', text }));
  const visible = open && (term !== '' || history.length > 0);
  const optionId = (i: number) => `${listId}-o${i}`;

  const pick = (o: Option) => (o.kind === 'suggestion' ? onNavigate(suggestionHref(o.s)) : onSearch(o.text));

  // The active option resets when the list changes or the panel closes.
  const signature = `${open}|${term}|${options.length}`;
  useEffect(() => setActive(-1), [signature]);
  useEffect(() => onActiveId(active >= 0 ? optionId(active) : undefined));
  useEffect(() => onVisible(visible), [visible, onVisible]);

  handle.current = {
    onKey(e) {
      if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return false;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      // -1 is the input itself; the options follow.
      setActive((i) => {
        const next = i + step;
        return next < -1 ? options.length - 1 : next >= options.length ? -1 : next;
      });
      return true;
    },
    pickActive() {
      const o = visible ? options[active] : undefined;
      if (o) pick(o);
      return Boolean(o);
    },
  };

  if (!visible) return null;
  const rowClass = (i: number) => `flex w-full items-center gap-2 rounded px-2 py-1.5 text-left text-sm ${i === active ? 'bg-canvas text-brand' : 'hover:bg-canvas'}`;
  let index = 1;
  return (
    <div
      id={listId}
      role="listbox"
      aria-label={term ? t('search.suggestions') : t('search.history')}
      className="absolute right-0 top-11 z-50 max-h-[70vh] w-full min-w-72 overflow-y-auto rounded-card bg-surface p-2 text-ink shadow-pop"
      data-testid="search-panel"
      data-mode={term ? 'suggestions' : 'history'}
      // The text the shown suggestions belong to: the previous text's stay (dimmed) until the new answer.
      data-term={suggestionsFor}
      aria-busy={loading}
      // Clicks in the panel keep the focus in the input (the panel stays open until the pick).
      onMouseDown={(e) => e.preventDefault()}
    >
      {term ? (
        <>
          <button type="button" role="option" id={optionId(0)} aria-selected={active === 0} tabIndex={-1} className={rowClass(0)} onClick={() => onSearch(term)} data-testid="search-submit-row">
            <SearchIcon className="size-3.5 shrink-0 text-ink-faint" />
            <span className="truncate">{t('search.searchFor', { str: term })}</span>
          </button>
          {loading && !suggestions ? (
            <p className="flex items-center gap-2 px-2 py-2 text-xs text-ink-faint" role="status" data-testid="search-loading">
              <Spinner className="size-3" /> {t('common.loading')}
            </p>
          ) : suggestions && GROUPS.every(([key]) => suggestions[key].length === 0) ? (
            <p className="px-2 py-2 text-xs text-ink-faint" data-testid="search-no-suggestions">
              {t('search.noSuggestions')}
            </p>
          ) : (
            GROUPS.map(([key, label]) => {
              const list = suggestions?.[key] ?? [];
              if (list.length === 0) return null;
              return (
                <div key={key} className={`mt-1 ${suggestionsFor === term ? '' : 'opacity-60'}`} role="group" aria-label={t(label)}>
                  <p className="px-2 pb-0.5 pt-1.5 text-xs text-ink-faint" aria-hidden>
                    {t(label)}
                  </p>
                  {list.map((s) => {
                    const i = index++;
                    return (
                      <button
                        key={`${s.type}-${s.id}`}
                        type="button"
                        role="option"
                        id={optionId(i)}
                        aria-selected={active === i}
                        tabIndex={-1}
                        className={rowClass(i)}
                        onClick={() => pick({ kind: 'suggestion', s })}
                        data-testid="search-suggestion"
                        data-type={s.type}
                        data-id={s.id}
                      >
                        <span className="truncate">
                          {highlightParts(s.text).map((part, k) =>
                            part.em ? (
                              <mark key={k} className="bg-transparent font-semibold text-brand">
                                {part.text}
                              </mark>
                            ) : (
                              <span key={k}>{part.text}</span>
                            ),
                          )}
                        </span>
                      </button>
                    );
                  })}
                </div>
              );
            })
          )}
        </>
      ) : (
        <>
          <div className="flex items-center justify-between px-2 py-1">
            <p className="text-xs text-ink-faint">{t('search.history')}</p>
            <button type="button" className="text-xs text-ink-faint hover:text-brand" onClick={clearHistory} data-testid="search-history-clear">
              {t('search.clearHistory')}
            </button>
          </div>
          {history.map((h, i) => (
            <div key={h} className={`${rowClass(i)} py-0 pr-0`} data-testid="search-history-item" data-kw={h}>
              <button type="button" role="option" id={optionId(i)} aria-selected={active === i} tabIndex={-1} className="min-w-0 flex-1 truncate py-1.5 text-left" onClick={() => onSearch(h)}>
                {h}
              </button>
              <button
                type="button"
                aria-label={t('search.deleteHistory', { kw: h })}
                className="flex size-7 shrink-0 items-center justify-center rounded text-ink-faint hover:text-danger"
                onClick={() => removeHistory(h)}
                data-testid="search-history-delete"
              >
                <svg viewBox="0 0 12 12" className="size-3" fill="none" stroke="currentColor" strokeWidth="1.5" aria-hidden>
                  <path d="m3 3 6 6M9 3 3 9" strokeLinecap="round" />
                </svg>
              </button>
            </div>
          ))}
        </>
      )}
    </div>
  );
}
