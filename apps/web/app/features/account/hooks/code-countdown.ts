import { useEffect, useState } from 'react';
import { create } from 'zustand';

/**
 * The 60-second resend countdowns of the security dialogs. `security` is the code to
 * the user's own phone — shared by every dialog that asks for it, as the server's resend interval
 * is per phone; `newMobile` is the code to the new phone of a phone change.
 */
export type CodeCountdownKey = 'security' | 'newMobile';

interface CountdownState {
  ends: Record<CodeCountdownKey, number>;
  start(key: CodeCountdownKey, seconds: number): void;
}

export const useCodeCountdowns = create<CountdownState>()((set) => ({
  ends: { security: 0, newMobile: 0 },
  start: (key, seconds) => set((s) => ({ ends: { ...s.ends, [key]: Date.now() + seconds * 1000 } })),
}));

/** Seconds left on a countdown (0 when idle); ticks once a second. */
export function useCodeCountdown(key: CodeCountdownKey): number {
  const end = useCodeCountdowns((s) => s.ends[key]);
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
