import path from 'node:path';
import { loadMarketConfig, type MarketConfig } from './modules/market/market-config.ts';

/** Everything the server reads from the environment, with the embedded defaults. */
export interface ChainConfig {
  /** 'embedded' starts @xcfx/node in a child process; 'rpc' uses CHAIN_RPC_URL; 'off' runs without a chain. */
  mode: 'embedded' | 'rpc' | 'off';
  rpcUrl?: string;
  networkId: number;
  operatorKey?: string;
  collectibleAddress?: string;
  exchangeAddress?: string;
  /** Explorer prefix; a transaction link is `${explorerUrl}/transaction/${hash}`. */
  explorerUrl: string;
  nodeRpcPort?: number;
  nodeP2pPort?: number;
  /** Embedded node: produce a block every N ms instead of packing each transaction at once. */
  blockIntervalMs?: number;
  receiptTries: number;
  receiptIntervalMs: number;
  indexerIntervalMs: number;
}

export interface Config {
  port: number;
  host: string;
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
  limits: {
    smsResendMs: number;
    smsCodeTtlMs: number;
    smsMaxWrongTries: number;
    smsDailyPerMobile: number;
    smsDailyPerIp: number;
    loginFailuresPerMobile: number;
    loginFailuresPerIp: number;
    loginWindowMs: number;
    captchaTokenTtlMs: number;
    resetTokenTtlMs: number;
  };
  chain: ChainConfig;
  aliyunKyc?: { accessKeyId: string; accessKeySecret: string; endpoint: string };
  aliyunSms?: { accessKeyId: string; accessKeySecret: string; signName: string; templateCode: string; endpoint: string };
  yidun?: { captchaId: string; secretId: string; secretKey: string; endpoint: string };
}

const int = (v: string | undefined, d: number) => {
  const n = v === undefined || v === '' ? NaN : Number(v);
  return Number.isFinite(n) ? n : d;
};

function oneOf<T extends string>(name: string, v: string | undefined, allowed: readonly T[], d: T): T {
  if (v === undefined || v === '') return d;
  if ((allowed as readonly string[]).includes(v)) return v as T;
  throw new Error(`${name} must be one of ${allowed.join(', ')} (got "${v}")`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const repoRoot = path.resolve(import.meta.dirname, '../../..');
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must be a postgres:// URL (leave it unset for the embedded SQLite database)');
  }
  const config: Config = {
    port: int(env.PORT, 3000),
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
    demoData: env.DEMO_DATA ? env.DEMO_DATA === '1' : !databaseUrl,
    demoGoods: Math.max(0, Math.min(1_000_000, int(env.DEMO_GOODS, 2000))),
    commissionPermille: Math.max(0, Math.min(1000, int(env.COMMISSION_PERMILLE, 50))),
    catalogCacheMs: Math.max(0, int(env.CATALOG_CACHE_MS, 1000)),
    detailsCacheMb: Math.max(0, int(env.DETAILS_CACHE_MB, 128)),
    market: loadMarketConfig(env),
    chain: {
      mode: env.CHAIN === 'off' ? 'off' : env.CHAIN_RPC_URL ? 'rpc' : 'embedded',
      rpcUrl: env.CHAIN_RPC_URL || undefined,
      networkId: int(env.CHAIN_NETWORK_ID, 1029),
      operatorKey: env.CHAIN_OPERATOR_KEY || undefined,
      collectibleAddress: env.CHAIN_COLLECTIBLE_ADDRESS || undefined,
      exchangeAddress: env.CHAIN_EXCHANGE_ADDRESS || undefined,
      explorerUrl: (env.CHAIN_EXPLORER_URL || 'https://confluxscan.io').replace(/\/+$/, ''),
      nodeRpcPort: env.CHAIN_NODE_RPC_PORT ? int(env.CHAIN_NODE_RPC_PORT, 0) : undefined,
      nodeP2pPort: env.CHAIN_NODE_P2P_PORT ? int(env.CHAIN_NODE_P2P_PORT, 0) : undefined,
      blockIntervalMs: env.CHAIN_BLOCK_INTERVAL_MS ? int(env.CHAIN_BLOCK_INTERVAL_MS, 0) : undefined,
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
      captchaTokenTtlMs: 2 * 60_000,
      resetTokenTtlMs: 10 * 60_000,
    },
  };
  if (config.smsProvider === 'aliyun') {
    config.aliyunSms = {
      accessKeyId: required(env, 'ALIYUN_SMS_ACCESS_KEY_ID'),
      accessKeySecret: required(env, 'ALIYUN_SMS_ACCESS_KEY_SECRET'),
      signName: required(env, 'ALIYUN_SMS_SIGN_NAME'),
      templateCode: required(env, 'ALIYUN_SMS_TEMPLATE_CODE'),
      endpoint: env.ALIYUN_SMS_ENDPOINT || 'https://dysmsapi.aliyuncs.com/',
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
    throw new Error('CHAIN_RPC_URL needs CHAIN_OPERATOR_KEY, CHAIN_COLLECTIBLE_ADDRESS and CHAIN_EXCHANGE_ADDRESS');
  }
  return {
    ...config,
    ...overrides,
    limits: { ...config.limits, ...(overrides.limits ?? {}) },
    chain: { ...config.chain, ...(overrides.chain ?? {}) },
  };
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const v = env[name];
  if (!v) throw new Error(`${name} is required by the selected provider`);
  return v;
}
