import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseTrustProxy } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { passwordChecks } from '../src/util/crypto.ts';
import { loadSecretBox } from '../src/util/secret-box.ts';
import { smsCodeChecks } from '../src/modules/accounts/sms-codes.ts';
import { b64, call, dbKind, makeApp, newMobile, register, smsCode, type TestApp } from './helpers.ts';

/** Issue #9: tries reserved before they are evaluated, proxies, per-IP and per-user caps, private files. */
let t: TestApp;
beforeAll(async () => {
  t = await makeApp({}, { TRUST_PROXY: '1', CAPTCHA_CHALLENGES_PER_IP: '30', KYC_ATTEMPTS_PER_USER: '5' });
});
afterAll(async () => {
  await t?.close();
});
const EN = { lang: 'en' };

describe('tries are reserved before they are evaluated', () => {
  it('100 concurrent wrong passwords for one phone run scrypt at most 5 times', async () => {
    const u = await register(t);
    const before = passwordChecks.count;
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => call(t, '/api/user/v1/login', { mobile: u.mobile, pwd: b64(`wrong${i}!`), loginType: 1 }, EN, `10.1.${i}.1`)),
    );
    const evaluated = passwordChecks.count - before;
    expect(evaluated).toBeLessThanOrEqual(5);
    expect(results.filter((r) => r.status === '1005')).toHaveLength(evaluated);
    expect(results.filter((r) => r.status === '1006').length).toBe(100 - evaluated);
    expect(results.every((r) => r.http < 500)).toBe(true);
    // Locked for the right password too, until the window passes.
    expect((await call(t, '/api/user/v1/login', { mobile: u.mobile, pwd: b64(u.password), loginType: 1 }, EN)).status).toBe('1006');
    t.clock.t += 15 * 60_000 + 1;
    expect((await call(t, '/api/user/v1/login', { mobile: u.mobile, pwd: b64(u.password), loginType: 1 }, EN)).status).toBe('000000');
  });

  it('a correct password gives its reserved try back', async () => {
    const u = await register(t);
    for (let i = 0; i < 8; i++) expect((await call(t, '/api/user/v1/login', { mobile: u.mobile, pwd: b64(u.password), loginType: 1 })).status).toBe('000000');
  });

  it('100 concurrent wrong SMS codes compare at most 5 times', async () => {
    const u = await register(t);
    t.clock.t += 61_000;
    const code = await smsCode(t, u.mobile, '2');
    const wrong = code === '000000' ? '111111' : '000000';
    const before = smsCodeChecks.count;
    const results = await Promise.all(Array.from({ length: 100 }, () => call(t, '/api/user/v1/login', { mobile: u.mobile, loginType: 2, smsCode: wrong }, EN)));
    expect(smsCodeChecks.count - before).toBeLessThanOrEqual(5);
    expect(results.every((r) => r.status === '1004')).toBe(true);
    // The code is dead now, even the right one.
    expect((await call(t, '/api/user/v1/login', { mobile: u.mobile, loginType: 2, smsCode: code }, EN)).message).toBe('too many wrong codes, please request a new one');
  });
});

describe('TRUST_PROXY', () => {
  it('takes a hop count or a list of proxy addresses, never true', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.1, 10.1.0.0/16, ::1')).toEqual(['10.0.0.1', '10.1.0.0/16', '::1']);
    for (const bad of ['true', 'yes', '10.0.0.1/33', 'example.com']) expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(ConfigError);
  });

  it('a hop count trusts only that many proxies; a list only those addresses', async () => {
    const [hop, list] = await Promise.all([makeApp({}, { TRUST_PROXY: '1' }), makeApp({}, { TRUST_PROXY: '10.0.0.1' })]);
    try {
      for (const a of [hop, list]) a.app.get('/__ip', async (req) => ({ ip: req.ip }));
      const ip = async (a: TestApp, remoteAddress: string, xff: string) =>
        (await a.app.inject({ method: 'GET', url: '/__ip', remoteAddress, headers: { 'x-forwarded-for': xff } })).json().ip;
      // One hop: the address our proxy saw, not what the client wrote in front of it.
      expect(await ip(hop, '10.0.0.1', '6.6.6.6, 1.2.3.4')).toBe('1.2.3.4');
      expect(await ip(list, '10.0.0.1', '6.6.6.6, 1.2.3.4')).toBe('1.2.3.4');
      // Not from a listed proxy: the header is ignored.
      expect(await ip(list, '10.9.9.9', '1.2.3.4')).toBe('10.9.9.9');
    } finally {
      await Promise.all([hop.close(), list.close()]);
    }
  });
});

