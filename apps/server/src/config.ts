import net from 'node:net';
import path from 'node:path';
import { PASSWORD_SCRYPT } from './util/crypto.ts';
import { loadMarketConfig, type MarketConfig } from './modules/market/market-config.ts';
import { loadDropsConfig, type DropsConfig } from './modules/drops/drops-config.ts';
import { loadUploadsConfig, type UploadsConfig } from './modules/uploads/uploads-config.ts';
import { loadPrivacyConfig, type PrivacyConfig } from './modules/privacy/privacy-config.ts';
import { loadGoodsFlowsConfig, type GoodsFlowsConfig } from './modules/shift/flows-config.ts';
import { loadPayoutConfig, type PayoutConfig } from './modules/payout/payout-config.ts';
import { loadMessagesConfig, parseNoticeTemplates, type MessagesConfig } from './modules/messages/messages-config.ts';

/** Everything the server reads from the environment, with the embedded defaults. */
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
  /** Consignment market, orders and payments (modules/market/market-config.ts). */
  market: MarketConfig;
  /** Primary sale (modules/drops/drops-config.ts). */
  drops: DropsConfig;
  /** Uploads and their storage provider (modules/uploads/uploads-config.ts). */
  uploads: UploadsConfig;
  /** Account cancellation and the personal-data export (modules/privacy/privacy-config.ts). */
  privacy: PrivacyConfig;
  /** Blind-box openings, compose, shift and gifts (modules/shift/flows-config.ts). */
  goodsFlows: GoodsFlowsConfig;
  /** Money out: payout provider, withdrawal fee and limits, refunds of stray payments (modules/payout/payout-config.ts). */
  payout: PayoutConfig;
  /** The message center: reminders, order-expiring lead, SSE streams (modules/messages/messages-config.ts). */
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

const int = (v: string | undefined, d: number) => {
  const n = v === undefined || v === '' ? NaN : Number(v);
  return Number.isFinite(n) ? n : d;
};

