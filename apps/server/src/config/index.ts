import path from 'node:path';
import { PASSWORD_SCRYPT } from '../util/crypto.ts';
import { loadDropsConfig, type DropsConfig } from './drops.ts';
import { parseEnv } from './env.ts';
import { loadGoodsFlowsConfig, type GoodsFlowsConfig } from './goods-flows.ts';
import { loadMarketConfig, type MarketConfig } from './market.ts';
import { loadMessagesConfig, type MessagesConfig } from './messages.ts';
import { loadPayoutConfig, type PayoutConfig } from './payout.ts';
import { loadPrivacyConfig, type PrivacyConfig } from './privacy.ts';
import { loadUploadsConfig, type UploadsConfig } from './uploads.ts';
import { ConfigError, need } from './vars.ts';

export { ConfigError } from './vars.ts';
export { ENV_VARIABLES, envSchema, parseEnv, parseTrustProxy, type Env } from './env.ts';
export type { AlipayConfig, MarketConfig } from './market.ts';
export type { DropsConfig } from './drops.ts';
export type { UploadsConfig } from './uploads.ts';
export type { PrivacyConfig } from './privacy.ts';
export type { GoodsFlowsConfig } from './goods-flows.ts';
export type { PayoutConfig, YeepayConfig } from './payout.ts';
export type { MessagesConfig } from './messages.ts';

/** Everything the server reads from the environment, with the embedded defaults (the variables: config/env.ts). */
export interface ChainConfig {
  /** 'embedded' starts @xcfx/node in a child process; 'rpc' uses CHAIN_RPC_URL; 'off' runs without a chain. */
  mode: 'embedded' | 'rpc' | 'off';
  rpcUrl?: string;
  networkId: number;
  /** CHAIN_OPERATOR_KEY: the hot key (mints, settles orders, submits signed consume flows). */
  operatorKey?: string;
  /**
   * CHAIN_OWNER_KEY (embedded chain only): the key that deploys, owns and sponsors the contracts
   * (setOperator, setBaseURI). Default: generated once into DATA_DIR/owner.key. Never set with
   * CHAIN_RPC_URL: there the owner deploys offline (packages/contracts/scripts/owner.ts).
   */
  ownerKey?: string;
  collectibleAddress?: string;
  exchangeAddress?: string;
  /** Explorer prefix; a transaction link is `${explorerUrl}/transaction/${hash}`. */
  explorerUrl: string;
  nodeRpcPort?: number;
  nodeP2pPort?: number;
  /** CHAIN_NODE_PUBLIC_LISTEN=1: the embedded node may listen on every interface (default: loopback only). */
  nodePublicListen: boolean;
  /** Embedded node: produce a block every N ms instead of packing each transaction at once. */
  blockIntervalMs?: number;
  /**
   * Set only by worker-thread.ts, never from the environment: the embedded node that this process's
   * main thread started (and deployed the contracts on). A worker thread's chain uses it as its own
   * embedded chain — same node, same contracts, same pace — without starting or deploying anything.
   */
  attach?: { rpcUrl: string; paceMs?: number; nodePid?: number };
  /**
   * CHAIN_PACE_MS (embedded node, default 500 ≈ mainnet's 2 epochs a second): the idle chain's pace,
   * kept by the pace keeper's heartbeat transactions (chain/pace-keeper.ts), so epochs (a lottery's
   * draw epoch, a box's reveal epoch) arrive on an idle chain too. 0: blocks only for transactions.
   * Not used with CHAIN_BLOCK_INTERVAL_MS (that mode already makes a block every interval).
   */
  paceMs: number;
  /** CHAIN_BLOCK_QUERIES_PER_MIN: public block look-ups (GET /chain/v1/block, the proof pages) one client IP may make per minute. */
  blockQueriesPerMinute: number;
  receiptTries: number;
  receiptIntervalMs: number;
  indexerIntervalMs: number;
}

