import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { Chain } from './chain/chain-service.ts';
import type { Config } from './config.ts';
import { buildApp } from './app.ts';
import { shareSellingSignal } from './modules/drops/index.ts';

type Log = (msg: string, extra?: unknown) => void;
type Logs = { info: Log; warn: Log };

/** The key of this module's workerData: a thread started by anything else is not ours. */
const CONFIG_KEY = 'cfxWorkerThreadConfig';
/** The request thread's selling signal (drops/admission.ts shareSellingSignal), in the thread's workerData. */
const SELLING_KEY = 'cfxSellingSignal';
/** How long a clean stop waits for the thread to end its work and release the lease before it is terminated. */
const STOP_TIMEOUT_MS = 30_000;

export interface WorkerThread {
  /** Ends the thread's worker role (releasing the lease) and the thread; resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * WORKER_THREAD=1: this process's part in the worker role runs in a worker thread of its own, so
 * the role's work — the job worker (fulfilment, completion, expiry, settlement, messages), the chain
 * queue, the indexer, the mint worker — no longer takes turns with requests on the event loop that
 * answers them. To the rest of the system the thread is one more server process on the same database:
 * it competes for the worker lease like any other (worker-role.ts), with its own database connection,
 * and its fenced work is refused once it loses the lease. The main thread is built with MARKET_JOBS=0
 * (it never takes the lease) and keeps everything else, the embedded node included: the thread's
 * chain attaches to that node (ChainConfig.attach) instead of starting one.
 *
 * `entry` is the module the thread runs: the process's entry file (main.ts, or dist/main.js when
 * built), which calls runWorkerThread when it is not the main thread. A thread that exits or fails
 * unexpectedly is started again after 1 s, doubling to 30 s while it keeps failing; a thread that ran
 * for a minute starts the count again. Other processes' standbys take the lease meanwhile, as they do
 * when a process dies.
 */
export function startWorkerThread(entry: URL, config: Config, chain: Chain | undefined, log: Logs): WorkerThread {
  const threadConfig: Config = {
    ...config,
    serveWeb: false,
    demoData: false,
    market: { ...config.market, jobs: true, workerThread: false },
    chain: chain?.embedded ? { ...config.chain, attach: { rpcUrl: chain.rpcUrl, paceMs: chain.paceMs, nodePid: chain.nodePid } } : config.chain,
  };
  let worker: Worker | undefined;
  let stopping = false;
  let restartMs = 1000;
  let restartTimer: NodeJS.Timeout | undefined;
  let exited: Promise<void> = Promise.resolve();
  // The thread holds back fulfilment while this (request) thread admits a sale's reservations.
  const selling = shareSellingSignal();

  const spawn = () => {
    const startedAt = Date.now();
    const w = newWorker(entry, { [CONFIG_KEY]: threadConfig, [SELLING_KEY]: selling });
    worker = w;
    exited = new Promise<void>((resolve) => {
      w.once('error', (err) => log.warn('worker thread failed', { err: String(err) }));
      w.once('exit', (code) => {
        if (worker === w) worker = undefined;
        resolve();
        if (stopping) return;
        if (Date.now() - startedAt > 60_000) restartMs = 1000;
        log.warn('worker thread exited: starting it again', { code, inMs: restartMs });
        restartTimer = setTimeout(spawn, restartMs);
        restartMs = Math.min(restartMs * 2, 30_000);
      });
    });
  };
  spawn();
  log.info('worker thread started: the worker role runs off the request thread');

  return {
    async stop() {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      const w = worker;
      if (!w) return;
      w.postMessage({ type: 'stop' });
      const timeout = new Promise<'timeout'>((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS, 'timeout').unref());
      if ((await Promise.race([exited, timeout])) === 'timeout') {
        log.warn('worker thread did not stop in time: terminating it');
        await w.terminate();
      }
    },
  };
}

/**
 * A Worker running `entry`. The built server (dist/main.js) is plain JavaScript; the TypeScript
 * source (tsx: `npm run dev`, the tests, the benchmarks) needs tsx's loader in the thread too, which
 * a thread does not get from the process's `--import tsx`: a small bootstrap registers it there first.
 */
function newWorker(entry: URL, data: Record<string, unknown>): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { workerData: data });
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { eval: true, workerData: data });
}

/** True in a thread started by startWorkerThread. */
export function isWorkerThread(): boolean {
  return !isMainThread && typeof workerData === 'object' && workerData !== null && CONFIG_KEY in workerData;
}

/**
 * The thread's side: builds the app from the configuration the main thread passed (no HTTP listener:
 * it only holds, or stands by for, the worker lease) and closes it cleanly — releasing the lease —
 * when the main thread asks it to stop.
 */
export async function runWorkerThread(): Promise<void> {
  const data = workerData as { [CONFIG_KEY]: Config; [SELLING_KEY]?: SharedArrayBuffer };
  const config = data[CONFIG_KEY];
  if (data[SELLING_KEY]) shareSellingSignal(data[SELLING_KEY]);
  const { app, close } = await buildApp(config);
  app.log.info('worker thread ready');
  parentPort!.on('message', (msg: { type?: string }) => {
    if (msg?.type !== 'stop') return;
    close().then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}
