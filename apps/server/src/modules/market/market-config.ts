import type { WechatPayConfig } from '../../providers/payment/wechat.ts';

/** Settings of the consignment market, orders and payments (read from the environment by config.ts). */
export interface AlipayConfig {
  appId: string;
  /** The application's RSA2 private key (PEM or bare base64, PKCS#1 or PKCS#8). */
  privateKey: string;
  /** Alipay's RSA2 public key (PEM or bare base64) that signs notifies. */
  alipayPublicKey: string;
  gateway: string;
  keyType: 'PKCS1' | 'PKCS8';
}

export interface MarketConfig {
  /**
   * The default creator royalty, per mille of the resale price (ROYALTY_PERMILLE, default 0, at most 100 = 10 %):
   * releases without their own `projects.royalty_permille` use it (modules/market/fees.ts royaltyPermilleOf).
   */
  royaltyPermille: number;
  /** Listing price bounds in fen (MARKET_MIN_PRICE_FEN 100 = ￥1.00, MARKET_MAX_PRICE_FEN 100000000 = ￥1,000,000.00). */
  minPriceFen: number;
  maxPriceFen: number;
  /** How long a created order holds its listing for payment (PAYMENT_WINDOW_SECONDS, default 300). */
  paymentWindowMs: number;
  /** How long a preOpenSale's sellerOrderId can be used by openSale / agreeBargin (30 min). */
  draftTtlMs: number;
  /** Unpaid orders a buyer may hold at once (MAX_UNPAID_ORDERS, default 5). */
  maxUnpaidOrders: number;
  /**
   * After a buyer's order of a listing was cancelled by the buyer or expired unpaid, that buyer may
   * not order the same listing again for this long (ORDER_RETRY_COOLDOWN_SECONDS, default 600; 0 = off).
   */
  orderRetryCooldownMs: number;
  /** Orders a buyer may cancel / leave unpaid per day (China time) before createOrder refuses until the next day (MAX_CANCELLED_ORDERS_PER_DAY, default 5; 0 = no cap). */
  maxCancelledOrdersPerDay: number;
  /** Longest bid validity in days (BID_MAX_DAYS, default 30). */
  bidMaxDays: number;
  /** Run the background jobs (settlement, expiry, reconciliation) in this process (MARKET_JOBS, default 1). */
  jobs: boolean;
  /** Job loop period (MARKET_JOB_INTERVAL_MS, default 100). */
  jobIntervalMs: number;
  /** Jobs in flight at once (MARKET_JOBS_IN_FLIGHT, default 1000): settlements waiting for receipts. */
  jobsInFlight: number;
  /** Fallback re-check of a settlement waiting for its chain transaction (SETTLE_CHECK_MS, default 5000). */
  settleCheckMs: number;
  payment: {
    /** The sandbox provider (PAYMENT_SANDBOX, default 1 with DEV_MODE=1 and no real provider): a cashier page and HMAC-signed notifies. */
    sandbox: boolean;
    /** HMAC-SHA256 secret of the sandbox (PAYMENT_SANDBOX_SECRET; else generated once into DATA_DIR). */
    sandboxSecret?: string;
    /** Public base URL providers send notifies to (PAYMENT_NOTIFY_BASE_URL; default: this server on loopback). */
    notifyBaseUrl?: string;
    /** Where the cashier sends the buyer back (PAYMENT_RETURN_URL, default /pay; `?orderNo=` is appended). */
    returnUrl: string;
    alipay?: AlipayConfig;
    /** WeChat Pay Native over APIv3 (WECHATPAY_MCH_ID and the other WECHATPAY_* settings). */
    wechat?: WechatPayConfig;
  };
}

const int = (v: string | undefined, d: number) => {
  const n = v === undefined || v === '' ? NaN : Number(v);
  return Number.isFinite(n) ? n : d;
};

