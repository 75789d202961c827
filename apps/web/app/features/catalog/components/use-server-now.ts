import { useEffect, useState } from 'react';

/**
 * The current server time, ticking every second. The first render (server and hydration) uses
 * `serverTime` from the loader, so both print the same countdown; after mounting, the browser clock
 * is used with the offset to the server clock measured at that moment.
 */
export function useServerNow(serverTime: number): number {
  const [now, setNow] = useState(serverTime);
  useEffect(() => {
    const offset = serverTime - Date.now();
    const tick = () => setNow(Date.now() + offset);
    tick();
    const id = window.setInterval(tick, 1000);
    return () => window.clearInterval(id);
  }, [serverTime]);
  return now;
}
