import { useEffect, useMemo, useRef, useState } from 'react';
import { Price } from '../../../components/ui/price.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useLang, useTranslation } from '../../../i18n/index.ts';
import type { PricePoint } from '../api/types.ts';
import { priceStats, toSeries } from '../price-series.ts';

/**
 * Price history: high / low / latest in the HTML, and the chart drawn by lightweight-charts —
 * loaded on the client only, once the chart area comes near the viewport (fixed height: no shift).
 */
export function PriceChart({ points }: { points: PricePoint[] }) {
  const { t } = useTranslation();
  const lang = useLang();
  const box = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'waiting' | 'ready' | 'error'>('waiting');
  const series = useMemo(() => toSeries(points), [points]);
  const stats = priceStats(points);

  useEffect(() => {
    const el = box.current;
    if (!el || series.length === 0) return;
    let dispose: (() => void) | undefined;
    let cancelled = false;
    const load = () => {
      import('./price-chart-draw.ts')
        .then((m) => {
          if (cancelled) return;
          dispose = m.drawPriceChart(el, series, lang === 'zh' ? 'zh-CN' : 'en-US');
          setState('ready');
        })
        .catch((err: unknown) => {
          console.error('[price chart]', err);
          if (!cancelled) setState('error');
        });
    };
    let observer: IntersectionObserver | undefined;
    if (typeof IntersectionObserver === 'undefined') load();
    else {
      observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((e) => e.isIntersecting)) {
            observer?.disconnect();
            load();
          }
        },
        { rootMargin: '200px' },
      );
      observer.observe(el);
    }
    return () => {
      cancelled = true;
      observer?.disconnect();
      dispose?.();
    };
  }, [series, lang]);

  if (!stats) {
    return (
      <p className="py-10 text-center text-ink-faint" data-testid="price-chart-empty">
        {t('catalog.noPriceHistory')}
      </p>
    );
  }
  return (
    <div data-testid="price-chart" data-state={state}>
      <dl className="grid grid-cols-3 gap-3 text-center">
        {(
          [
            ['catalog.latestPrice', stats.last],
            ['catalog.highPrice', stats.high],
            ['catalog.lowPrice', stats.low],
          ] as const
        ).map(([key, fen]) => (
          <div key={key} className="rounded-control bg-canvas px-2 py-2">
            <dt className="text-xs text-ink-faint">{t(key)}</dt>
            <dd className="mt-0.5 font-semibold text-ink">
              <Price fen={fen} />
            </dd>
          </div>
        ))}
      </dl>
      <div className="relative mt-4 h-56" ref={box} aria-label={t('catalog.priceHistory')} role="img">
        {state === 'waiting' && (
          <span className="absolute inset-0 flex items-center justify-center gap-2 text-sm text-ink-faint">
            <Spinner /> {t('catalog.chartLoading')}
          </span>
        )}
        {state === 'error' && <span className="absolute inset-0 flex items-center justify-center text-sm text-ink-faint">{t('common.loadFailed')}</span>}
      </div>
    </div>
  );
}
