import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status } from '@cfx/contract/envelope.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { demoWalletKey, legacyDemoWalletKey } from '../src/chain/mint-job.ts';
import { loadSecretBox } from '../src/util/secret-box.ts';
import { API, call, makeApp, type TestApp } from './helpers.ts';

/** Issue #9: sandbox and development features only with an explicit DEV_MODE=1. */
const ALIPAY = { ALIPAY_APP_ID: '2021000000000000', ALIPAY_PRIVATE_KEY: 'k', ALIPAY_PUBLIC_KEY: 'p' };
const REAL = { SMS_PROVIDER: 'aliyun', ALIYUN_SMS_ACCESS_KEY_ID: 'a', ALIYUN_SMS_ACCESS_KEY_SECRET: 'b', ALIYUN_SMS_SIGN_NAME: 'c', ALIYUN_SMS_TEMPLATE_CODE: 'd', KYC_PROVIDER: 'aliyun', ALIYUN_KYC_ACCESS_KEY_ID: 'a', ALIYUN_KYC_ACCESS_KEY_SECRET: 'b' };

const refusal = (env: NodeJS.ProcessEnv) => {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  return undefined;
};

describe('configuration', () => {
  it('without DEV_MODE the sandbox payment and demo data are off by default', () => {
    const c = loadConfig({});
    expect(c.devMode).toBe(false);
    expect(c.market.payment.sandbox).toBe(false);
    expect(c.demoData).toBe(false);
  });
  it('DEV_MODE=1 turns the sandbox payment and (on SQLite) demo data on by default', () => {
    const c = loadConfig({ DEV_MODE: '1' });
    expect(c.market.payment.sandbox).toBe(true);
    expect(c.demoData).toBe(true);
    expect(loadConfig({ DEV_MODE: '1', DATABASE_URL: 'postgres://x/y' }).demoData).toBe(false);
  });
  it('test captcha, sandbox payment and demo data are refused without DEV_MODE', () => {
    expect(refusal({ CAPTCHA_PROVIDER: 'test' })).toMatch(/CAPTCHA_PROVIDER=test.*DEV_MODE=1/);
    expect(refusal({ PAYMENT_SANDBOX: '1' })).toMatch(/PAYMENT_SANDBOX=1.*DEV_MODE=1/);
    expect(refusal({ DEMO_DATA: '1' })).toMatch(/DEMO_DATA=1.*DEV_MODE=1/);
    expect(refusal({ DEV_MODE: 'yes' })).toMatch(/DEV_MODE must be 1 or 0/);
  });
  it('PAYMENT_SANDBOX is never on next to a real payment provider, even in dev mode', () => {
    expect(refusal({ DEV_MODE: '1', PAYMENT_SANDBOX: '1', ...ALIPAY })).toMatch(/next to a real payment provider/);
    expect(loadConfig({ DEV_MODE: '1', ...ALIPAY }).market.payment.sandbox).toBe(false);
  });
  it('NODE_ENV=production without DEV_MODE refuses every sandbox provider, naming each', () => {
    const msg = refusal({ NODE_ENV: 'production' });
    expect(msg).toMatch(/SMS_PROVIDER=sandbox/);
    expect(msg).toMatch(/KYC_PROVIDER=sandbox/);
    expect(refusal({ NODE_ENV: 'production', ...REAL, KYC_PROVIDER: 'sandbox' })).toMatch(/KYC_PROVIDER=sandbox/);
    expect(refusal({ NODE_ENV: 'production', ...REAL, CAPTCHA_PROVIDER: 'test' })).toMatch(/CAPTCHA_PROVIDER=test/);
    expect(refusal({ NODE_ENV: 'production', ...REAL })).toBeUndefined();
    // DEV_MODE=1 is the explicit opt-in (npm start on a laptop): allowed, and announced.
    expect(refusal({ NODE_ENV: 'production', DEV_MODE: '1' })).toBeUndefined();
  });
  it('the server process prints the refusal and exits 1', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-devmode-'));
    try {
      const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, '../src/main.ts')], {
        env: { PATH: process.env.PATH, NODE_ENV: 'production', DATA_DIR: dataDir, CHAIN: 'off', SERVE_WEB: '0', PORT: '0' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/\[config\] refusing to start: .*SMS_PROVIDER=sandbox/);
      // Refused before anything was written: no database file.
      expect(fs.existsSync(path.join(dataDir, 'marketplace.sqlite'))).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 70_000);
});

describe('dev routes', () => {
  let dev: TestApp;
  let prod: TestApp;
  beforeAll(async () => {
    [dev, prod] = await Promise.all([makeApp(), makeApp({}, { DEV_MODE: '0', CAPTCHA_PROVIDER: 'slider' })]);
  });
  afterAll(async () => {
    await Promise.all([dev?.close(), prod?.close()]);
  });
  const get = (t: TestApp, url: string) => t.app.inject({ method: 'GET', url: API + url });

  it('exist with DEV_MODE=1', async () => {
    expect((await get(dev, '/dev/sms-outbox?mobile=13900000000')).statusCode).toBe(200);
    expect((await call(dev, '/dev/captcha-token')).status).toBe(Status.OK);
    expect((await get(dev, '/payment/sandbox/cashier?t=x')).statusCode).not.toBe(404);
  });
  it('answer 404 in the envelope without it: SMS outbox, captcha token, sandbox cashier and top-up', async () => {
    for (const url of ['/dev/sms-outbox?mobile=13900000000', '/payment/sandbox/cashier?t=x']) {
      const res = await get(prod, url);
      expect(res.statusCode).toBe(404);
      expect(res.json().status).toBe(Status.NOT_FOUND);
    }
    for (const url of ['/dev/captcha-token', '/dev/grant-collectible', '/payment/sandbox/topup']) {
      const r = await call(prod, url, { amount: 100 });
      expect(r.http).toBe(404);
      expect(r.status).toBe(Status.NOT_FOUND);
    }
  });
  it('pay offers no sandbox method without it', async () => {
    expect(prod.ctx.market?.providers.sandbox).toBeUndefined();
    expect(dev.ctx.market?.providers.sandbox).toBeDefined();
  });
});

describe('demo wallet keys', () => {
  it('are random per installation (sealed seed), not derivable from the operator address', () => {
    const dirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-demokeys-')));
    try {
      const chain = { operatorAddress: 'cfx:aaejuaaaaaaaaaaaaaaaaaaaaaaaaaaaa2eaeg85p5' };
      const [a, b] = dirs.map((d) => demoWalletKey(loadSecretBox(d, ''), chain, 7).toString('hex'));
      expect(a).not.toBe(b);
      expect(a).not.toBe(legacyDemoWalletKey(chain, 7).toString('hex'));
      // Stable for one installation.
      expect(demoWalletKey(loadSecretBox(dirs[0]!, ''), chain, 7).toString('hex')).toBe(a);
    } finally {
      for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    }
  });
});
