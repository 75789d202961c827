import path from 'node:path';
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { readOrCreateSecretFile } from '../../util/private-files.ts';
import { alipayPayment } from '../../providers/payment/alipay.ts';
import { sandboxPayment } from '../../providers/payment/sandbox.ts';
import { wechatPayment } from '../../providers/payment/wechat.ts';
import { wechatSandbox } from '../../providers/payment/wechat-sandbox.ts';
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
 * Starts the market's live parts on ctx.market: the chain side (SettlementChain on ctx.chain) and
 * the payment providers. The order side of settlement (runtime.markSettling / complete, the
 * settle job, the expiry and reconciliation sweeps) is attached by flows/settle-orders.ts, so the
 * market imports no order or payment code. Stopped when the Fastify app closes.
 */
export async function startMarket(app: FastifyInstance, ctx: AppContext): Promise<MarketRuntime> {
  const cfg = ctx.config.market;
  const log = (msg: string, extra?: unknown) => app.log.warn(extra ?? {}, msg);
  const waiters = new Map<number, Set<() => void>>();
  let unsubscribe: (() => void)[] = [];

  const runtime: MarketRuntime = {
    providers: {
      sandbox: cfg.payment.sandbox ? sandboxPayment(sandboxSecret(ctx), ctx.db) : undefined,
      alipay: cfg.payment.alipay ? alipayPayment(cfg.payment.alipay) : undefined,
      wechat: cfg.payment.wechat ? wechatPayment(cfg.payment.wechat) : cfg.payment.sandbox ? wechatSandbox(sandboxSecret(ctx), ctx.db) : undefined,
    },
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
    async stop() {
      for (const off of unsubscribe) off();
      for (const set of waiters.values()) for (const w of [...set]) w();
    },
  };
  ctx.market = runtime;
  if (ctx.chain) runtime.attachSettlement(await chainSettlement(ctx.chain, { batch: cfg.settleBatch }));
  app.addHook('onClose', async () => runtime.stop());
  return runtime;
}
