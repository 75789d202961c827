import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { startWorkerThread } from '../src/worker-thread.ts';
import { sleep, waitFor } from './process-helpers.ts';

/**
 * WORKER_THREAD=1's thread keeper (worker-thread.ts), with a stand-in entry
 * (fixtures/flaky-worker-thread.mjs) that fails on its first start: the thread gets the worker's
 * configuration (MARKET_JOBS=1, no web, no demo seeding), is started again after it exits, and stops
 * when asked — and is not started again after that. The real entry (main.ts) with the real worker
 * role on the embedded chain: worker-thread.chain.test.ts.
 */
describe('the worker thread keeper', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-thread-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('passes the worker configuration, starts the thread again after it exits, and stops it for good', async () => {
    const config = loadConfig({ DEV_MODE: '1', CAPTCHA_PROVIDER: 'test', CHAIN: 'off', DATA_DIR: dataDir, WORKER_THREAD: '1', MARKET_JOBS: '1' }, { dataDir });
    expect(config.market.workerThread).toBe(true);
    // A process that never takes the lease has no worker role to put in a thread.
    expect(loadConfig({ DEV_MODE: '1', CHAIN: 'off', DATA_DIR: dataDir, WORKER_THREAD: '1', MARKET_JOBS: '0' }, { dataDir }).market.workerThread).toBe(false);
    // Unset: on where a second core can run the thread, off on one core; WORKER_THREAD=0 turns it off anywhere.
    expect(loadConfig({ DEV_MODE: '1', CHAIN: 'off', DATA_DIR: dataDir }, { dataDir }).market.workerThread).toBe(os.availableParallelism() >= 2);
    expect(loadConfig({ DEV_MODE: '1', CHAIN: 'off', DATA_DIR: dataDir, WORKER_THREAD: '0' }, { dataDir }).market.workerThread).toBe(false);
    const warnings: { msg: string; extra?: unknown }[] = [];
    const logs = { info: () => {}, warn: (msg: string, extra?: unknown) => void warnings.push({ msg, extra }) };
    const file = path.join(dataDir, 'thread-starts.log');
    const lines = () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n') : []);

    const thread = startWorkerThread(new URL('./fixtures/flaky-worker-thread.mjs', import.meta.url), { ...config, serveWeb: true, demoData: true }, undefined, logs);
    // First start exits with code 3; the keeper starts it again after 1 s.
    await waitFor(async () => lines().length >= 2 || undefined, 10_000, 'the second start');
    expect(lines().map((l) => JSON.parse(l))).toEqual([
      { jobs: true, workerThread: false, serveWeb: false, demoData: false },
      { jobs: true, workerThread: false, serveWeb: false, demoData: false },
    ]);
    expect(warnings).toEqual([{ msg: 'worker thread exited: starting it again', extra: { code: 3, inMs: 1000 } }]);

    await thread.stop();
    expect(lines().at(-1)).toBe('stopped');
    // Stopped on purpose: not started again.
    await sleep(1500);
    expect(lines()).toHaveLength(3);
    expect(warnings).toHaveLength(1);
  }, 30_000);
});
