import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import { loadConfig } from '../src/config.ts';
import { createStaffAccount } from '../src/tools/create-staff.ts';
import { dummyPasswordHash, hashPassword, PASSWORD_SCRYPT, verifyPassword } from '../src/util/crypto.ts';
import { adminCall } from './admin-helpers.ts';
import { b64, call, makeApp, register, type TestApp } from './helpers.ts';

/**
 * Password hashing at production cost (this file's app does NOT lower it with PASSWORD_SCRYPT_N, as
 * the other test files do): scrypt N=2^17, r=8, p=1 (OWASP), for users and staff; hashes of older
 * parameters (N=2^14) still verify and are replaced at the next successful login; the dummy hash
 * that unknown accounts are checked against costs the same as a real one. SQLite, or PostgreSQL
 * with TEST_PG_URL.
 */
const params = (stored: string) => stored.split('$').slice(0, 4).join('$');
/** A hash as the previous version wrote it (N=2^14). */
function oldHash(password: string): string {
  const salt = crypto.randomBytes(16);
  const hash = crypto.scryptSync(password, salt, 32, { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', 16384, 8, 1, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

let t: TestApp;
beforeAll(async () => {
  t = await makeApp({}, { PASSWORD_SCRYPT_N: '' });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe(`password hashes on ${process.env.TEST_PG_URL ? 'PostgreSQL' : 'SQLite'}`, () => {
  it('new hashes use scrypt N=2^17, r=8, p=1; the dummy hash has the same parameters', async () => {
    expect(PASSWORD_SCRYPT).toMatchObject({ N: 131072, r: 8, p: 1 });
    const h = await hashPassword('abc123!');
    expect(params(h)).toBe('scrypt$131072$8$1');
    expect(await verifyPassword('abc123!', h)).toBe(true);
    expect(await verifyPassword('abc123?', h)).toBe(false);
    expect(params(dummyPasswordHash())).toBe('scrypt$131072$8$1');
  }, 60_000);

  it('registration stores the new parameters', async () => {
    const u = await register(t);
    const row = await t.ctx.db.kysely.selectFrom('users').select('password_hash').where('mobile', '=', u.mobile).executeTakeFirstOrThrow();
    expect(params(row.password_hash!)).toBe('scrypt$131072$8$1');
  }, 60_000);

  it('a user with an old hash logs in and the hash is replaced; a wrong password changes nothing', async () => {
    const u = await register(t);
    const old = oldHash('old-pass1');
    await t.ctx.db.kysely.updateTable('users').set({ password_hash: old }).where('mobile', '=', u.mobile).execute();
    expect((await call(t, '/api/user/v1/login', { mobile: u.mobile, pwd: b64('wrong-pass'), loginType: 1 })).status).toBe('1005');
    const stored = async () => (await t.ctx.db.kysely.selectFrom('users').select('password_hash').where('mobile', '=', u.mobile).executeTakeFirstOrThrow()).password_hash!;
    expect(await stored()).toBe(old);
    expect((await call(t, '/api/user/v1/login', { mobile: u.mobile, pwd: b64('old-pass1'), loginType: 1 })).status).toBe('000000');
    const now = await stored();
    expect(params(now)).toBe('scrypt$131072$8$1');
    expect(await verifyPassword('old-pass1', now)).toBe(true);
    expect((await call(t, '/api/user/v1/login', { mobile: u.mobile, pwd: b64('old-pass1'), loginType: 1 })).status).toBe('000000');
  }, 90_000);

  it('a staff member with an old hash passes the password step and the hash is replaced', async () => {
    const s = await createStaffAccount(t.ctx.db, { username: `hash${process.pid % 1000}`, roles: ['support'] }, t.clock.t);
    expect(params((await t.ctx.db.kysely.selectFrom('staff').select('password_hash').where('id', '=', s.staff.id).executeTakeFirstOrThrow()).password_hash)).toBe('scrypt$131072$8$1');
    const old = oldHash('Old-staff-pass-1');
    await t.ctx.db.kysely.updateTable('staff').set({ password_hash: old }).where('id', '=', s.staff.id).execute();
    const login = await adminCall(t, AdminPaths.login, { username: s.staff.username, password: 'Old-staff-pass-1' });
    expect(login, login.message).toMatchObject({ status: '000000', data: { stage: 'enrol' } });
    const now = (await t.ctx.db.kysely.selectFrom('staff').select('password_hash').where('id', '=', s.staff.id).executeTakeFirstOrThrow()).password_hash;
    expect(params(now)).toBe('scrypt$131072$8$1');
    expect(await verifyPassword('Old-staff-pass-1', now)).toBe(true);
  }, 90_000);
});

describe('PASSWORD_SCRYPT_N (tests only)', () => {
  const base = { DEV_MODE: '1', CAPTCHA_PROVIDER: 'test', CHAIN: 'off', DEMO_DATA: '0' };
  it('is refused without DEV_MODE=1, with NODE_ENV=production, and when not a power of two from 2^10 to 2^17', () => {
    expect(loadConfig({ ...base, PASSWORD_SCRYPT_N: '16384' }, { dataDir: '/tmp/x' }).passwordScryptN).toBe(16384);
    expect(loadConfig({ ...base }, { dataDir: '/tmp/x' }).passwordScryptN).toBe(131072);
    expect(() => loadConfig({ CHAIN: 'off', PASSWORD_SCRYPT_N: '16384' }, { dataDir: '/tmp/x' })).toThrow(/PASSWORD_SCRYPT_N/);
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', PASSWORD_SCRYPT_N: '16384' }, { dataDir: '/tmp/x' })).toThrow(/PASSWORD_SCRYPT_N/);
    for (const bad of ['1000', '512', '262144', 'x']) expect(() => loadConfig({ ...base, PASSWORD_SCRYPT_N: bad }, { dataDir: '/tmp/x' }), bad).toThrow(/PASSWORD_SCRYPT_N/);
  });
});
