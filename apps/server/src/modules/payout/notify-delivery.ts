/**
 * How the sandbox provider delivers its asynchronous notifies: an HTTP POST
 * (application/x-www-form-urlencoded, like Alipay) to the notify URL, retried until the answer
 * is the text `success` (0.5 s, 2 s, 5 s, 15 s, 30 s, 60 s). A relative URL — only when the
 * server is not listening on a socket (API tests using inject) — is delivered through `local`.
 */
const RETRY_MS = [0, 500, 2000, 5000, 15_000, 30_000, 60_000];

export type LocalDelivery = (path: string, body: string) => Promise<string>;

export function createNotifier(local: LocalDelivery, log: (msg: string, extra?: unknown) => void = () => {}) {
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  const pending = new Set<Promise<boolean>>();

  async function attempt(url: string, body: string): Promise<boolean> {
    try {
      if (/^https?:\/\//.test(url)) {
        const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body, signal: AbortSignal.timeout(10_000) });
        return (await res.text()).trim() === 'success';
      }
      return (await local(url, body)).trim() === 'success';
    } catch (err) {
      log('sandbox notify delivery failed', { url, err: String(err) });
      return false;
    }
  }

  return {
    /** Starts delivering; resolves true once acknowledged (false if every retry failed or stopped). */
    send(url: string, params: Record<string, string>): Promise<boolean> {
      const body = new URLSearchParams(params).toString();
      const p = new Promise<boolean>((resolve) => {
        const run = (i: number) => {
          if (stopped) return resolve(false);
          const t = setTimeout(async () => {
            timers.delete(t);
            if (await attempt(url, body)) return resolve(true);
            if (i + 1 < RETRY_MS.length) run(i + 1);
            else resolve(false);
          }, RETRY_MS[i]);
          timers.add(t);
        };
        run(0);
      });
      pending.add(p);
      void p.finally(() => pending.delete(p));
      return p;
    },
    /** Waits for deliveries in progress (tests). */
    async idle() {
      await Promise.allSettled([...pending]);
    },
    stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
export type Notifier = ReturnType<typeof createNotifier>;
