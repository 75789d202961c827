import path from 'node:path';
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { readOrCreateSecretFile } from '../../util/private-files.ts';
import { ApiError } from '../../http/envelope.ts';
import { createNotifier, type Notifier } from './notify-delivery.ts';
import { sandboxPayout, type SandboxPayout } from '../../providers/payout/sandbox.ts';
import { yeepayPayout } from '../../providers/payout/yeepay.ts';
import type { PayoutProvider } from '../../providers/payout/types.ts';

/**
 * The live parts of money out, per app: the payout provider (PAYOUT_PROVIDER) and the notifier the
 * sandbox bank posts its signed notifies with (HTTP to the notify URL; API tests without a socket go
 * through app.inject). Kept beside the AppContext (a WeakMap), started by startPayouts in app.ts.
 */
export interface PayoutRuntime {
  provider?: PayoutProvider;
  sandbox?: SandboxPayout;
  notifier: Notifier;
}

const runtimes = new WeakMap<AppContext, PayoutRuntime>();

/** The SMS type of the sandbox bank's quick-pay codes (the card binding's are type 6). */
export const CARD_PAY_SMS_TYPE = '7';

/** The sandbox bank's HMAC secret: PAYOUT_SANDBOX_SECRET, else generated once into DATA_DIR/payout-sandbox.key (mode 600). */
export function sandboxSecret(ctx: AppContext): string {
  const configured = ctx.config.payout.sandboxSecret;
  if (configured) return configured;
  return readOrCreateSecretFile(path.join(ctx.config.dataDir, 'payout-sandbox.key'), () => crypto.randomBytes(32).toString('hex'));
}

export function createPayoutRuntime(app: FastifyInstance, ctx: AppContext): PayoutRuntime {
  const cfg = ctx.config.payout;
  // The sandbox bank sends its quick-pay codes through the SMS provider (the dev outbox) and posts its
  // quick-pay notifies with the notifier below (docs/payouts.md "Paying with a bank card").
  const sandbox =
    cfg.provider === 'sandbox'
      ? sandboxPayout(sandboxSecret(ctx), ctx.db, {
          sendSms: (mobile, code) => ctx.sms.send({ mobile, type: CARD_PAY_SMS_TYPE, code }),
          notify: (url, params) => void notifier.send(url, params),
        })
      : undefined;
  const notifier = createNotifier(
    async (p, body) => (await app.inject({ method: 'POST', url: p, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: body })).body,
    (msg, extra) => app.log.warn(extra ?? {}, msg),
  );
  const runtime: PayoutRuntime = { sandbox, provider: sandbox ?? (cfg.yeepay ? yeepayPayout(cfg.yeepay) : undefined), notifier };
  runtimes.set(ctx, runtime);
  app.addHook('onClose', async () => notifier.stop());
  return runtime;
}

export function payoutRuntime(ctx: AppContext): PayoutRuntime | undefined {
  return runtimes.get(ctx);
}

/** The payout provider, or 1061 payoutDisabled when PAYOUT_PROVIDER=none. */
export function requireProvider(ctx: AppContext): PayoutProvider {
  const p = runtimes.get(ctx)?.provider;
  if (!p) throw new ApiError(Status.PAYOUT_STATE, 'payoutDisabled');
  return p;
}

/** Where providers post notifies: PAYMENT_NOTIFY_BASE_URL, else this server on loopback (relative when not listening: tests). */
export function notifyUrl(ctx: AppContext, p: string): string {
  return `${ctx.market?.notifyBaseUrl() ?? ''}${p}`;
}

/** A provider call that failed to reach the provider: 503 payoutUnavailable. */
export const unavailable = () => new ApiError(Status.SERVER_ERROR, 'payoutUnavailable', {}, 503);
