import { useEffect, useRef, useState } from 'react';
import type { SalesDay } from '@cfx/contract/admin.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useLang } from '../../../i18n/index.ts';
import { useAdminT } from '../i18n.ts';

/** One chart drawn by lightweight-charts, loaded lazily in the browser (fixed height: no layout shift). */
function Chart({ days, kind, testId }: { days: SalesDay[]; kind: 'gmv' | 'orders'; testId: string }) {
  const t = useAdminT();
  const lang = useLang();
  const box = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'waiting' | 'ready' | 'error'>('waiting');
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let dispose: (() => void) | undefined;
    let cancelled = false;
    const locale = lang === 'zh' ? 'zh-CN' : 'en-US';
    import('./sales-chart-draw.ts')
      .then((m) => {
        if (cancelled) return;
        dispose =
          kind === 'gmv'
            ? m.drawGmv(el, days, locale, { total: t('dashboard.gmv'), primary: t('dashboard.primary'), resale: t('dashboard.resale') })
            : m.drawOrders(el, days, locale, t('dashboard.orders'));
        setState('ready');
      })
      .catch((err: unknown) => {
        console.error('[sales chart]', err);
        if (!cancelled) setState('error');
      });
    return () => {
      cancelled = true;
      dispose?.();
    };
  }, [days, kind, lang, t]);
  return (
    <div className="card p-4" data-testid={testId} data-state={state}>
      <p className="mb-2 text-sm font-medium text-ink">{kind === 'gmv' ? t('dashboard.chartGmv') : t('dashboard.chartOrders')}</p>
      <div className="relative h-64" ref={box}>
        {state === 'waiting' && (
          <span className="absolute inset-0 flex items-center justify-center gap-2 text-sm text-ink-faint">
            <Spinner /> {t('dashboard.chartLoading')}
          </span>
        )}
        {state === 'error' && <span className="absolute inset-0 flex items-center justify-center text-sm text-ink-faint">{t('common.loadFailed')}</span>}
      </div>
    </div>
  );
}

export function SalesCharts({ days }: { days: SalesDay[] }) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Chart days={days} kind="gmv" testId="admin-chart-gmv" />
      <Chart days={days} kind="orders" testId="admin-chart-orders" />
    </div>
  );
}
