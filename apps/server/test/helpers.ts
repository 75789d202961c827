import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';
import { loadConfig, type Config } from '../src/config.ts';
import { buildApp, type App } from '../src/app.ts';
import { chinaDayStart, DAY_MS } from '@cfx/protocol/china-time.ts';

/**
 * The cache clock of a test app (AppContext.monotonicNow): real elapsed time plus whatever
 * advance() added, so caches behave as in production unless a test moves them. After freeze()
 * only advance() moves it, which makes cache lifetimes fully deterministic.
 */
export class TestCacheClock {
  private offset = 0;
  private frozenAt: number | undefined;
  now = (): number => this.frozenAt ?? performance.now() + this.offset;
  /** Moves cache time forward by `ms` (instead of sleeping until a cache expires). */
  advance(ms: number) {
    if (ms < 0) throw new Error('the cache clock is monotonic');
    if (this.frozenAt !== undefined) this.frozenAt += ms;
    else this.offset += ms;
  }
  /**
   * Stops the real passage of time: from now on only advance() moves the clock. It stops on a whole
   * millisecond, so that advancing by a cache's lifetime reaches it exactly (no float rounding).
   */
  freeze() {
    this.frozenAt ??= Math.ceil(this.now());
  }
}

/**
 * A real app on a real database: a fresh SQLite file, or — when TEST_PG_URL points at the
 * PostgreSQL server that scripts/test.sh starts — a fresh database on it. `clock` lets a test
 * move business time (code expiry, rate-limit windows); `cacheClock` moves cache time (cache
 * lifetimes, refresh intervals) — see AppContext in src/context.ts.
 */
export interface TestApp extends App {
  clock: { t: number };
  cacheClock: TestCacheClock;
  dbKind: 'sqlite' | 'postgres';
}

/**
 * For a test whose assertions count per China day (daily limits, sales per day): when less than
 * `margin` of the current China day is left on the business clock, moves the clock to just after the
 * next China midnight, so that the test's own steps (each SMS send moves the clock a minute) cannot
 * straddle midnight. Moves forward by at most `margin`.
 */
export function awayFromChinaMidnight(t: { clock: { t: number } }, margin = 2 * 3_600_000): void {
  const next = chinaDayStart(t.clock.t) + DAY_MS;
  if (next - t.clock.t < margin) t.clock.t = next + 60_000;
}

export const dbKind = process.env.TEST_PG_URL ? 'postgres' : 'sqlite';

export async function makeApp(overrides: Partial<Config> = {}, env: NodeJS.ProcessEnv = {}): Promise<TestApp> {
  const clock = { t: Date.now() };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-test-'));
  let databaseUrl: string | undefined;
  let dropDb: (() => Promise<void>) | undefined;
  if (process.env.TEST_PG_URL) {
    const name = `t_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_PG_URL });
    await admin.connect();
    await admin.query(`create database ${name} template template0 encoding 'UTF8'`);
    await admin.end();
    const u = new URL(process.env.TEST_PG_URL);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    dropDb = async () => {
      const c = new pg.Client({ connectionString: process.env.TEST_PG_URL });
      await c.connect();
      // pool.end() resolves before its connections are closed: a forced drop would kill a closing
      // connection, which surfaces as an uncaught FATAL 57P01 in the test process. Wait for them.
      for (let i = 0; i < 100; i++) {
        const r = await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if (r.rows[0].n === 0) break;
        await new Promise((res) => setTimeout(res, 20));
      }
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  // PASSWORD_SCRYPT_N: test apps hash passwords at the previous cost (N=2^14) so that suites registering many users
  // stay fast; test/password-hashing.test.ts runs at the production cost (N=2^17) by passing PASSWORD_SCRYPT_N: ''
  // (as does an app with DEV_MODE=0, where the setting is refused).
  const scrypt = env.DEV_MODE === '0' ? {} : { PASSWORD_SCRYPT_N: '16384' };
  const config = loadConfig({ DEV_MODE: '1', CAPTCHA_PROVIDER: 'test', CHAIN: 'off', DEMO_DATA: '0', ...scrypt, ...env }, { dataDir, databaseUrl, serveWeb: false, ...overrides });
  const cacheClock = new TestCacheClock();
  const app = await buildApp(config, { now: () => clock.t, monotonicNow: cacheClock.now, logger: false });
  return {
    ...app,
    clock,
    cacheClock,
    dbKind,
    async close() {
      await app.close();
      await dropDb?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const API = '/mvapi/public';
export const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

let mobileSeq = 0;
/** Distinct valid phone numbers per test process. */
export function newMobile(): string {
  mobileSeq++;
  return `139${String(process.pid % 10000).padStart(4, '0')}${String(mobileSeq).padStart(4, '0')}`;
}

export async function call(t: App, p: string, body?: unknown, headers: Record<string, string> = {}, ip?: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: API + p,
    headers: { 'content-type': 'application/json', channel: 'pc', ...headers },
    payload: body === undefined ? '{}' : JSON.stringify(body),
    remoteAddress: ip,
  });
  return { http: res.statusCode, ...(res.json() as { status: string; code: string; data: any; message: string; msg: string }) };
}

export async function captchaToken(t: App): Promise<string> {
  const r = await call(t, '/dev/captcha-token');
  return r.data.NECaptchaValidate;
}

export async function latestCode(t: App, mobile: string): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: `${API}/dev/sms-outbox?mobile=${mobile}` });
  return res.json().data[0].code;
}

/** Sends an SMS code of `type` to `mobile` (solving the test captcha) and returns it from the sandbox outbox. */
export async function smsCode(t: TestApp, mobile: string, type: string, ip?: string): Promise<string> {
  const r = await call(t, '/api/user/v1/smscode', { mobile, type, NECaptchaValidate: await captchaToken(t) }, {}, ip);
  if (r.status !== '000000') throw new Error(`smscode failed: ${r.status} ${r.message}`);
  return latestCode(t, mobile);
}

export async function register(t: TestApp, mobile = newMobile(), password = 'abc123!', extra: Record<string, string> = {}) {
  const code = await smsCode(t, mobile, '1');
  t.clock.t += 61_000; // the next send to this phone is allowed after 60 s
  const r = await call(t, '/api/user/v1/regist', { mobile, pwd: b64(password), smsCode: code, ...extra });
  if (r.status !== '000000') throw new Error(`regist failed: ${r.status} ${r.message}`);
  return { mobile, password, token: r.data.token as string };
}
