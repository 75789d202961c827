import { lazy, Suspense, useId, useRef, useState, type FocusEvent, type FormEvent, type KeyboardEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { LIMITS } from '@cfx/contract/limits.ts';
import { useUserStore } from '../../../stores/user.ts';
import { recordSearch } from '../api/record-search.ts';

/** The suggestions/history panel is its own chunk, loaded when the box is first opened. */
const SearchPanel = lazy(() => import('./search-panel.tsx'));

/** What the box asks of the loaded panel (keyboard navigation). */
export interface PanelHandle {
  /** Arrow keys move the active option; returns true when the key was used. */
  onKey(e: KeyboardEvent<HTMLInputElement>): boolean;
  /** Enter: picks the active option; returns false when none is active. */
  pickActive(): boolean;
}

/**
 * Header search box: at most 20 characters; submitting records the term
 * (POST queryFinal with the token, when signed in) and opens /search-object?str=…. While typing the
 * panel shows suggestions, when empty the search history (search-panel.tsx). Escape closes.
 */
export function SearchBox({ dark, autoFocus = false, onDone }: { dark: boolean; autoFocus?: boolean; onDone?: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const listId = useId();
  const input = useRef<HTMLInputElement>(null);
  const panel = useRef<PanelHandle | null>(null);
  const initial = location.pathname === '/search-object' ? (params.get('str') ?? '') : '';
  const [text, setText] = useState(initial.slice(0, LIMITS.searchMax));
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const [visible, setVisible] = useState(false);
  const [activeId, setActiveId] = useState<string | undefined>();

  function show() {
    setOpen(true);
    setLoaded(true);
  }

  function leave(to: string) {
    setOpen(false);
    input.current?.blur();
    navigate(to);
    onDone?.();
  }

  function search(str: string) {
    const value = str.trim().slice(0, LIMITS.searchMax);
    if (!value) return;
    if (useUserStore.getState().token) void recordSearch(value);
    setText(value);
    leave(`/search-object?str=${encodeURIComponent(value)}`);
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (open && panel.current?.pickActive()) return;
    search(text);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'Escape') return setOpen(false);
    if (!open && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) show();
    if (panel.current?.onKey(e)) e.preventDefault();
  }

  // Close when focus leaves the whole box (input and panel).
  function onBlur(e: FocusEvent<HTMLFormElement>) {
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOpen(false);
  }

  return (
    <form role="search" onSubmit={submit} onBlur={onBlur} className="relative" data-testid="header-search">
      <input
        ref={input}
        type="search"
        value={text}
        maxLength={LIMITS.searchMax}
        autoFocus={autoFocus}
        onChange={(e) => {
          setText(e.target.value.slice(0, LIMITS.searchMax));
          show();
        }}
        onFocus={show}
        onClick={show}
        onKeyDown={onKeyDown}
        placeholder={t('header.searchPlaceholder')}
        aria-label={t('header.search')}
        role="combobox"
        aria-expanded={open && visible}
        aria-controls={open && visible ? listId : undefined}
        aria-autocomplete="list"
        aria-activedescendant={open && visible ? activeId : undefined}
        autoComplete="off"
        data-testid="header-search-input"
        className={`h-9 w-full rounded-full border pl-4 pr-10 text-sm outline-none transition-colors lg:w-36 xl:w-56 ${
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
      {loaded && (
        <Suspense fallback={null}>
          <SearchPanel
            open={open}
            term={text.trim()}
            listId={listId}
            handle={panel}
            onSearch={search}
            onNavigate={leave}
            onActiveId={setActiveId}
            onVisible={setVisible}
          />
        </Suspense>
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
