import { useTranslation } from '../../i18n/index.ts';

/** Sold / supply as a bar with the numbers (tabular). */
export function SaleProgress({ sold, supply, remaining }: { sold: number; supply: number; remaining: number }) {
  const { t } = useTranslation();
  const pct = soldPercent(sold, supply);
  return (
    <div data-testid="sale-progress">
      <div className="flex justify-between text-xs text-ink-faint">
        <span className="tabular">{t('catalog.soldOf', { sold, supply })}</span>
        <span className="tabular">{t('catalog.remaining', { count: remaining })}</span>
      </div>
      <div className="mt-1.5 h-2 overflow-hidden rounded-full bg-canvas" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label={t('catalog.soldPercent', { pct })}>
        <div className="h-full rounded-full bg-gradient-to-r from-brand to-accent" style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}

/** Sold share in whole percent (0–100). */
export function soldPercent(sold: number, supply: number): number {
  if (!(supply > 0)) return 0;
  return Math.max(0, Math.min(100, Math.floor((sold / supply) * 100)));
}
