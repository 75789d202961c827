import { ConfigError } from '../../config.ts';

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

const int = (v: string | undefined, d: number) => {
  const n = v === undefined || v === '' ? NaN : Number(v);
  return Number.isInteger(n) ? n : d;
};

export function loadPayoutConfig(env: NodeJS.ProcessEnv, devMode: boolean): PayoutConfig {
  const raw = env.PAYOUT_PROVIDER;
  if (raw !== undefined && raw !== '' && !['sandbox', 'yeepay', 'none'].includes(raw)) {
    throw new ConfigError(`PAYOUT_PROVIDER must be one of sandbox, yeepay, none (got "${raw}")`);
  }
  const provider = (raw || (devMode ? 'sandbox' : 'none')) as PayoutConfig['provider'];
  if (provider === 'sandbox' && !devMode) throw new ConfigError('PAYOUT_PROVIDER=sandbox needs DEV_MODE=1 (development only): set PAYOUT_PROVIDER=yeepay or none');
  const need = (e: NodeJS.ProcessEnv, name: string) => {
    const v = e[name];
    if (!v) throw new ConfigError(`${name} is required with PAYOUT_PROVIDER=yeepay`);
    return v;
  };
  const minFen = Math.max(1, int(env.WITHDRAW_MIN_FEN, 1000));
  const refund = env.REFUND_STRAY_AUTOMATICALLY;
  if (refund !== undefined && refund !== '' && refund !== '0' && refund !== '1') throw new ConfigError(`REFUND_STRAY_AUTOMATICALLY must be 1 or 0 (got "${refund}")`);
  return {
    provider,
    sandboxSecret: env.PAYOUT_SANDBOX_SECRET || undefined,
    sandboxDelayMs: Math.max(0, int(env.PAYOUT_SANDBOX_DELAY_MS, 3000)),
    feePermille: Math.max(0, Math.min(1000, int(env.WITHDRAW_FEE_PERMILLE, 6))),
    minFeeFen: Math.max(0, int(env.WITHDRAW_MIN_FEE_FEN, 100)),
    minFen,
    maxFen: Math.max(minFen, int(env.WITHDRAW_MAX_FEN, 5_000_000)),
    dailyCount: Math.max(1, int(env.WITHDRAW_DAILY_COUNT, 3)),
    dailyMaxFen: Math.max(minFen, int(env.WITHDRAW_DAILY_MAX_FEN, 10_000_000)),
    bindTtlMs: 10 * 60_000,
    reconcileAfterMs: 60_000,
    refundStrayAutomatically: refund !== '0',
    yeepay:
      provider === 'yeepay'
        ? {
            appKey: need(env, 'YEEPAY_APP_KEY'),
            privateKey: need(env, 'YEEPAY_PRIVATE_KEY'),
            platformPublicKey: need(env, 'YEEPAY_PUBLIC_KEY'),
            parentMerchantNo: need(env, 'YEEPAY_PARENT_MERCHANT_NO'),
            gateway: (env.YEEPAY_GATEWAY || 'https://openapi.yeepay.com/yop-center').replace(/\/+$/, ''),
          }
        : undefined,
  };
}