describe('per-IP and per-user caps', () => {
  it('captcha challenges: 30 per IP per minute, then 1006', async () => {
    const ask = (ip: string) => call(t, '/captcha/v1/get', {}, EN, ip);
    for (let i = 0; i < 30; i++) expect((await ask('10.7.0.1')).status).toBe('000000');
    expect(await ask('10.7.0.1')).toMatchObject({ status: '1006', message: 'too many captcha requests, please try again in a minute' });
    expect((await ask('10.7.0.2')).status).toBe('000000');
    t.clock.t += 60_001;
    expect((await ask('10.7.0.1')).status).toBe('000000');
  });

  it('real-name attempts: 5 per user per 24 h, then 1006', async () => {
    const u = await register(t);
    const h = { token: u.token, ...EN };
    // A well-formed adult ID with a name the sandbox provider does not match.
    const submit = () => call(t, '/api/user/profile/v1/submitrealname', { name: '错名字', idNumber: '11010519491231002X' }, h);
    const first = await submit();
    expect(first.status).toBe('1010');
    for (let i = 1; i < 5; i++) expect((await submit()).status).toBe('1010');
    expect(await submit()).toMatchObject({ status: '1006', message: 'too many real-name attempts (at most 5 in 24 hours), please try again tomorrow' });
    t.clock.t += 24 * 3600_000 + 1;
    expect((await submit()).status).toBe('1010');
  });
});

describe.skipIf(dbKind !== 'sqlite')('private files', () => {
  it('DATA_DIR is 0700 and the database files 0600, even under a permissive umask', async () => {
    const old = process.umask(0o022);
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-perm-')), 'data');
    try {
      const a = await makeApp({ dataDir: dir });
      await call(a, '/api/user/v1/login', { mobile: newMobile(), pwd: b64('x'), loginType: 1 });
      const mode = (p: string) => fs.statSync(p).mode & 0o777;
      expect(mode(dir)).toBe(0o700);
      for (const f of fs.readdirSync(dir).filter((f) => f.startsWith('marketplace.sqlite') || f.endsWith('.key'))) expect(mode(path.join(dir, f)), f).toBe(0o600);
      await a.close();
    } finally {
      process.umask(old);
      fs.rmSync(path.dirname(dir), { recursive: true, force: true });
    }
  });

  it('migration 0008 seals the birth dates of existing rows and sets the adult flag', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-mig-'));
    try {
      const config = loadConfig({ DEV_MODE: '1', CHAIN: 'off' }, { dataDir: dir });
      const db = openDatabase(config);
      const secrets = loadSecretBox(dir, '');
      const env = { secrets, now: Date.UTC(2026, 10, 24) };
      await migrate(db, env, '0007-catalog-changes');
      const k = db.kysely as any;
      for (const [id, birth] of [[1, '1990-05-17'], [2, '2010-01-01']] as const) {
        await k.insertInto('users').values({ id, account_id: `a${id}`, mobile: `1390000000${id}`, password_hash: null, nickname: 'n', profpic_id: '1', is_realname: 1, is_creator: 0, wallet_address: null, invite_code: `INV${id}`, invited_by: null, regist_channel: null, created_at: 1 }).execute();
        await k.insertInto('realname').values({ user_id: id, name_sealed: secrets.seal('张三'), id_sealed: secrets.seal('11010519491231002X'), id_digest: `d${id}`, id_masked: 'old', name_masked: 'old', birth_date: birth, provider: 'test', verified_at: 1 }).execute();
      }
      await migrate(db, env);
      const rows = await db.kysely.selectFrom('realname').selectAll().orderBy('user_id').execute();
      expect(rows.map((r) => Number(r.adult))).toEqual([1, 0]);
      expect(rows.map((r) => secrets.open(r.birth_sealed!))).toEqual(['1990-05-17', '2010-01-01']);
      expect(rows[0]).toMatchObject({ id_masked: '1****************X', name_masked: '*三' });
      expect(rows[0]).not.toHaveProperty('birth_date');
      await db.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
