import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import type { NewsCard } from '../api/types.ts';

/** Announcement ticker: one headline at a time, moving up every 4 s (all headlines are in the HTML). */
export function Marquee({ items }: { items: NewsCard[] }) {
  const { t } = useTranslation();
  const [i, setI] = useState(0);
  const [paused, setPaused] = useState(false);
  useEffect(() => {
    if (paused || items.length < 2) return;
    const id = window.setInterval(() => setI((n) => (n + 1) % items.length), 4000);
    return () => window.clearInterval(id);
  }, [paused, items.length]);
  return (
    <div
      className="flex h-11 items-center gap-3 text-sm"
      data-testid="home-marquee"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <span className="shrink-0 rounded bg-brand-soft px-2 py-0.5 text-xs font-medium text-brand">{t('homeModules.notice')}</span>
      <div className="relative h-6 min-w-0 flex-1 overflow-hidden">
        <ul className="transition-transform duration-500 motion-reduce:transition-none" style={{ transform: `translateY(-${i * 1.5}rem)` }}>
          {items.map((n, k) => (
            <li key={n.id} className="h-6 truncate leading-6" aria-hidden={k !== i ? 'true' : undefined}>
              <Link to={`/news/${n.id}`} tabIndex={k === i ? 0 : -1} className="text-ink-soft hover:text-brand" data-testid="marquee-item">
                {n.title}
              </Link>
            </li>
          ))}
        </ul>
      </div>
      <Link to="/news" className="shrink-0 text-xs text-ink-faint hover:text-brand">
        {t('homeModules.more')}
      </Link>
    </div>
  );
}
