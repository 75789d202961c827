import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@cfx/contract/limits.ts';
import { useSearchSuggestions } from '../hooks/use-search-suggestions.ts';

/**
 * Header search box: at most 20 characters; submitting goes to /search-object?str=….
 * Suggestions and history are provided by useSearchSuggestions (filled in by the search issue).
 */
export function SearchBox({ dark, autoFocus = false, onDone }: { dark: boolean; autoFocus?: boolean; onDone?: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const initial = location.pathname === '/search-object' ? (params.get('str') ?? '') : '';
  const [text, setText] = useState(initial.slice(0, LIMITS.searchMax));
  const [focused, setFocused] = useState(false);
  const { suggestions, history } = useSearchSuggestions(text.trim(), focused);

  function submit(e: FormEvent) {
    e.preventDefault();
    const str = text.trim();
    if (!str) return;
    navigate(`/search-object?str=${encodeURIComponent(str)}`);
    setFocused(false);
    onDone?.();
  }

  const showPanel = focused && (text.trim() ? suggestions.length > 0 : history.length > 0);

  return (
    <form role="search" onSubmit={submit} className="relative" data-testid="header-search">
      <input
        type="search"
        value={text}
        maxLength={LIMITS.searchMax}
        autoFocus={autoFocus}
        onChange={(e) => setText(e.target.value.slice(0, LIMITS.searchMax))}
        onFocus={() => setFocused(true)}
        onBlur={() => setTimeout(() => setFocused(false), 150)}
        placeholder={t('header.searchPlaceholder')}
        aria-label={t('header.search')}
        data-testid="header-search-input"
        className={`h-9 w-full rounded-full border pl-4 pr-10 text-sm outline-none transition-colors lg:w-56 ${
          dark
            ? 'border-white/25 bg-white/10 text-white placeholder:text-white/60 focus:border-white/60'
            : 'border-line bg-canvas text-ink placeholder:text-ink-faint focus:border-brand'
        }`}
      />
      <button
        type="submit"
        aria-label={t('header.search')}
        data-testid="header-search-submit"
        className={`absolute right-1 top-1/2 flex size-7 -translate-y-1/2 items-center justify-center rounded-full ${dark ? 'text-white/80' : 'text-ink-faint hover:text-brand'}`}
      >
        <SearchIcon />
      </button>
      {showPanel && (
        <div className="absolute left-0 right-0 top-11 z-50 rounded-card bg-surface p-2 text-ink shadow-pop" data-testid="search-panel">
          <p className="px-2 py-1 text-xs text-ink-faint">{text.trim() ? t('search.suggestions') : t('search.history')}</p>
          {(text.trim() ? suggestions.map((s) => s.plainText) : history).map((item) => (
            <button
              key={item}
              type="button"
              className="block w-full rounded px-2 py-1.5 text-left text-sm hover:bg-canvas"
              onMouseDown={() => navigate(`/search-object?str=${encodeURIComponent(item)}`)}
            >
              {item}
            </button>
          ))}
        </div>
      )}
    </form>
  );
}

export function SearchIcon({ className = 'size-4' }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth="2" aria-hidden>
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" strokeLinecap="round" />
    </svg>
  );
}