export function loadMarketConfig(env: NodeJS.ProcessEnv, devMode = false): MarketConfig {
  const alipay: AlipayConfig | undefined = env.ALIPAY_APP_ID
    ? {
        appId: env.ALIPAY_APP_ID,
        privateKey: need(env, 'ALIPAY_PRIVATE_KEY'),
        alipayPublicKey: need(env, 'ALIPAY_PUBLIC_KEY'),
        gateway: env.ALIPAY_GATEWAY || 'https://openapi.alipay.com/gateway.do',
        keyType: env.ALIPAY_KEY_TYPE === 'PKCS8' ? 'PKCS8' : 'PKCS1',
      }
    : undefined;
  const wechat: WechatPayConfig | undefined = env.WECHATPAY_MCH_ID
    ? {
        mchId: env.WECHATPAY_MCH_ID,
        appId: needFor(env, 'WECHATPAY_APP_ID', 'WECHATPAY_MCH_ID'),
        mchSerialNo: needFor(env, 'WECHATPAY_MCH_SERIAL_NO', 'WECHATPAY_MCH_ID'),
        privateKey: needFor(env, 'WECHATPAY_PRIVATE_KEY', 'WECHATPAY_MCH_ID'),
        apiV3Key: apiV3Key(needFor(env, 'WECHATPAY_APIV3_KEY', 'WECHATPAY_MCH_ID')),
        platformPublicKey: needFor(env, 'WECHATPAY_PLATFORM_PUBLIC_KEY', 'WECHATPAY_MCH_ID'),
        platformSerial: needFor(env, 'WECHATPAY_PLATFORM_SERIAL', 'WECHATPAY_MCH_ID'),
        gateway: env.WECHATPAY_GATEWAY || 'https://api.mch.weixin.qq.com',
      }
    : undefined;
  return {
    royaltyPermille: Math.max(0, Math.min(100, Math.floor(int(env.ROYALTY_PERMILLE, 0)))),
    minPriceFen: Math.max(1, int(env.MARKET_MIN_PRICE_FEN, 100)),
    maxPriceFen: Math.max(1, int(env.MARKET_MAX_PRICE_FEN, 100_000_000)),
    paymentWindowMs: Math.max(10, int(env.PAYMENT_WINDOW_SECONDS, 300)) * 1000,
    draftTtlMs: 30 * 60_000,
    maxUnpaidOrders: Math.max(1, int(env.MAX_UNPAID_ORDERS, 5)),
    orderRetryCooldownMs: Math.max(0, int(env.ORDER_RETRY_COOLDOWN_SECONDS, 600)) * 1000,
    maxCancelledOrdersPerDay: Math.max(0, int(env.MAX_CANCELLED_ORDERS_PER_DAY, 5)),
    bidMaxDays: Math.max(1, int(env.BID_MAX_DAYS, 30)),
    jobs: env.MARKET_JOBS !== '0',
    jobIntervalMs: Math.max(10, int(env.MARKET_JOB_INTERVAL_MS, 100)),
    jobsInFlight: Math.max(1, int(env.MARKET_JOBS_IN_FLIGHT, 1000)),
    settleCheckMs: Math.max(100, int(env.SETTLE_CHECK_MS, 5000)),
    payment: {
      sandbox: env.PAYMENT_SANDBOX ? env.PAYMENT_SANDBOX === '1' : devMode && !alipay && !wechat,
      sandboxSecret: env.PAYMENT_SANDBOX_SECRET || undefined,
      notifyBaseUrl: env.PAYMENT_NOTIFY_BASE_URL ? env.PAYMENT_NOTIFY_BASE_URL.replace(/\/+$/, '') : undefined,
      returnUrl: env.PAYMENT_RETURN_URL || '/pay',
      alipay,
      wechat,
    },
  };
}

function need(env: NodeJS.ProcessEnv, name: string): string {
  const v = env[name];
  if (!v) throw new Error(`${name} is required when ALIPAY_APP_ID is set`);
  return v;
}

function needFor(env: NodeJS.ProcessEnv, name: string, by: string): string {
  const v = env[name];
  if (!v) throw new Error(`${name} is required when ${by} is set`);
  return v;
}

/** The APIv3 key is the AES-256 key itself: exactly 32 bytes. */
function apiV3Key(v: string): string {
  if (Buffer.byteLength(v, 'utf8') !== 32) throw new Error('WECHATPAY_APIV3_KEY must be 32 characters (the APIv3 key set in the merchant platform)');
  return v;
}