export interface Config {
  /**
   * DEV_MODE=1: the development and sandbox features (dev routes, SMS outbox, test captcha,
   * sandbox cashier and top-up, demo data, dev wallet + RPC proxy) may run. Never on a public server.
   */
  devMode: boolean;
  /**
   * PASSWORD_SCRYPT_N (tests only; DEV_MODE=1 and not NODE_ENV=production): scrypt's N for new password
   * hashes, a power of two from 2^10 to 2^17. Default and production: 2^17 (util/crypto.ts).
   */
  passwordScryptN: number;
  port: number;
  host: string;
  /**
   * TRUST_PROXY: which proxies may set X-Forwarded-For. A hop count (`1` = the one reverse proxy
   * in front of us) or a comma-separated list of proxy addresses/CIDRs; unset trusts none.
   */
  trustProxy: false | number | string[];
  dataDir: string;
  /** A postgres:// URL selects PostgreSQL; undefined selects SQLite under dataDir. */
  databaseUrl?: string;
  /**
   * PostgreSQL connections per process: `max` for requests (DB_POOL_MAX, default 10) and `workerMax`
   * for the worker role's own pool (DB_WORKER_POOL_MAX, default 6; opened only while this process
   * holds the worker lease). `prepared`: named prepared statements per connection for the hot SQL
   * texts (DB_PREPARED_STATEMENTS, default 200; 0 = every query unnamed, parsed and planned anew).
   * Unused on SQLite.
   */
  dbPool: { max: number; workerMax: number; prepared: number };
  /**
   * SQLITE_CHECKPOINT_THREAD (default 1): the embedded database's WAL checkpoints run in a thread of
   * their own instead of inside a commit on the event loop (db/sqlite-checkpointer.ts). Unused on PostgreSQL.
   */
  sqliteCheckpointThread: boolean;
  smsProvider: 'sandbox' | 'aliyun';
  captchaProvider: 'slider' | 'yidun' | 'test';
  kycProvider: 'sandbox' | 'aliyun';
  sessionTtlMs: number;
  /** Serve the web app's SSR build (off in API-only tests). */
  serveWeb: boolean;
  webBuildDir: string;
  logLevel: string;
  /** Seed the deterministic demo catalog on start when the catalog is empty (DEMO_DATA, default 1 on SQLite). */
  demoData: boolean;
  /** Number of demo collectibles (DEMO_GOODS, default 2000; the benchmark seeds 100k). */
  demoGoods: number;
  /** Free-market commission, per mille of the sale price (COMMISSION_PERMILLE, default 50 = 5%). */
  commissionPermille: number;
  /**
   * Lifetime of cached catalog list pages (CATALOG_CACHE_MS, default 1000; 0 disables; totals are cached 2 s regardless).
   * On SQLite an entry also dies with any write to the database; on PostgreSQL it is this bound.
   */
  catalogCacheMs: number;
  /** Memory for cached collectible-details responses (MB); 0 turns the cache off. */
  detailsCacheMb: number;
  /** Consignment market, orders and payments (config/market.ts). */
  market: MarketConfig;
  /** Primary sale (config/drops.ts). */
  drops: DropsConfig;
  /** Uploads and their storage provider (config/uploads.ts). */
  uploads: UploadsConfig;
  /** Account cancellation and the personal-data export (config/privacy.ts). */
  privacy: PrivacyConfig;
  /** Blind-box openings, compose, shift and gifts (config/goods-flows.ts). */
  goodsFlows: GoodsFlowsConfig;
  /** Money out: payout provider, withdrawal fee and limits, refunds of stray payments (config/payout.ts). */
  payout: PayoutConfig;
  /** The message center: reminders, order-expiring lead, SSE streams (config/messages.ts). */
  messages: MessagesConfig;
  limits: {
    smsResendMs: number;
    smsCodeTtlMs: number;
    smsMaxWrongTries: number;
    smsDailyPerMobile: number;
    smsDailyPerIp: number;
    loginFailuresPerMobile: number;
    loginFailuresPerIp: number;
    loginWindowMs: number;
    /** Wrong registration codes allowed per phone / per IP within loginWindowMs (REGISTER_FAILURES_PER_MOBILE / _PER_IP, default 10 / 30). */
    registerFailuresPerMobile: number;
    registerFailuresPerIp: number;
    captchaTokenTtlMs: number;
    resetTokenTtlMs: number;
    /** Slider challenges one client IP may ask for per minute (CAPTCHA_CHALLENGES_PER_IP, default 30). */
    captchaChallengesPerIp: number;
    /** Leading zero bits of the slider's proof of work (CAPTCHA_POW_BITS, default 15, 0–24). */
    captchaPowBits: number;
    /** Real-name attempts per user per 24 h (KYC_ATTEMPTS_PER_USER, default 5). */
    kycAttemptsPerUser: number;
    /** Accounts one ID number may verify (KYC_ACCOUNTS_PER_IDENTITY, default 3); they share the per-identity drop limits. */
    kycAccountsPerIdentity: number;
  };
  chain: ChainConfig;
  aliyunKyc?: { accessKeyId: string; accessKeySecret: string; endpoint: string };
  aliyunSms?: { accessKeyId: string; accessKeySecret: string; signName: string; templateCode: string; endpoint: string; noticeTemplates?: Record<string, string> };
  yidun?: { captchaId: string; secretId: string; secretKey: string; endpoint: string };
}

