/**
 * The one countdown splitter of the web app (pure, unit-tested). Remaining time is counted in whole
 * seconds ROUNDED UP: 999 ms left is 1 s, exactly 3000 ms is 3 s, and 0 is shown only once the
 * moment has come (or passed). So a countdown to a sale start never reads 0 before the start, and
 * an SMS resend button never unlocks a moment early.
 */
export interface CountdownParts {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/** Whole seconds left of `ms` milliseconds, rounded up; 0 when past, zero or not a number. */
export function secondsLeft(ms: number): number {
  return Number.isFinite(ms) && ms > 0 ? Math.ceil(ms / 1000) : 0;
}

/** Days, hours, minutes and seconds of `ms` milliseconds left (seconds rounded up, see above). */
export function countdownParts(ms: number): CountdownParts {
  const total = secondsLeft(ms);
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
  };
}

/**
 * Milliseconds until a countdown of `ms` left shows its next value (with seconds rounded up, when
 * the time left crosses the next whole second): 2500 → 500, 3000 → 1000; 0 when past.
 */
export function msToNextSecond(ms: number): number {
  if (!(Number.isFinite(ms) && ms > 0)) return 0;
  return ms % 1000 || 1000;
}
