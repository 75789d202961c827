import { ConfigError, loadConfig, type Config } from './config.ts';
import { buildApp } from './app.ts';
import { isWorkerThread, runWorkerThread, startWorkerThread } from './worker-thread.ts';

/**
 * Process entry: configuration from the environment, migrations, then listen; stops cleanly on signals.
 * With WORKER_THREAD=1 this file is also the worker thread's entry (worker-thread.ts).
 */
if (isWorkerThread()) await runWorkerThread();
else await main();

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`[config] ${err.message}`);
    process.exit(1);
  }
  // WORKER_THREAD=1: the request thread never takes the worker lease; its thread does.
  const threaded = config.market.workerThread;
  const { app, ctx, close } = await buildApp(threaded ? { ...config, market: { ...config.market, jobs: false } } : config);
  await app.listen({ port: config.port, host: config.host });
  if (config.devMode) app.log.warn(devModeNotice(config));
  const thread = threaded ? startWorkerThread(new URL(import.meta.url), config, ctx.chain, {
    info: (msg, extra) => app.log.info(extra ?? {}, msg),
    warn: (msg, extra) => app.log.warn(extra ?? {}, msg),
  }) : undefined;

  let stopping = false;
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      if (stopping) return;
      stopping = true;
      app.log.info(`${sig}: shutting down`);
      // The thread first: it releases the lease and stops using the chain node, which close() then stops.
      (thread?.stop() ?? Promise.resolve()).then(close).then(() => process.exit(0), (err) => { console.error(err); process.exit(1); });
    });
  }
}

/** The loud start-up notice of DEV_MODE=1 (also printed to stderr so it is seen without a log viewer). */
function devModeNotice(c: Config): string {
  const on = [
    c.smsProvider === 'sandbox' && 'sandbox SMS (codes readable at /mvapi/public/dev/sms-outbox)',
    c.captchaProvider === 'test' && 'test captcha',
    c.kycProvider === 'sandbox' && 'sandbox KYC',
    c.market.payment.sandbox && 'sandbox payment (cashier and top-up without money)',
    c.demoData && 'demo data',
    c.chain.mode === 'embedded' && 'embedded dev chain with the dev wallet',
  ].filter(Boolean) as string[];
  const lines = ['DEV MODE (DEV_MODE=1) — never expose this server to the internet', ...on.map((x) => `  • ${x}`), 'Set DEV_MODE=0 and real providers for production.'];
  const w = Math.max(...lines.map((l) => l.length)) + 2;
  const box = ['╔' + '═'.repeat(w) + '╗', ...lines.map((l) => `║ ${l.padEnd(w - 1)}║`), '╚' + '═'.repeat(w) + '╝'].join('\n');
  console.error(box);
  return `DEV MODE is on: ${on.join(', ')}`;
}
