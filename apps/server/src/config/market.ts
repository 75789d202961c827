import os from 'node:os';
import { z } from 'zod';
import type { WechatPayConfig } from '../providers/payment/wechat.ts';
import { ConfigError, flagVar, intVar, need, oneOfVar, parseVars, strVar, urlVar } from './vars.ts';

/** Settings of the consignment market, orders and payments. */
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
  /**
   * WORKER_THREAD (unset: 1 on a machine of two cores or more, else 0): with MARKET_JOBS=1, this
   * process's claim on the worker role runs in a worker thread of its own (worker-thread.ts) — its jobs,
   * chain queue, indexer and mint worker off the event loop that answers requests, which then never
   * takes the lease itself. False with MARKET_JOBS=0.
   */
  workerThread: boolean;
  /** Job loop period (MARKET_JOB_INTERVAL_MS, default 100). */
  jobIntervalMs: number;
  /**
   * The worker lease's time to live (WORKER_LEASE_MS, default 6000; renewed every third of it): of the
   * server processes with MARKET_JOBS=1 on one database, the lease holder runs the worker role, and a
   * standby takes over within about 1⅓ × this after the holder dies (jobs/worker-lease.ts).
   */
  workerLeaseMs: number;
  /** Jobs in flight at once (MARKET_JOBS_IN_FLIGHT, default 3000): settlements waiting for receipts (a backlog of paid orders is claimed at once and fills whole executeOrders batches). */
  jobsInFlight: number;
  /** Fallback re-check of a settlement waiting for its chain transaction (SETTLE_CHECK_MS, default 5000). */
  settleCheckMs: number;
  /**
   * Fills per Exchange.executeOrders settlement transaction at most (MARKET_SETTLE_BATCH, default 60): the
   * node packs about one of the operator's transactions per block, so settlement's rate follows the fills per
   * transaction (bench/RESULTS.md, "the worker thread by default").
   */
  settleBatch: number;
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

const httpUrl = { pattern: /^https?:\/\/\S+$/, expected: 'an http(s):// URL' };

export const marketEnv = {
  ROYALTY_PERMILLE: intVar({ min: 0, max: 100, default: 0 }),
  MARKET_MIN_PRICE_FEN: intVar({ min: 1, default: 100 }),
  MARKET_MAX_PRICE_FEN: intVar({ min: 1, default: 100_000_000 }),
  PAYMENT_WINDOW_SECONDS: intVar({ min: 10, default: 300 }),
  MAX_UNPAID_ORDERS: intVar({ min: 1, default: 5 }),
  ORDER_RETRY_COOLDOWN_SECONDS: intVar({ min: 0, default: 600 }),
  MAX_CANCELLED_ORDERS_PER_DAY: intVar({ min: 0, default: 5 }),
  BID_MAX_DAYS: intVar({ min: 1, default: 30 }),
  MARKET_JOBS: flagVar({ default: true }),
  WORKER_THREAD: flagVar(),
  MARKET_JOB_INTERVAL_MS: intVar({ min: 10, default: 100 }),
  WORKER_LEASE_MS: intVar({ min: 1000, max: 600_000, default: 6000 }),
  MARKET_JOBS_IN_FLIGHT: intVar({ min: 1, default: 3000 }),
  SETTLE_CHECK_MS: intVar({ min: 100, default: 5000 }),
  MARKET_SETTLE_BATCH: intVar({ min: 1, max: 60, default: 60 }),
  PAYMENT_SANDBOX: flagVar(),
  PAYMENT_SANDBOX_SECRET: strVar(),
  PAYMENT_NOTIFY_BASE_URL: urlVar(httpUrl),
  PAYMENT_RETURN_URL: strVar({ default: '/pay' }),
  ALIPAY_APP_ID: strVar(),
  ALIPAY_PRIVATE_KEY: strVar(),
  ALIPAY_PUBLIC_KEY: strVar(),
  ALIPAY_GATEWAY: urlVar({ ...httpUrl, default: 'https://openapi.alipay.com/gateway.do' }),
  ALIPAY_KEY_TYPE: oneOfVar(['PKCS1', 'PKCS8'], { default: 'PKCS1' }),
  WECHATPAY_MCH_ID: strVar(),
  WECHATPAY_APP_ID: strVar(),
  WECHATPAY_MCH_SERIAL_NO: strVar(),
  WECHATPAY_PRIVATE_KEY: strVar(),
  WECHATPAY_APIV3_KEY: strVar(),
  WECHATPAY_PLATFORM_PUBLIC_KEY: strVar(),
  WECHATPAY_PLATFORM_SERIAL: strVar(),
  WECHATPAY_GATEWAY: urlVar({ ...httpUrl, default: 'https://api.mch.weixin.qq.com' }),
};

