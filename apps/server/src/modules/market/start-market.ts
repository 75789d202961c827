import path from 'node:path';
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { readOrCreateSecretFile } from '../../util/private-files.ts';
import { JobRunner } from '../../jobs/runner.ts';
import { alipayPayment } from '../../providers/payment/alipay.ts';
import { sandboxPayment } from '../../providers/payment/sandbox.ts';
import { wechatPayment } from '../../providers/payment/wechat.ts';
import { wechatSandbox } from '../../providers/payment/wechat-sandbox.ts';
import { expireDueOrders } from '../orders/close-order.ts';
import { completionBatcher, runSettleJob, settlingBatcher } from '../orders/settle-order.ts';
import { createNotifier, type Notifier } from '../payments/notify-delivery.ts';
import { reconcilePayments } from '../payments/reconcile-payments.ts';
import { registerDropJobs } from '../drops/register-jobs.ts';
import { chainSettlement } from './chain-settlement.ts';
import type { MarketRuntime } from './runtime.ts';
import type { SettlementChain } from './settlement-chain.ts';
import { onOrdersCancelled } from './track-order-cancels.ts';
import { onTokenEvents } from './watch-chain.ts';

/** The sandbox's HMAC secret: PAYMENT_SANDBOX_SECRET, else generated once into DATA_DIR/payment-sandbox.key (mode 600). */
export function sandboxSecret(ctx: AppContext): string {
  const configured = ctx.config.market.payment.sandboxSecret;
  if (configured) return configured;
  return readOrCreateSecretFile(path.join(ctx.config.dataDir, 'payment-sandbox.key'), () => crypto.randomBytes(32).toString('hex'));
}

/**
 * Starts the market's live parts on ctx.market: the chain side (SettlementChain on ctx.chain),
 * the payment providers, and the durable job worker (settlement jobs, the order-expiry sweep
 * every second, payment reconciliation every 15 s). The worker itself starts with
 * runtime.startJobs(), after the other modules registered their jobs. Stopped when the Fastify app closes.
 */
export async function startMarket(app: FastifyInstance, ctx: AppContext): Promise<{ notifier: () => Notifier }> {
  const cfg = ctx.config.market;
  const log = (msg: string, extra?: unknown) => app.log.warn(extra ?? {}, msg);
  const jobs = new JobRunner(ctx.db, { intervalMs: cfg.jobIntervalMs, maxInFlight: cfg.jobsInFlight, leaseMs: Math.max(60_000, cfg.settleCheckMs * 4), log });
  const waiters = new Map<number, Set<() => void>>();
  let unsubscribe: (() => void)[] = [];
  const notifier = createNotifier(
    async (p, body) => (await app.inject({ method: 'POST', url: p, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: body })).body,
    log,
  );

  const runtime: MarketRuntime = {
    providers: {
      sandbox: cfg.payment.sandbox ? sandboxPayment(sandboxSecret(ctx), ctx.db) : undefined,
      alipay: cfg.payment.alipay ? alipayPayment(cfg.payment.alipay) : undefined,
      wechat: cfg.payment.wechat ? wechatPayment(cfg.payment.wechat) : cfg.payment.sandbox ? wechatSandbox(sandboxSecret(ctx), ctx.db) : undefined,
    },
    jobs,
    waitTx(txId, timeoutMs) {
      return new Promise<void>((resolve) => {
        let set = waiters.get(txId);
        if (!set) waiters.set(txId, (set = new Set()));
        const done = () => {
          clearTimeout(timer);
          set!.delete(done);
          if (set!.size === 0) waiters.delete(txId);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        set.add(done);
      });
    },
    attachSettlement(s: SettlementChain | undefined) {
      for (const off of unsubscribe) off();
      unsubscribe = [];
      runtime.settlement = s;
      if (!s) return;
      unsubscribe.push(
        s.onTxDone((txId) => {
          const set = waiters.get(txId);
          if (set) for (const w of [...set]) w();
        }),
        s.onTokenEvents((events) => {
          void onTokenEvents(ctx, events).catch((err) => log('chain watch failed', { err: String(err) }));
        }),
        s.onOrdersCancelled((events) => {
          void onOrdersCancelled(ctx, events).catch((err) => log('order cancel watch failed', { err: String(err) }));
        }),
      );
    },
    notifyBaseUrl() {
      if (cfg.payment.notifyBaseUrl) return cfg.payment.notifyBaseUrl;
      const addr = app.server.address();
      return addr && typeof addr === 'object' ? `http://127.0.0.1:${addr.port}` : '';
    },
    async startJobs() {
      if (cfg.jobs && !jobs.running) await jobs.start();
    },
    async stop() {
      notifier.stop();
      for (const off of unsubscribe) off();
      await jobs.stop();
      for (const set of waiters.values()) for (const w of [...set]) w();
    },
  };
  ctx.market = runtime;
  runtime.complete = completionBatcher(ctx);
  runtime.markSettling = settlingBatcher(ctx);
  if (ctx.chain) runtime.attachSettlement(await chainSettlement(ctx.chain));

  jobs.register('settle', (job) => runSettleJob(ctx, String(job.payload.orderNo ?? job.key.replace(/^settle:/, ''))));
  jobs.periodic('expire-orders', 1000, () => expireDueOrders(ctx));
  jobs.periodic('reconcile-payments', 15_000, () => reconcilePayments(ctx));
  registerDropJobs(ctx, jobs); // fulfil (drop orders) and the drop completion sweep
  // The worker is started by buildApp (runtime.startJobs) once every module has registered its jobs.
  app.addHook('onClose', async () => runtime.stop());
  return { notifier: () => notifier };
}
