import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, ENV_VARIABLES, envSchema, loadConfig } from '../src/config.ts';
import { loadPayoutConfig } from '../src/config/payout.ts';

/**
 * The one environment schema (src/config/env.ts): every variable documented, one meaning for bad
 * values (a ConfigError naming the variable and the expected form), unset or empty → the default.
 */
const root = path.resolve(import.meta.dirname, '../../..');

function documented(): Set<string> {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Configuration (environment)');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const names = new Set<string>();
  for (const line of section.split('\n')) {
    if (!line.startsWith('|')) continue;
    for (const m of line.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(m[1]!);
  }
  return names;
}

const refusal = (env: NodeJS.ProcessEnv): string => {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error(`loadConfig(${JSON.stringify(env)}) started`);
};

describe('the environment schema', () => {
  it('documents every variable of the schema in the README configuration tables', () => {
    const docs = documented();
    expect(ENV_VARIABLES.length).toBeGreaterThan(100);
    expect(ENV_VARIABLES.filter((v) => !docs.has(v))).toEqual([]);
  });

  it('a value that is not a number stops the start with the variable, the expected form and the value', () => {
    expect(refusal({ PORT: 'abc' })).toBe('PORT must be an integer from 0 to 65535 (got "abc")');
    expect(refusal({ PORT: '3000x' })).toMatch(/^PORT must be an integer/);
    expect(refusal({ PORT: '1.5' })).toMatch(/^PORT must be an integer/);
    expect(refusal({ SESSION_TTL_HOURS: '1e3' })).toMatch(/^SESSION_TTL_HOURS must be an integer of at least 1/);
    expect(refusal({ UPLOAD_IMAGE_MAX_MB: 'big' })).toBe('UPLOAD_IMAGE_MAX_MB must be a number above 0 (got "big")');
  });

  it('negative and out-of-range values are refused, not clamped (the server used to start with a silently changed value)', () => {
    expect(refusal({ PORT: '-1' })).toMatch(/^PORT must be an integer from 0 to 65535 \(got "-1"\)/);
    expect(refusal({ PORT: '70000' })).toMatch(/^PORT must be/);
    expect(refusal({ COMMISSION_PERMILLE: '-5' })).toBe('COMMISSION_PERMILLE must be an integer from 0 to 1000 (got "-5")');
    expect(refusal({ MAX_UNPAID_ORDERS: '0' })).toBe('MAX_UNPAID_ORDERS must be an integer of at least 1 (got "0")');
    expect(refusal({ FLOW_HOLD_SECONDS: '10' })).toBe('FLOW_HOLD_SECONDS must be an integer from 30 to 3600 (got "10")');
    expect(refusal({ ACCOUNT_CANCEL_COOLING_DAYS: '-1' })).toMatch(/^ACCOUNT_CANCEL_COOLING_DAYS must be a number from 0 to 365/);
    expect(refusal({ UPLOAD_IMAGE_MAX_MB: '0' })).toMatch(/^UPLOAD_IMAGE_MAX_MB must be a number above 0/);
    expect(refusal({ WITHDRAW_FEE_PERMILLE: '-6' })).toMatch(/^WITHDRAW_FEE_PERMILLE must be an integer from 0 to 1000/);
    expect(refusal({ WITHDRAW_MIN_FEN: '2000', WITHDRAW_MAX_FEN: '1000' })).toMatch(/^WITHDRAW_MAX_FEN must be at least WITHDRAW_MIN_FEN/);
  });

  it('flags are 1 or 0 and choices one of their words', () => {
    expect(refusal({ MARKET_JOBS: 'no' })).toBe('MARKET_JOBS must be 1 or 0 (got "no")');
    expect(refusal({ SERVE_WEB: 'false' })).toBe('SERVE_WEB must be 1 or 0 (got "false")');
    expect(refusal({ LOG_LEVEL: 'loud' })).toMatch(/^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/);
    expect(refusal({ DATABASE_URL: 'mysql://x' })).toMatch(/^DATABASE_URL must be a postgres:\/\/ URL/);
  });

  it('names every bad variable at once', () => {
    const msg = refusal({ PORT: 'abc', BID_MAX_DAYS: '-1', PAYOUT_PROVIDER: 'bank' });
    expect(msg).toMatch(/PORT must be/);
    expect(msg).toMatch(/BID_MAX_DAYS must be/);
    expect(msg).toMatch(/PAYOUT_PROVIDER must be one of sandbox, yeepay, none \(got "bank"\)/);
  });

  it('every variable with a form refuses a value of no form, naming itself', () => {
    const checked: string[] = [];
    for (const name of ENV_VARIABLES) {
      const schema = envSchema.shape[name as keyof typeof envSchema.shape];
      if (schema.safeParse('§bad§').success) continue; // free text (keys, names, paths)
      checked.push(name);
      expect(refusal({ [name]: '§bad§' })).toContain(`${name} must be`);
    }
    expect(checked.length).toBeGreaterThan(80);
  });

  it('unset and empty variables take their defaults (an empty value is "unset", as `FOO=` in a compose file)', () => {
    for (const env of [{}, Object.fromEntries(ENV_VARIABLES.map((v) => [v, '']))]) {
      const c = loadConfig(env);
      expect(c.port).toBe(3000);
      expect(c.host).toBe('0.0.0.0');
      expect(c.sessionTtlMs).toBe(168 * 3600_000);
      expect(c.commissionPermille).toBe(50);
      expect(c.serveWeb).toBe(true);
      expect(c.logLevel).toBe('info');
      expect(c.trustProxy).toBe(false);
      expect(c.databaseUrl).toBeUndefined();
      expect(c.chain).toMatchObject({ mode: 'embedded', networkId: 1029, paceMs: 500, explorerUrl: 'https://confluxscan.io', receiptTries: 5 });
      expect(c.chain.nodeRpcPort).toBeUndefined();
      expect(c.limits).toMatchObject({ smsResendMs: 60_000, captchaPowBits: 15, kycAccountsPerIdentity: 3 });
      expect(c.market).toMatchObject({ royaltyPermille: 0, minPriceFen: 100, paymentWindowMs: 300_000, jobs: true, payment: { sandbox: false, returnUrl: '/pay' } });
      expect(c.drops).toMatchObject({ perIdentityLimit: 5, commissionPermille: 100, mintBatchSize: 50 });
      expect(c.uploads).toMatchObject({ provider: 'local', imageMaxBytes: 5 * 1024 * 1024, perUserDay: 100 });
      expect(c.privacy.cancelCoolingMs).toBe(15 * 24 * 3600_000);
      expect(c.goodsFlows).toEqual({ giftsPerDay: 5, holdMs: 300_000 });
      expect(c.payout).toMatchObject({ provider: 'none', feePermille: 6, minFen: 1000, refundStrayAutomatically: true });
      expect(c.messages).toMatchObject({ orderExpiringLeadMs: 60_000, dropRemindLeadMs: 600_000, streamsPerUser: 5 });
    }
  });

  it('valid values are taken as given', () => {
    const c = loadConfig({ PORT: '0', TRUST_PROXY: '1', COMMISSION_PERMILLE: '0', UPLOAD_IMAGE_MAX_MB: '0.5', ACCOUNT_CANCEL_COOLING_DAYS: '0.5', MARKET_JOBS: '0', CHAIN: 'off', CHAIN_NODE_RPC_PORT: '12537' });
    expect(c.port).toBe(0);
    expect(c.trustProxy).toBe(1);
    expect(c.commissionPermille).toBe(0);
    expect(c.uploads.imageMaxBytes).toBe(512 * 1024);
    expect(c.privacy.cancelCoolingMs).toBe(12 * 3600_000);
    expect(c.market.jobs).toBe(false);
    expect(c.chain.mode).toBe('off');
    expect(c.chain.nodeRpcPort).toBe(12537);
  });

  it('a variable a selected provider needs is refused when empty, naming it', () => {
    const sms = { SMS_PROVIDER: 'aliyun', ALIYUN_SMS_ACCESS_KEY_ID: 'a', ALIYUN_SMS_ACCESS_KEY_SECRET: 'b', ALIYUN_SMS_SIGN_NAME: '', ALIYUN_SMS_TEMPLATE_CODE: 'd' };
    expect(refusal(sms)).toMatch(/^ALIYUN_SMS_SIGN_NAME is required/);
    expect(refusal({ ALIPAY_APP_ID: '2021', ALIPAY_PUBLIC_KEY: 'p' })).toMatch(/^ALIPAY_PRIVATE_KEY is required when ALIPAY_APP_ID is set/);
    expect(refusal({ ...sms, ALIYUN_SMS_SIGN_NAME: 's', ALIYUN_SMS_NOTICE_TEMPLATES: 'sold' })).toMatch(/^ALIYUN_SMS_NOTICE_TEMPLATES must be comma-separated kind=TemplateCode pairs/);
    expect(loadConfig({ ...sms, ALIYUN_SMS_SIGN_NAME: 's', ALIYUN_SMS_NOTICE_TEMPLATES: 'sold=SMS_1, lottery_won=SMS_2' }).aliyunSms?.noticeTemplates).toEqual({ sold: 'SMS_1', lottery_won: 'SMS_2' });
  });

  it("an area's own loader applies the same schema", () => {
    expect(() => loadPayoutConfig({ WITHDRAW_DAILY_COUNT: '0' }, true)).toThrow(new ConfigError('WITHDRAW_DAILY_COUNT must be an integer of at least 1 (got "0")'));
    expect(loadPayoutConfig({ WITHDRAW_DAILY_COUNT: '' }, true).dailyCount).toBe(3);
  });
});