export function loadMarketConfig(raw: NodeJS.ProcessEnv, devMode = false): MarketConfig {
  const env = parseVars(z.object(marketEnv), raw);
  const alipay: AlipayConfig | undefined = env.ALIPAY_APP_ID
    ? {
        appId: env.ALIPAY_APP_ID,
        privateKey: need(env.ALIPAY_PRIVATE_KEY, 'ALIPAY_PRIVATE_KEY', 'when ALIPAY_APP_ID is set'),
        alipayPublicKey: need(env.ALIPAY_PUBLIC_KEY, 'ALIPAY_PUBLIC_KEY', 'when ALIPAY_APP_ID is set'),
        gateway: env.ALIPAY_GATEWAY,
        keyType: env.ALIPAY_KEY_TYPE,
      }
    : undefined;
  const byWechat = 'when WECHATPAY_MCH_ID is set';
  const wechat: WechatPayConfig | undefined = env.WECHATPAY_MCH_ID
    ? {
        mchId: env.WECHATPAY_MCH_ID,
        appId: need(env.WECHATPAY_APP_ID, 'WECHATPAY_APP_ID', byWechat),
        mchSerialNo: need(env.WECHATPAY_MCH_SERIAL_NO, 'WECHATPAY_MCH_SERIAL_NO', byWechat),
        privateKey: need(env.WECHATPAY_PRIVATE_KEY, 'WECHATPAY_PRIVATE_KEY', byWechat),
        apiV3Key: apiV3Key(need(env.WECHATPAY_APIV3_KEY, 'WECHATPAY_APIV3_KEY', byWechat)),
        platformPublicKey: need(env.WECHATPAY_PLATFORM_PUBLIC_KEY, 'WECHATPAY_PLATFORM_PUBLIC_KEY', byWechat),
        platformSerial: need(env.WECHATPAY_PLATFORM_SERIAL, 'WECHATPAY_PLATFORM_SERIAL', byWechat),
        gateway: env.WECHATPAY_GATEWAY,
      }
    : undefined;
  return {
    royaltyPermille: env.ROYALTY_PERMILLE,
    minPriceFen: env.MARKET_MIN_PRICE_FEN,
    maxPriceFen: env.MARKET_MAX_PRICE_FEN,
    paymentWindowMs: env.PAYMENT_WINDOW_SECONDS * 1000,
    draftTtlMs: 30 * 60_000,
    maxUnpaidOrders: env.MAX_UNPAID_ORDERS,
    orderRetryCooldownMs: env.ORDER_RETRY_COOLDOWN_SECONDS * 1000,
    maxCancelledOrdersPerDay: env.MAX_CANCELLED_ORDERS_PER_DAY,
    bidMaxDays: env.BID_MAX_DAYS,
    jobs: env.MARKET_JOBS,
    workerThread: env.MARKET_JOBS && (env.WORKER_THREAD ?? os.availableParallelism() >= 2),
    jobIntervalMs: env.MARKET_JOB_INTERVAL_MS,
    workerLeaseMs: env.WORKER_LEASE_MS,
    jobsInFlight: env.MARKET_JOBS_IN_FLIGHT,
    settleCheckMs: env.SETTLE_CHECK_MS,
    settleBatch: env.MARKET_SETTLE_BATCH,
    payment: {
      sandbox: env.PAYMENT_SANDBOX ?? (devMode && !alipay && !wechat),
      sandboxSecret: env.PAYMENT_SANDBOX_SECRET,
      notifyBaseUrl: env.PAYMENT_NOTIFY_BASE_URL?.replace(/\/+$/, ''),
      returnUrl: env.PAYMENT_RETURN_URL,
      alipay,
      wechat,
    },
  };
}

/** The APIv3 key is the AES-256 key itself: exactly 32 bytes. */
function apiV3Key(v: string): string {
  if (Buffer.byteLength(v, 'utf8') !== 32) throw new ConfigError('WECHATPAY_APIV3_KEY must be 32 characters (the APIv3 key set in the merchant platform)');
  return v;
}
