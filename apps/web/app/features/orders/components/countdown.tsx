import { useEffect, useEffectEvent, useState } from 'react';
import { useTranslation } from '../../../i18n/index.ts';
import { countdownParts } from '../status.ts';

/**
 * Time left until `deadline` (a browser-clock epoch ms, e.g. dataUpdatedAt + remainingMs, so the
 * server's clock does not matter), ticking each second as 天/时/分/秒. Calls `onEnd` once at zero.
 */
export function Countdown({ deadline, onEnd, className = '', testId = 'countdown' }: { deadline: number; onEnd?: () => void; className?: string; testId?: string }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [deadline]);
  const left = Math.max(0, deadline - now);
  const ended = left === 0;
  // The latest onEnd, called when the countdown reaches zero (not again on each re-render at zero).
  const end = useEffectEvent(() => onEnd?.());
  useEffect(() => {
    if (ended) end();
  }, [ended]);
  const p = countdownParts(left);
  const cell = (n: number, unit: string) => (
    <>
      <span className="tabular font-semibold">{String(n).padStart(2, '0')}</span>
      <span className="mx-0.5 text-xs">{unit}</span>
    </>
  );
  return (
    <span className={`inline-flex items-baseline ${className}`} data-testid={testId} data-ms={left} role="timer" aria-live="off">
      {p.d > 0 && cell(p.d, t('orders.units.day'))}
      {(p.d > 0 || p.h > 0) && cell(p.h, t('orders.units.hour'))}
      {cell(p.m, t('orders.units.minute'))}
      {cell(p.s, t('orders.units.second'))}
    </span>
  );
}