/**
 * The typed configuration of `env` (default: process.env); `overrides` replace parts of it (tests).
 * A variable that is not of its form, or a combination that must not run, throws a ConfigError.
 */
export function loadConfig(raw: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const repoRoot = path.resolve(import.meta.dirname, '../../../..');
  const env = parseEnv(raw);
  const devMode = env.DEV_MODE;
  const databaseUrl = env.DATABASE_URL;
  const config: Config = {
    devMode,
    passwordScryptN: passwordScryptN(env.PASSWORD_SCRYPT_N, devMode, env.NODE_ENV),
    port: env.PORT,
    trustProxy: env.TRUST_PROXY,
    host: env.HOST,
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl,
    dbPool: { max: env.DB_POOL_MAX, workerMax: env.DB_WORKER_POOL_MAX, prepared: env.DB_PREPARED_STATEMENTS },
    sqliteCheckpointThread: env.SQLITE_CHECKPOINT_THREAD,
    smsProvider: env.SMS_PROVIDER,
    captchaProvider: env.CAPTCHA_PROVIDER,
    kycProvider: env.KYC_PROVIDER,
    sessionTtlMs: env.SESSION_TTL_HOURS * 3600_000,
    serveWeb: env.SERVE_WEB,
    webBuildDir: path.resolve(env.WEB_BUILD_DIR ?? path.join(repoRoot, 'apps/web/build')),
    logLevel: env.LOG_LEVEL,
    demoData: env.DEMO_DATA ?? (devMode && !databaseUrl),
    demoGoods: env.DEMO_GOODS,
    commissionPermille: env.COMMISSION_PERMILLE,
    catalogCacheMs: env.CATALOG_CACHE_MS,
    detailsCacheMb: env.DETAILS_CACHE_MB,
    market: loadMarketConfig(raw, devMode),
    drops: loadDropsConfig(raw),
    uploads: loadUploadsConfig(raw),
    privacy: loadPrivacyConfig(raw),
    goodsFlows: loadGoodsFlowsConfig(raw),
    payout: loadPayoutConfig(raw, devMode),
    messages: loadMessagesConfig(raw),
    chain: {
      mode: env.CHAIN === 'off' ? 'off' : env.CHAIN_RPC_URL ? 'rpc' : 'embedded',
      rpcUrl: env.CHAIN_RPC_URL,
      networkId: env.CHAIN_NETWORK_ID,
      operatorKey: env.CHAIN_OPERATOR_KEY,
      ownerKey: env.CHAIN_OWNER_KEY,
      collectibleAddress: env.CHAIN_COLLECTIBLE_ADDRESS,
      exchangeAddress: env.CHAIN_EXCHANGE_ADDRESS,
      explorerUrl: env.CHAIN_EXPLORER_URL.replace(/\/+$/, ''),
      nodeRpcPort: env.CHAIN_NODE_RPC_PORT,
      nodeP2pPort: env.CHAIN_NODE_P2P_PORT,
      nodePublicListen: env.CHAIN_NODE_PUBLIC_LISTEN,
      blockIntervalMs: env.CHAIN_BLOCK_INTERVAL_MS,
      paceMs: env.CHAIN_PACE_MS,
      blockQueriesPerMinute: env.CHAIN_BLOCK_QUERIES_PER_MIN,
      receiptTries: env.CHAIN_RECEIPT_TRIES,
      receiptIntervalMs: env.CHAIN_RECEIPT_INTERVAL_MS,
      indexerIntervalMs: env.CHAIN_INDEXER_INTERVAL_MS,
    },
    limits: {
      smsResendMs: env.SMS_RESEND_SECONDS * 1000,
      smsCodeTtlMs: 5 * 60_000,
      smsMaxWrongTries: 5,
      smsDailyPerMobile: env.SMS_DAILY_PER_MOBILE,
      smsDailyPerIp: env.SMS_DAILY_PER_IP,
      loginFailuresPerMobile: env.LOGIN_FAILURES_PER_MOBILE,
      loginFailuresPerIp: env.LOGIN_FAILURES_PER_IP,
      loginWindowMs: 15 * 60_000,
      registerFailuresPerMobile: env.REGISTER_FAILURES_PER_MOBILE,
      registerFailuresPerIp: env.REGISTER_FAILURES_PER_IP,
      captchaTokenTtlMs: 2 * 60_000,
      resetTokenTtlMs: 10 * 60_000,
      captchaChallengesPerIp: env.CAPTCHA_CHALLENGES_PER_IP,
      captchaPowBits: env.CAPTCHA_POW_BITS,
      kycAttemptsPerUser: env.KYC_ATTEMPTS_PER_USER,
      kycAccountsPerIdentity: env.KYC_ACCOUNTS_PER_IDENTITY,
    },
  };
  const bySms = 'by the selected provider (SMS_PROVIDER=aliyun)';
  if (config.smsProvider === 'aliyun') {
    config.aliyunSms = {
      accessKeyId: need(env.ALIYUN_SMS_ACCESS_KEY_ID, 'ALIYUN_SMS_ACCESS_KEY_ID', bySms),
      accessKeySecret: need(env.ALIYUN_SMS_ACCESS_KEY_SECRET, 'ALIYUN_SMS_ACCESS_KEY_SECRET', bySms),
      signName: need(env.ALIYUN_SMS_SIGN_NAME, 'ALIYUN_SMS_SIGN_NAME', bySms),
      templateCode: need(env.ALIYUN_SMS_TEMPLATE_CODE, 'ALIYUN_SMS_TEMPLATE_CODE', bySms),
      endpoint: env.ALIYUN_SMS_ENDPOINT,
      noticeTemplates: env.ALIYUN_SMS_NOTICE_TEMPLATES,
    };
  }
  const byKyc = 'by the selected provider (KYC_PROVIDER=aliyun)';
  if (config.kycProvider === 'aliyun') {
    config.aliyunKyc = {
      accessKeyId: need(env.ALIYUN_KYC_ACCESS_KEY_ID, 'ALIYUN_KYC_ACCESS_KEY_ID', byKyc),
      accessKeySecret: need(env.ALIYUN_KYC_ACCESS_KEY_SECRET, 'ALIYUN_KYC_ACCESS_KEY_SECRET', byKyc),
      endpoint: env.ALIYUN_KYC_ENDPOINT,
    };
  }
  const byCaptcha = 'by the selected provider (CAPTCHA_PROVIDER=yidun)';
  if (config.captchaProvider === 'yidun') {
    config.yidun = {
      captchaId: need(env.YIDUN_CAPTCHA_ID, 'YIDUN_CAPTCHA_ID', byCaptcha),
      secretId: need(env.YIDUN_SECRET_ID, 'YIDUN_SECRET_ID', byCaptcha),
      secretKey: need(env.YIDUN_SECRET_KEY, 'YIDUN_SECRET_KEY', byCaptcha),
      endpoint: env.YIDUN_ENDPOINT,
    };
  }
  if (config.chain.mode === 'rpc' && (!config.chain.operatorKey || !config.chain.collectibleAddress || !config.chain.exchangeAddress)) {
    throw new ConfigError('CHAIN_RPC_URL needs CHAIN_OPERATOR_KEY, CHAIN_COLLECTIBLE_ADDRESS and CHAIN_EXCHANGE_ADDRESS');
  }
  if (config.chain.mode === 'rpc' && config.chain.ownerKey) {
    throw new ConfigError('CHAIN_OWNER_KEY must not be set with CHAIN_RPC_URL: the server never uses the owner key; keep it offline (docs/operations.md, Key roles)');
  }
  if (config.chain.ownerKey && config.chain.operatorKey && sameKey(config.chain.ownerKey, config.chain.operatorKey)) {
    throw new ConfigError('CHAIN_OWNER_KEY and CHAIN_OPERATOR_KEY must be different keys');
  }
  checkSafeDefaults(config, raw);
  return {
    ...config,
    ...overrides,
    limits: { ...config.limits, ...(overrides.limits ?? {}) },
    chain: { ...config.chain, ...(overrides.chain ?? {}) },
  };
}

