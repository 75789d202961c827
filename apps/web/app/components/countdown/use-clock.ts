import { useEffect, useState } from 'react';
import { msToNextSecond, secondsLeft } from './split.ts';

/**
 * The current time, ticking once a second: the one clock behind every countdown.
 *
 * - `serverTime` (a loader's server clock): the first render (server and hydration) returns it, so
 *   both print the same countdown; after mounting, the browser clock with the offset to the server
 *   clock measured at that moment.
 * - `until` (epoch ms on the same clock): ticks on the whole seconds before it, so a countdown
 *   rounded up (split.ts) moves to its next value on time and reaches 0 right at `until`; then it
 *   stops ticking (nothing to count).
 */
export function useClock({ serverTime, until }: { serverTime?: number; until?: number } = {}): number {
  const [now, setNow] = useState(() => serverTime ?? Date.now());
  useEffect(() => {
    const offset = serverTime === undefined ? 0 : serverTime - Date.now();
    const read = () => Date.now() + offset;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = () => {
      const t = read();
      setNow(t);
      if (until === undefined || t >= until) return;
      timer = setTimeout(tick, msToNextSecond(until - t));
    };
    tick();
    if (until !== undefined) return () => clearTimeout(timer);
    const id = setInterval(tick, 1000);
    return () => clearInterval(id);
  }, [serverTime, until]);
  return now;
}

/** Whole seconds left until `end` (browser epoch ms; 0 when idle or past), ticking; see split.ts for the rounding. */
export function useSecondsLeft(end: number): number {
  const now = useClock({ until: end });
  return secondsLeft(end - now);
}
