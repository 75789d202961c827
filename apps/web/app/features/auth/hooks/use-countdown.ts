import { useEffect, useState } from 'react';
import { useAuthOverlay, type CountdownKey } from '../../../stores/auth-overlay.ts';

/** Seconds left on a view's SMS countdown (0 when idle); ticks once a second. */
export function useCountdown(key: CountdownKey): number {
  const end = useAuthOverlay((s) => s.countdownEnds[key]);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    if (end <= Date.now()) return;
    const id = setInterval(() => {
      const t = Date.now();
      setNow(t);
      if (t >= end) clearInterval(id);
    }, 1000);
    return () => clearInterval(id);
  }, [end]);
  return Math.max(0, Math.ceil((end - now) / 1000));
}