/** PASSWORD_SCRYPT_N: lowers password hashing cost for test suites only (see Config.passwordScryptN). */
function passwordScryptN(n: number | undefined, devMode: boolean, nodeEnv: string | undefined): number {
  if (n === undefined) return PASSWORD_SCRYPT.N;
  if (!devMode || nodeEnv === 'production') throw new ConfigError('PASSWORD_SCRYPT_N is for test suites only: it needs DEV_MODE=1 and is refused with NODE_ENV=production');
  return n;
}

const sameKey = (a: string, b: string) => a.replace(/^0x/i, '').toLowerCase() === b.replace(/^0x/i, '').toLowerCase();

/**
 * Safe by default: the sandbox and development features run only with an explicit DEV_MODE=1,
 * and with NODE_ENV=production and DEV_MODE unset no sandbox provider may be selected at all.
 * Throws a ConfigError naming every offending setting.
 */
export function checkSafeDefaults(config: Config, env: NodeJS.ProcessEnv) {
  const problems: string[] = [];
  const pay = config.market.payment;
  if (pay.sandbox && pay.alipay) problems.push('PAYMENT_SANDBOX=1 next to a real payment provider (ALIPAY_APP_ID): set PAYMENT_SANDBOX=0');
  if (pay.sandbox && pay.wechat) problems.push('PAYMENT_SANDBOX=1 next to a real payment provider (WECHATPAY_MCH_ID): set PAYMENT_SANDBOX=0');
  if (!config.devMode) {
    const needDev: string[] = [];
    if (config.captchaProvider === 'test') needDev.push('CAPTCHA_PROVIDER=test');
    if (pay.sandbox) needDev.push('PAYMENT_SANDBOX=1');
    if (config.demoData) needDev.push('DEMO_DATA=1');
    if (needDev.length) problems.push(`${needDev.join(', ')} need DEV_MODE=1 (development only)`);
    if (env.NODE_ENV === 'production') {
      const sandbox: string[] = [];
      if (config.smsProvider === 'sandbox') sandbox.push('SMS_PROVIDER=sandbox (set SMS_PROVIDER=aliyun)');
      if (config.kycProvider === 'sandbox') sandbox.push('KYC_PROVIDER=sandbox (set KYC_PROVIDER=aliyun)');
      if (sandbox.length) problems.push(`NODE_ENV=production without DEV_MODE refuses sandbox providers: ${sandbox.join(', ')}`);
    }
  }
  if (problems.length) throw new ConfigError(`refusing to start: ${problems.join('; ')}`);
}
