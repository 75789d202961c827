import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../../i18n/index.ts';
import { Thumb } from '../../../components/ui/thumb.tsx';
import type { Banner } from '../api/types.ts';

const INTERVAL_MS = 5000;

/**
 * The home banners (5:2): a horizontal scroll-snap strip — it works without JS (swipe/scroll) and,
 * once hydrated, advances every 5 s (paused on hover/focus) with dots to pick a slide. The home hero
 * (indexBanner) and the news page (newsBannerList) use it.
 */
export function BannerCarousel({ banners, testId = 'home-banners', label }: { banners: Banner[]; testId?: string; label?: string }) {
  const { t } = useTranslation();
  const strip = useRef<HTMLDivElement>(null);
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);

  const go = (i: number) => {
    const el = strip.current;
    if (!el) return;
    el.scrollTo({ left: i * el.clientWidth, behavior: 'smooth' });
  };

  useEffect(() => {
    if (paused || banners.length < 2) return;
    const id = window.setInterval(() => go((index + 1) % banners.length), INTERVAL_MS);
    return () => window.clearInterval(id);
  }, [index, paused, banners.length]);

  return (
    <div
      className="relative"
      data-testid={testId}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <div
        ref={strip}
        className="flex snap-x snap-mandatory overflow-x-auto rounded-card [scrollbar-width:none] [&::-webkit-scrollbar]:hidden"
        onScroll={(e) => {
          const el = e.currentTarget;
          setIndex(Math.round(el.scrollLeft / Math.max(1, el.clientWidth)));
        }}
        aria-roledescription="carousel"
        aria-label={label ?? t('homeModules.banners')}
      >
        {banners.map((b, i) => {
          const inner = (
            <>
              <Thumb src={b.image} alt={b.title} width={600} height={240} eager={i === 0} className="aspect-[5/2] w-full object-cover" />
              <span className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/70 to-transparent px-5 pb-4 pt-10 text-left text-white">
                <span className="block text-lg font-semibold leading-snug">{b.title}</span>
                {b.subtitle && <span className="mt-0.5 block text-sm text-white/80">{b.subtitle}</span>}
              </span>
            </>
          );
          const cls = 'relative block w-full shrink-0 snap-start';
          if (!/^(https?:\/\/|\/(?!\/))/.test(b.url)) {
            return (
              <div key={b.id} className={cls} data-testid="banner" aria-roledescription="slide">
                {inner}
              </div>
            );
          }
          return b.linkType === 'url' ? (
            <a key={b.id} href={b.url} target="_blank" rel="noopener noreferrer" className={cls} data-testid="banner" aria-roledescription="slide">
              {inner}
            </a>
          ) : (
            <Link key={b.id} to={b.url} prefetch="intent" className={cls} data-testid="banner" aria-roledescription="slide">
              {inner}
            </Link>
          );
        })}
      </div>
      {banners.length > 1 && (
        // Each dot sits in a 24 px tall target (WCAG target size); the dots themselves stay small.
        <div className="absolute right-3 top-[7px] flex">
          {banners.map((b, i) => (
            <button
              key={b.id}
              type="button"
              aria-label={t('homeModules.slide', { n: i + 1 })}
              aria-current={i === index ? 'true' : undefined}
              onClick={() => go(i)}
              className="flex h-6 min-w-6 items-center justify-center px-0.5"
            >
              <span aria-hidden className={`block h-1.5 rounded-full transition-all ${i === index ? 'w-6 bg-white' : 'w-1.5 bg-white/50'}`} />
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
