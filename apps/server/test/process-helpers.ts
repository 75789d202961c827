import net from 'node:net';

/** Helpers of the tests that run real server processes (worker-processes, worker-failover). */

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A free loopback TCP port. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Polls `f` every 100 ms until it gives a truthy value; throws after `ms`. */
export async function waitFor<T>(f: () => Promise<T | undefined | false>, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}
