import { useTranslation } from '../../../i18n/index.ts';
import { countdownParts } from '../countdown.ts';

/** [value, unit, two digits] of each part of a countdown, units translated (天/时/分/秒, d/h/m/s). */
export function useCountdownParts(ms: number): Array<[number, string, boolean]> {
  const { t } = useTranslation();
  const p = countdownParts(ms);
  return [
    [p.days, t('catalog.units.day'), false],
    [p.hours, t('catalog.units.hour'), true],
    [p.minutes, t('catalog.units.minute'), true],
    [p.seconds, t('catalog.units.second'), true],
  ];
}

/** A countdown in 天/时/分/秒 (English d/h/m/s), tabular figures, on one line. */
export function Countdown({ ms, className = '' }: { ms: number; className?: string }) {
  const parts = useCountdownParts(ms);
  return (
    <span className={`tabular whitespace-nowrap ${className}`} data-testid="countdown" role="timer">
      {parts.map(([n, unit, two]) => (
        <span key={unit}>
          {two ? String(n).padStart(2, '0') : n}
          {unit}
        </span>
      ))}
    </span>
  );
}
