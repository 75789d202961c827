import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../src/context.ts';
import { admitted, reservationsFlowing, SELLING_QUIET_MS, shareSellingSignal } from '../src/modules/drops/admission.ts';
import { sleep } from './process-helpers.ts';

/**
 * WORKER_THREAD=1: reservations are admitted on the request thread, fulfilment is claimed in the worker
 * thread, each with an app and admission state of its own. The shared selling signal lets the thread's
 * reservationsFlowing (the fulfilment hold, drops/register-jobs.ts) see the request thread's sale. Here a
 * real worker thread adopts the buffer, as runWorkerThread does, and answers what it sees.
 */
describe('the selling signal shared with the worker thread', () => {
  const admission = new URL('../src/modules/drops/admission.ts', import.meta.url).href;
  const boot = `
    const { parentPort, workerData } = require('node:worker_threads');
    import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(admission)}); }).then((m) => {
      m.shareSellingSignal(workerData.buffer);
      // The thread's own app: another db object, its own cache clock; it never admitted anything itself.
      const ctx = { db: {}, monotonicNow: () => performance.now() };
      parentPort.on('message', () => parentPort.postMessage(m.reservationsFlowing(ctx)));
      parentPort.postMessage('ready');
    });`;
  const buffer = shareSellingSignal();
  const thread = new Worker(boot, { eval: true, workerData: { buffer } });
  afterAll(() => thread.terminate());
  const next = () => new Promise<unknown>((resolve) => thread.once('message', resolve));
  const ready = next(); // listening before the thread can post it
  const ask = async () => {
    const answer = next();
    thread.postMessage('ask');
    return answer;
  };

  it('tells the thread while the request thread admits reservations, and not SELLING_QUIET_MS after the last', async () => {
    expect(await ready).toBe('ready');
    expect(await ask()).toBe(false);

    const requestCtx = { db: {}, monotonicNow: () => performance.now(), config: { drops: { maxInFlight: 8 } } } as unknown as AppContext;
    await admitted(requestCtx, 1, async () => {});
    expect(reservationsFlowing(requestCtx)).toBe(true);
    expect(await ask()).toBe(true);

    await sleep(SELLING_QUIET_MS + 50);
    expect(await ask()).toBe(false);
  }, 30_000);
});