/** A setting that must not start the server; main.ts prints the message and exits 1. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

function oneOf<T extends string>(name: string, v: string | undefined, allowed: readonly T[], d: T): T {
  if (v === undefined || v === '') return d;
  if ((allowed as readonly string[]).includes(v)) return v as T;
  throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got "${v}")`);
}

/** PASSWORD_SCRYPT_N: lowers password hashing cost for test suites only (see Config.passwordScryptN). */
function passwordScryptN(env: NodeJS.ProcessEnv, devMode: boolean): number {
  const v = env.PASSWORD_SCRYPT_N;
  if (v === undefined || v === '') return PASSWORD_SCRYPT.N;
  if (!devMode || env.NODE_ENV === 'production') throw new ConfigError('PASSWORD_SCRYPT_N is for test suites only: it needs DEV_MODE=1 and is refused with NODE_ENV=production');
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1024 || n > PASSWORD_SCRYPT.N || (n & (n - 1)) !== 0) throw new ConfigError(`PASSWORD_SCRYPT_N must be a power of two from 1024 to ${PASSWORD_SCRYPT.N} (got "${v}")`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const repoRoot = path.resolve(import.meta.dirname, '../../..');
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// URL (leave it unset for the embedded SQLite database)');
  }
  const devMode = flag('DEV_MODE', env.DEV_MODE, false);
  const config: Config = {
    devMode,
    passwordScryptN: passwordScryptN(env, devMode),
    port: int(env.PORT, 3000),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    smsProvider: oneOf('SMS_PROVIDER', env.SMS_PROVIDER, ['sandbox', 'aliyun'] as const, 'sandbox'),
    captchaProvider: oneOf('CAPTCHA_PROVIDER', env.CAPTCHA_PROVIDER, ['slider', 'yidun', 'test'] as const, 'slider'),
    kycProvider: oneOf('KYC_PROVIDER', env.KYC_PROVIDER, ['sandbox', 'aliyun'] as const, 'sandbox'),
    sessionTtlMs: int(env.SESSION_TTL_HOURS, 24 * 7) * 3600_000,
    serveWeb: env.SERVE_WEB !== '0',
    webBuildDir: path.resolve(env.WEB_BUILD_DIR || path.join(repoRoot, 'apps/web/build')),
    logLevel: env.LOG_LEVEL || 'info',
    demoData: flag('DEMO_DATA', env.DEMO_DATA, devMode && !databaseUrl),
    demoGoods: Math.max(0, Math.min(1_000_000, int(env.DEMO_GOODS, 2000))),
    commissionPermille: Math.max(0, Math.min(1000, int(env.COMMISSION_PERMILLE, 50))),
    catalogCacheMs: Math.max(0, int(env.CATALOG_CACHE_MS, 1000)),
    detailsCacheMb: Math.max(0, int(env.DETAILS_CACHE_MB, 128)),
    market: loadMarketConfig(env, devMode),
    drops: loadDropsConfig(env),
    uploads: loadUploadsConfig(env),
    privacy: loadPrivacyConfig(env),
    goodsFlows: loadGoodsFlowsConfig(env),
    payout: loadPayoutConfig(env, devMode),
    messages: loadMessagesConfig(env),
    chain: {
      mode: env.CHAIN === 'off' ? 'off' : env.CHAIN_RPC_URL ? 'rpc' : 'embedded',
      rpcUrl: env.CHAIN_RPC_URL || undefined,
      networkId: int(env.CHAIN_NETWORK_ID, 1029),
      operatorKey: env.CHAIN_OPERATOR_KEY || undefined,
      ownerKey: env.CHAIN_OWNER_KEY || undefined,
      collectibleAddress: env.CHAIN_COLLECTIBLE_ADDRESS || undefined,
      exchangeAddress: env.CHAIN_EXCHANGE_ADDRESS || undefined,
      explorerUrl: (env.CHAIN_EXPLORER_URL || 'https://confluxscan.io').replace(/\/+$/, ''),
      nodeRpcPort: env.CHAIN_NODE_RPC_PORT ? int(env.CHAIN_NODE_RPC_PORT, 0) : undefined,
      nodeP2pPort: env.CHAIN_NODE_P2P_PORT ? int(env.CHAIN_NODE_P2P_PORT, 0) : undefined,
      nodePublicListen: flag('CHAIN_NODE_PUBLIC_LISTEN', env.CHAIN_NODE_PUBLIC_LISTEN, false),
      blockIntervalMs: env.CHAIN_BLOCK_INTERVAL_MS ? int(env.CHAIN_BLOCK_INTERVAL_MS, 0) : undefined,
      paceMs: Math.max(0, int(env.CHAIN_PACE_MS, 500)),
      blockQueriesPerMinute: Math.max(1, int(env.CHAIN_BLOCK_QUERIES_PER_MIN, 30)),
      receiptTries: int(env.CHAIN_RECEIPT_TRIES, 5),
      receiptIntervalMs: int(env.CHAIN_RECEIPT_INTERVAL_MS, 3000),
      indexerIntervalMs: int(env.CHAIN_INDEXER_INTERVAL_MS, 1000),
    },
    limits: {
      smsResendMs: int(env.SMS_RESEND_SECONDS, 60) * 1000,
      smsCodeTtlMs: 5 * 60_000,
      smsMaxWrongTries: 5,
      smsDailyPerMobile: int(env.SMS_DAILY_PER_MOBILE, 10),
      smsDailyPerIp: int(env.SMS_DAILY_PER_IP, 50),
      loginFailuresPerMobile: int(env.LOGIN_FAILURES_PER_MOBILE, 5),
      loginFailuresPerIp: int(env.LOGIN_FAILURES_PER_IP, 30),
      loginWindowMs: 15 * 60_000,
      registerFailuresPerMobile: int(env.REGISTER_FAILURES_PER_MOBILE, 10),
      registerFailuresPerIp: int(env.REGISTER_FAILURES_PER_IP, 30),
      captchaTokenTtlMs: 2 * 60_000,
      resetTokenTtlMs: 10 * 60_000,
      captchaChallengesPerIp: Math.max(1, int(env.CAPTCHA_CHALLENGES_PER_IP, 30)),
      captchaPowBits: Math.min(24, Math.max(0, int(env.CAPTCHA_POW_BITS, 15))),
      kycAttemptsPerUser: Math.max(1, int(env.KYC_ATTEMPTS_PER_USER, 5)),
      kycAccountsPerIdentity: Math.max(1, int(env.KYC_ACCOUNTS_PER_IDENTITY, 3)),
    },
  };
  if (config.smsProvider === 'aliyun') {
    config.aliyunSms = {
      accessKeyId: required(env, 'ALIYUN_SMS_ACCESS_KEY_ID'),
      accessKeySecret: required(env, 'ALIYUN_SMS_ACCESS_KEY_SECRET'),
      signName: required(env, 'ALIYUN_SMS_SIGN_NAME'),
      templateCode: required(env, 'ALIYUN_SMS_TEMPLATE_CODE'),
      endpoint: env.ALIYUN_SMS_ENDPOINT || 'https://dysmsapi.aliyuncs.com/',
      noticeTemplates: parseNoticeTemplates(env.ALIYUN_SMS_NOTICE_TEMPLATES),
    };
  }
  if (config.kycProvider === 'aliyun') {
    config.aliyunKyc = {
      accessKeyId: required(env, 'ALIYUN_KYC_ACCESS_KEY_ID'),
      accessKeySecret: required(env, 'ALIYUN_KYC_ACCESS_KEY_SECRET'),
      endpoint: env.ALIYUN_KYC_ENDPOINT || 'https://cloudauth.aliyuncs.com/',
    };
  }
  if (config.captchaProvider === 'yidun') {
    config.yidun = {
      captchaId: required(env, 'YIDUN_CAPTCHA_ID'),
      secretId: required(env, 'YIDUN_SECRET_ID'),
      secretKey: required(env, 'YIDUN_SECRET_KEY'),
      endpoint: env.YIDUN_ENDPOINT || 'https://c.dun.163.com/api/v2/verify',
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
  checkSafeDefaults(config, env);
  return {
    ...config,
    ...overrides,
    limits: { ...config.limits, ...(overrides.limits ?? {}) },
    chain: { ...config.chain, ...(overrides.chain ?? {}) },
  };
}

const sameKey = (a: string, b: string) => a.replace(/^0x/i, '').toLowerCase() === b.replace(/^0x/i, '').toLowerCase();

function required(env: NodeJS.ProcessEnv, name: string): string {
  const v = env[name];
  if (!v) throw new ConfigError(`${name} is required by the selected provider`);
  return v;
}

/** `1`, `2`, … (hops) or `10.0.0.1, 10.1.0.0/16` (proxy addresses); `true` would let any client forge its IP. */
export function parseTrustProxy(v: string | undefined): false | number | string[] {
  if (v === undefined || v.trim() === '' || v.trim() === '0') return false;
  const s = v.trim();
  if (/^\d+$/.test(s)) return Math.min(Number(s), 16);
  const list = s.split(',').map((x) => x.trim()).filter(Boolean);
  const ok = (x: string) => {
    const [addr, bits, extra] = x.split('/');
    if (extra !== undefined || !addr) return false;
    const kind = net.isIP(addr);
    if (!kind) return false;
    if (bits === undefined) return true;
    const n = /^\d{1,3}$/.test(bits) ? Number(bits) : -1;
    return n >= 0 && n <= (kind === 4 ? 32 : 128);
  };
  const bad = list.filter((x) => !ok(x));
  if (!list.length || bad.length) {
    throw new ConfigError(`TRUST_PROXY must be a hop count (e.g. 1) or a comma-separated list of proxy IPs/CIDRs, not "${bad[0] ?? s}"`);
  }
  return list;
}

function flag(name: string, v: string | undefined, d: boolean): boolean {
  if (v === undefined || v === '') return d;
  if (v === '1' || v === '0') return v === '1';
  throw new ConfigError(`${name} must be 1 or 0 (got "${v}")`);
}

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
