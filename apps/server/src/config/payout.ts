import { z } from 'zod';
import { ConfigError, flagVar, intVar, need, oneOfVar, parseVars, strVar, urlVar } from './vars.ts';

/** Settings of money out (README "Money out", docs/payouts.md). */
export interface YeepayConfig {
  /** YEEPAY_APP_KEY: the application key of the YOP open platform (e.g. `app_10012345678`). */
  appKey: string;
  /** YEEPAY_PRIVATE_KEY: the merchant's RSA2048 private key (PKCS#8, PEM or bare base64) that signs requests. */
  privateKey: string;
  /** YEEPAY_PUBLIC_KEY: the YOP platform's RSA public key (PEM, bare base64 or a certificate) that signs answers and notifies. */
  platformPublicKey: string;
  /** YEEPAY_PARENT_MERCHANT_NO: the platform's own merchant number (the parent of every user's sub-merchant). */
  parentMerchantNo: string;
  /** YEEPAY_GATEWAY (default https://openapi.yeepay.com/yop-center). */
  gateway: string;
}

export interface PayoutConfig {
  /** PAYOUT_PROVIDER: sandbox (default with DEV_MODE=1), yeepay, or none (default otherwise: money-out calls answer payoutDisabled). */
  provider: 'sandbox' | 'yeepay' | 'none';
  /** PAYOUT_SANDBOX_SECRET: HMAC secret of the sandbox bank's notifies (else generated once into DATA_DIR). */
  sandboxSecret?: string;
  /** PAYOUT_SANDBOX_DELAY_MS (default 3000): how long the sandbox bank takes to pay a withdrawal or a refund. */
  sandboxDelayMs: number;
  /** WITHDRAW_FEE_PERMILLE (default 6 = 0.6 %) of the amount, rounded up to the fen, at least WITHDRAW_MIN_FEE_FEN (default 100). */
  feePermille: number;
  minFeeFen: number;
  /** WITHDRAW_MIN_FEN (default 1000 = ￥10.00) / WITHDRAW_MAX_FEN (default 5000000 = ￥50,000.00) per withdrawal. */
  minFen: number;
  maxFen: number;
  /** WITHDRAW_DAILY_COUNT (default 3) and WITHDRAW_DAILY_MAX_FEN (default 10000000 = ￥100,000.00) per user per China-time day. */
  dailyCount: number;
  dailyMaxFen: number;
  /** How long a started card binding waits for its SMS code (10 minutes). */
  bindTtlMs: number;
  /** A withdrawal or refund still in flight after this long is asked about at the provider (60 s). */
  reconcileAfterMs: number;
  /**
   * REFUND_STRAY_AUTOMATICALLY (default 1): a payment that arrives for an order already paid (a
   * duplicate) is refunded to its original method at once; late and wrong-amount payments stay in
   * the balance with a "refund to original method" action for the user.
   */
  refundStrayAutomatically: boolean;
  yeepay?: YeepayConfig;
}

export const payoutEnv = {
  PAYOUT_PROVIDER: oneOfVar(['sandbox', 'yeepay', 'none']),
  PAYOUT_SANDBOX_SECRET: strVar(),
  PAYOUT_SANDBOX_DELAY_MS: intVar({ min: 0, default: 3000 }),
  WITHDRAW_FEE_PERMILLE: intVar({ min: 0, max: 1000, default: 6 }),
  WITHDRAW_MIN_FEE_FEN: intVar({ min: 0, default: 100 }),
  WITHDRAW_MIN_FEN: intVar({ min: 1, default: 1000 }),
  WITHDRAW_MAX_FEN: intVar({ min: 1, default: 5_000_000 }),
  WITHDRAW_DAILY_COUNT: intVar({ min: 1, default: 3 }),
  WITHDRAW_DAILY_MAX_FEN: intVar({ min: 1, default: 10_000_000 }),
  REFUND_STRAY_AUTOMATICALLY: flagVar({ default: true }),
  YEEPAY_APP_KEY: strVar(),
  YEEPAY_PRIVATE_KEY: strVar(),
  YEEPAY_PUBLIC_KEY: strVar(),
  YEEPAY_PARENT_MERCHANT_NO: strVar(),
  YEEPAY_GATEWAY: urlVar({ pattern: /^https?:\/\/\S+$/, expected: 'an http(s):// URL', default: 'https://openapi.yeepay.com/yop-center' }),
};

export function loadPayoutConfig(raw: NodeJS.ProcessEnv, devMode: boolean): PayoutConfig {
  const env = parseVars(z.object(payoutEnv), raw);
  const provider = env.PAYOUT_PROVIDER ?? (devMode ? 'sandbox' : 'none');
  if (provider === 'sandbox' && !devMode) throw new ConfigError('PAYOUT_PROVIDER=sandbox needs DEV_MODE=1 (development only): set PAYOUT_PROVIDER=yeepay or none');
  const minFen = env.WITHDRAW_MIN_FEN;
  for (const name of ['WITHDRAW_MAX_FEN', 'WITHDRAW_DAILY_MAX_FEN'] as const) {
    if (env[name] < minFen) throw new ConfigError(`${name} must be at least WITHDRAW_MIN_FEN (${minFen}) (got "${env[name]}")`);
  }
  const by = 'with PAYOUT_PROVIDER=yeepay';
  return {
    provider,
    sandboxSecret: env.PAYOUT_SANDBOX_SECRET,
    sandboxDelayMs: env.PAYOUT_SANDBOX_DELAY_MS,
    feePermille: env.WITHDRAW_FEE_PERMILLE,
    minFeeFen: env.WITHDRAW_MIN_FEE_FEN,
    minFen,
    maxFen: env.WITHDRAW_MAX_FEN,
    dailyCount: env.WITHDRAW_DAILY_COUNT,
    dailyMaxFen: env.WITHDRAW_DAILY_MAX_FEN,
    bindTtlMs: 10 * 60_000,
    reconcileAfterMs: 60_000,
    refundStrayAutomatically: env.REFUND_STRAY_AUTOMATICALLY,
    yeepay:
      provider === 'yeepay'
        ? {
            appKey: need(env.YEEPAY_APP_KEY, 'YEEPAY_APP_KEY', by),
            privateKey: need(env.YEEPAY_PRIVATE_KEY, 'YEEPAY_PRIVATE_KEY', by),
            platformPublicKey: need(env.YEEPAY_PUBLIC_KEY, 'YEEPAY_PUBLIC_KEY', by),
            parentMerchantNo: need(env.YEEPAY_PARENT_MERCHANT_NO, 'YEEPAY_PARENT_MERCHANT_NO', by),
            gateway: env.YEEPAY_GATEWAY.replace(/\/+$/, ''),
          }
        : undefined,
  };
}
