import net from 'node:net';
import { z } from 'zod';
import { PASSWORD_SCRYPT } from '../util/crypto.ts';
import { dropsEnv } from './drops.ts';
import { goodsFlowsEnv } from './goods-flows.ts';
import { marketEnv } from './market.ts';
import { messagesEnv, parseNoticeTemplates } from './messages.ts';
import { payoutEnv } from './payout.ts';
import { privacyEnv } from './privacy.ts';
import { uploadsEnv } from './uploads.ts';
import { ConfigError, customVar, flagVar, intVar, oneOfVar, parseVars, strVar, urlVar } from './vars.ts';

/**
 * The server's environment: every variable the server reads at start-up, with its form and default
 * (README "Configuration (environment)" documents each one). The areas with their own settings
 * object (market, drops, uploads, …) declare their variables next to their loader; this file joins
 * them into the one schema and holds the server's own.
 */

const httpUrl = { pattern: /^https?:\/\/\S+$/, expected: 'an http(s):// URL' };

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

const isPowerOfTwo = (n: number) => (n & (n - 1)) === 0;

/** The server's own variables (server, accounts, captcha, real-name, catalogue, chain). */
export const serverEnv = {
  DEV_MODE: flagVar({ default: false }),
  NODE_ENV: strVar(),
  /** Tests only: see Config.passwordScryptN; unset gives undefined so the loader can refuse it outside DEV_MODE. */
  PASSWORD_SCRYPT_N: customVar<number | undefined>(
    `a power of two from 1024 to ${PASSWORD_SCRYPT.N}`,
    (v) => {
      const n = /^\d+$/.test(v) ? Number(v) : NaN;
      return Number.isInteger(n) && n >= 1024 && n <= PASSWORD_SCRYPT.N && isPowerOfTwo(n) ? n : undefined;
    },
    undefined,
  ),
  PORT: intVar({ min: 0, max: 65535, default: 3000 }),
  HOST: strVar({ default: '0.0.0.0' }),
  TRUST_PROXY: customVar<false | number | string[]>(
    'a hop count (e.g. 1) or a comma-separated list of proxy IPs/CIDRs',
    (v) => {
      try {
        return parseTrustProxy(v);
      } catch {
        return undefined;
      }
    },
    false,
  ),
  DATA_DIR: strVar({ default: './data' }),
  DATABASE_URL: urlVar({ pattern: /^postgres(ql)?:\/\//, expected: 'a postgres:// URL (leave it unset for the embedded SQLite database)' }),
  DB_POOL_MAX: intVar({ min: 1, max: 1000, default: 10 }),
  DB_WORKER_POOL_MAX: intVar({ min: 1, max: 1000, default: 6 }),
  DB_PREPARED_STATEMENTS: intVar({ min: 0, max: 10_000, default: 200 }),
  SQLITE_CHECKPOINT_THREAD: flagVar({ default: true }),
  SMS_PROVIDER: oneOfVar(['sandbox', 'aliyun'], { default: 'sandbox' }),
  CAPTCHA_PROVIDER: oneOfVar(['slider', 'yidun', 'test'], { default: 'slider' }),
  KYC_PROVIDER: oneOfVar(['sandbox', 'aliyun'], { default: 'sandbox' }),
  SESSION_TTL_HOURS: intVar({ min: 1, default: 24 * 7 }),
  SERVE_WEB: flagVar({ default: true }),
  WEB_BUILD_DIR: strVar(),
  LOG_LEVEL: oneOfVar(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info' }),
  /** Default: on with DEV_MODE=1 on SQLite (the loader decides). */
  DEMO_DATA: flagVar(),
  DEMO_GOODS: intVar({ min: 0, max: 1_000_000, default: 2000 }),
  COMMISSION_PERMILLE: intVar({ min: 0, max: 1000, default: 50 }),
  CATALOG_CACHE_MS: intVar({ min: 0, default: 1000 }),
  DETAILS_CACHE_MB: intVar({ min: 0, default: 128 }),
  SMS_RESEND_SECONDS: intVar({ min: 0, default: 60 }),
  SMS_DAILY_PER_MOBILE: intVar({ min: 0, default: 10 }),
  SMS_DAILY_PER_IP: intVar({ min: 0, default: 50 }),
  LOGIN_FAILURES_PER_MOBILE: intVar({ min: 1, default: 5 }),
  LOGIN_FAILURES_PER_IP: intVar({ min: 1, default: 30 }),
  REGISTER_FAILURES_PER_MOBILE: intVar({ min: 1, default: 10 }),
  REGISTER_FAILURES_PER_IP: intVar({ min: 1, default: 30 }),
  CAPTCHA_CHALLENGES_PER_IP: intVar({ min: 1, default: 30 }),
  CAPTCHA_POW_BITS: intVar({ min: 0, max: 24, default: 15 }),
  KYC_ATTEMPTS_PER_USER: intVar({ min: 1, default: 5 }),
  KYC_ACCOUNTS_PER_IDENTITY: intVar({ min: 1, default: 3 }),
  ALIYUN_SMS_ACCESS_KEY_ID: strVar(),
  ALIYUN_SMS_ACCESS_KEY_SECRET: strVar(),
  ALIYUN_SMS_SIGN_NAME: strVar(),
  ALIYUN_SMS_TEMPLATE_CODE: strVar(),
  ALIYUN_SMS_ENDPOINT: urlVar({ ...httpUrl, default: 'https://dysmsapi.aliyuncs.com/' }),
  ALIYUN_SMS_NOTICE_TEMPLATES: customVar('comma-separated kind=TemplateCode pairs', parseNoticeTemplates, {}),
  ALIYUN_KYC_ACCESS_KEY_ID: strVar(),
  ALIYUN_KYC_ACCESS_KEY_SECRET: strVar(),
  ALIYUN_KYC_ENDPOINT: urlVar({ ...httpUrl, default: 'https://cloudauth.aliyuncs.com/' }),
  YIDUN_CAPTCHA_ID: strVar(),
  YIDUN_SECRET_ID: strVar(),
  YIDUN_SECRET_KEY: strVar(),
  YIDUN_ENDPOINT: urlVar({ ...httpUrl, default: 'https://c.dun.163.com/api/v2/verify' }),
  CHAIN: oneOfVar(['on', 'off'], { default: 'on' }),
  CHAIN_RPC_URL: urlVar(httpUrl),
  CHAIN_NETWORK_ID: intVar({ min: 1, max: 0xffffffff, default: 1029 }),
  CHAIN_OPERATOR_KEY: strVar(),
  CHAIN_OWNER_KEY: strVar(),
  CHAIN_COLLECTIBLE_ADDRESS: strVar(),
  CHAIN_EXCHANGE_ADDRESS: strVar(),
  CHAIN_EXPLORER_URL: urlVar({ ...httpUrl, default: 'https://confluxscan.io' }),
  CHAIN_NODE_RPC_PORT: intVar({ min: 1, max: 65535 }),
  CHAIN_NODE_P2P_PORT: intVar({ min: 1, max: 65535 }),
  CHAIN_NODE_PUBLIC_LISTEN: flagVar({ default: false }),
  CHAIN_BLOCK_INTERVAL_MS: intVar({ min: 1 }),
  CHAIN_PACE_MS: intVar({ min: 0, default: 500 }),
  CHAIN_BLOCK_QUERIES_PER_MIN: intVar({ min: 1, default: 30 }),
  CHAIN_RECEIPT_TRIES: intVar({ min: 1, default: 5 }),
  CHAIN_RECEIPT_INTERVAL_MS: intVar({ min: 1, default: 3000 }),
  CHAIN_INDEXER_INTERVAL_MS: intVar({ min: 1, default: 1000 }),
};

/** The whole environment the server reads: one schema, one parse, one ConfigError naming every bad variable. */
export const envSchema = z.object({
  ...serverEnv,
  ...marketEnv,
  ...dropsEnv,
  ...uploadsEnv,
  ...privacyEnv,
  ...goodsFlowsEnv,
  ...payoutEnv,
  ...messagesEnv,
});

export type Env = z.output<typeof envSchema>;

/** Every variable of the schema, for the documentation check (test/config.test.ts). */
export const ENV_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

/** Parses (only) the schema's variables out of `raw`; throws a ConfigError naming each bad one. */
export function parseEnv(raw: NodeJS.ProcessEnv | Record<string, string | undefined>): Env {
  return parseVars(envSchema, raw);
}
