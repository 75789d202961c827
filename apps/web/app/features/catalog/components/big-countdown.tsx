import { useCountdownParts } from './countdown.tsx';

/** The dropping page's countdown: each part a dark tile with its unit (天/时/分/秒). */
export function BigCountdown({ ms, className = '' }: { ms: number; className?: string }) {
  const parts = useCountdownParts(ms);
  return (
    <span className={`inline-flex items-end gap-2 ${className}`} data-testid="countdown" role="timer">
      {parts.map(([n, unit, two]) => (
        <span key={unit} className="inline-flex items-baseline gap-1">
          <span className="tabular inline-flex min-w-[2.6rem] justify-center rounded-control bg-night px-2 py-1.5 text-2xl font-semibold text-white">
            {two ? String(n).padStart(2, '0') : n}
          </span>
          <span className="text-sm text-ink-soft">{unit}</span>
        </span>
      ))}
    </span>
  );
}
