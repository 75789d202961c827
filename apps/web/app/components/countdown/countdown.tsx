import { Fragment, useEffect, useEffectEvent } from 'react';
import { useTranslation } from '../../i18n/index.ts';
import { countdownParts } from './split.ts';
import { useClock } from './use-clock.ts';

/**
 * How a countdown looks:
 * - `inline`: 1天02时03分04秒 on one line (cards, release facts, phases);
 * - `tiles`: each part a dark tile with its unit below the baseline (the dropping and mint pages);
 * - `cells`: only the parts that matter (no 0 days / hours), units small (payment windows).
 */
export type CountdownVariant = 'inline' | 'tiles' | 'cells';

/** A countdown of `ms` milliseconds in 天/时/分/秒 (English d/h/m/s): seconds rounded up (split.ts). */
export function Countdown({ ms, variant = 'inline', className = '', testId = 'countdown' }: { ms: number; variant?: CountdownVariant; className?: string; testId?: string }) {
  const { t } = useTranslation();
  const p = countdownParts(ms);
  const parts: Array<[number, string, boolean]> = [
    [p.days, t('catalog.units.day'), false],
    [p.hours, t('catalog.units.hour'), true],
    [p.minutes, t('catalog.units.minute'), true],
    [p.seconds, t('catalog.units.second'), true],
  ];
  const common = { 'data-testid': testId, 'data-ms': Math.max(0, Math.round(ms) || 0), role: 'timer' } as const;
  const num = (n: number, two: boolean) => (two ? String(n).padStart(2, '0') : String(n));
  if (variant === 'tiles') {
    return (
      <span className={`inline-flex items-end gap-2 ${className}`} {...common}>
        {parts.map(([n, unit, two]) => (
          <span key={unit} className="inline-flex items-baseline gap-1">
            <span className="tabular inline-flex min-w-[2.6rem] justify-center rounded-control bg-night px-2 py-1.5 text-2xl font-semibold text-white">{num(n, two)}</span>
            <span className="text-sm text-ink-soft">{unit}</span>
          </span>
        ))}
      </span>
    );
  }
  if (variant === 'cells') {
    const shown = parts.filter((_, i) => (i === 0 ? p.days > 0 : i === 1 ? p.days > 0 || p.hours > 0 : true));
    return (
      <span className={`inline-flex items-baseline ${className}`} {...common} aria-live="off">
        {shown.map(([n, unit]) => (
          <Fragment key={unit}>
            <span className="tabular font-semibold">{num(n, true)}</span>
            <span className="mx-0.5 text-xs">{unit.trim()}</span>
          </Fragment>
        ))}
      </span>
    );
  }
  return (
    <span className={`tabular whitespace-nowrap ${className}`} {...common}>
      {parts.map(([n, unit, two]) => (
        <span key={unit}>
          {num(n, two)}
          {unit}
        </span>
      ))}
    </span>
  );
}

/**
 * A countdown to `deadline` (browser epoch ms, e.g. a query's dataUpdatedAt + the remaining ms the
 * server sent, so the server's clock does not matter) that ticks by itself and calls `onEnd` once
 * when it reaches zero.
 */
export function DeadlineCountdown({ deadline, onEnd, variant = 'cells', className, testId }: { deadline: number; onEnd?: () => void; variant?: CountdownVariant; className?: string; testId?: string }) {
  const now = useClock({ until: deadline });
  const left = Math.max(0, deadline - now);
  const ended = left === 0;
  // The latest onEnd, called when the countdown reaches zero (not again on each re-render at zero).
  const end = useEffectEvent(() => onEnd?.());
  useEffect(() => {
    if (ended) end();
  }, [ended]);
  return <Countdown ms={left} variant={variant} className={className} testId={testId} />;
}
