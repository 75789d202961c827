import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDigit, parseIdNumber, ageAt, maskIdNumber, maskName } from '../src/modules/kyc/id-number.ts';
import { requireTrader } from '../src/modules/kyc/require-trader.ts';
import { call, makeApp, register, type TestApp } from './helpers.ts';

/** Real-name verification (GB 11643, 18+, sandbox KYC, sealed storage) and the trading gate. */
let t: TestApp;
beforeAll(async () => { t = await makeApp(); });
afterAll(async () => { await t?.close(); });

let serial = 100;
/** A well-formed ID number for a birth date (Beijing, Dongcheng district prefix 110101). */
function idFor(y: number, m: number, d: number): string {
  const first17 = `110101${y}${String(m).padStart(2, '0')}${String(d).padStart(2, '0')}${String(serial++).padStart(3, '0')}`;
  return first17 + checkDigit(first17);
}
const EN = { lang: 'en' };

describe('ID number rules', () => {
  it('checks the GB 11643 checksum, province and date', () => {
    expect(parseIdNumber('11010519491231002X')).toBeTruthy(); // the standard's own example
    expect(parseIdNumber('110105194912310021')).toBeUndefined(); // wrong check digit
    expect(parseIdNumber('990105194912310021')).toBeUndefined(); // no such province
    const bad = '11010519490231' + '002';
    expect(parseIdNumber(bad + checkDigit(bad))).toBeUndefined(); // 31 Feb
    expect(parseIdNumber('1101051949123100')).toBeUndefined();
  });
  it('computes age on the Beijing calendar day', () => {
    const now = Date.UTC(2026, 10, 20, 16, 30); // 2026-11-21 00:30 in Beijing
    expect(ageAt({ y: 2008, m: 11, d: 21 }, now)).toBe(18);
    expect(ageAt({ y: 2008, m: 11, d: 22 }, now)).toBe(17);
  });
  it('masks', () => {
    expect(maskIdNumber('11010519491231002X')).toBe('1****************X');
    expect(maskName('张三丰')).toBe('**丰');
    expect(maskName('张三')).toBe('*三');
  });
});

describe('real-name verification', () => {
  it('verifies an adult, stores the number sealed and shows it masked', async () => {
    const u = await register(t);
    const h = { token: u.token, ...EN };
    expect((await call(t, '/api/user/profile/v1/getrealnameinfo', {}, h)).data).toEqual({ isRealname: '0', name: '', idNumber: '', verifiedAt: null });
    const id = idFor(1990, 5, 17);
    const r = await call(t, '/api/user/profile/v1/submitrealname', { name: '张三丰', idNumber: id.toLowerCase() }, h);
    expect(r).toMatchObject({ status: '000000', message: 'real-name verification successful' });
    const info = await call(t, '/api/user/profile/v1/getrealnameinfo', {}, h);
    expect(info.data).toMatchObject({ isRealname: '1', name: '**丰', idNumber: maskIdNumber(id) });
    expect((await call(t, '/api/user/profile/v1/userprofile', {}, h)).data.isRealname).toBe('1');
    const row = await t.ctx.db.kysely.selectFrom('realname').selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(id);
    expect(JSON.stringify(row)).not.toContain('张三丰');
    expect(t.ctx.secrets.open(row.id_sealed)).toBe(id);
    // The birth date is sealed too; only the 18+ flag is kept in clear.
    expect(JSON.stringify(row)).not.toMatch(/1990-?05-?17/);
    expect(t.ctx.secrets.open(row.birth_sealed!)).toBe('1990-05-17');
    expect(Number(row.adult)).toBe(1);
    const again = await call(t, '/api/user/profile/v1/submitrealname', { name: '张三丰', idNumber: id }, h);
    expect(again).toMatchObject({ status: '1010', message: 'your real name is already verified' });
  });

  it('refuses bad names and numbers with clear messages', async () => {
    const u = await register(t);
    const h = { token: u.token, ...EN };
    for (const name of ['', '张', 'A', '<b>x</b>', '张三3']) {
      expect(await call(t, '/api/user/profile/v1/submitrealname', { name, idNumber: idFor(1990, 1, 1) }, h)).toMatchObject({ status: '1001', message: 'please enter your correct name' });
    }
    for (const idNumber of ['', '123', '110105194912310021', '11010519491231002Y']) {
      expect(await call(t, '/api/user/profile/v1/submitrealname', { name: '李四', idNumber }, h)).toMatchObject({ status: '1001', message: 'please enter a correct 18-digit ID number' });
    }
  });

  it('refuses anyone under 18', async () => {
    const u = await register(t);
    const now = new Date(t.clock.t + 8 * 3600_000);
    const id = idFor(now.getUTCFullYear() - 17, 1, 1);
    const r = await call(t, '/api/user/profile/v1/submitrealname', { name: '王小明', idNumber: id }, { token: u.token, ...EN });
    expect(r).toMatchObject({ status: '1010', message: 'you must be 18 or older to verify your real name' });
    expect((await call(t, '/api/user/profile/v1/userprofile', {}, { token: u.token })).data.isRealname).toBe('0');
  });

  it('reports a provider mismatch and keeps the user unverified', async () => {
    const u = await register(t);
    const r = await call(t, '/api/user/profile/v1/submitrealname', { name: '错误姓名', idNumber: idFor(1985, 3, 3) }, { token: u.token, ...EN });
    expect(r).toMatchObject({ status: '1010', message: 'the name does not match the ID number' });
    expect((await call(t, '/api/user/profile/v1/getrealnameinfo', {}, { token: u.token })).data.isRealname).toBe('0');
  });

  it('one ID number verifies up to KYC_ACCOUNTS_PER_IDENTITY accounts (3), even when they race', async () => {
    const users = [];
    for (let i = 0; i < 5; i++) users.push(await register(t));
    const id = idFor(1988, 8, 8);
    const answers = await Promise.all(users.map((u) => call(t, '/api/user/profile/v1/submitrealname', { name: '赵六', idNumber: id }, { token: u.token, ...EN })));
    expect(answers.filter((r) => r.status === '000000')).toHaveLength(3);
    for (const r of answers.filter((x) => x.status !== '000000')) {
      expect(r).toMatchObject({ status: '1010', message: 'this ID number already verifies the maximum number of accounts (3)' });
    }
    const digest = t.ctx.secrets.digest(id);
    expect(await t.ctx.db.kysely.selectFrom('realname').select('user_id').where('id_digest', '=', digest).execute()).toHaveLength(3);
    // a sixth account is refused before the provider is asked
    const late = await register(t);
    expect(await call(t, '/api/user/profile/v1/submitrealname', { name: '赵六', idNumber: id }, { token: late.token, lang: 'zh' })).toMatchObject({ status: '1010', message: '该身份证号码认证的账户数已达上限（3个）' });
  });

  it('needs a login', async () => {
    expect((await call(t, '/api/user/profile/v1/getrealnameinfo', {})).status).toBe('1100');
    expect((await call(t, '/api/user/profile/v1/submitrealname', { name: '张三', idNumber: idFor(1990, 1, 1) })).status).toBe('1100');
  });
});

describe('trading gate', () => {
  it('refuses unverified users, then users without a wallet, and admits verified adults with a wallet', async () => {
    const u = await register(t);
    const userId = Number((await t.ctx.db.kysely.selectFrom('users').select('id').where('mobile', '=', u.mobile).executeTakeFirstOrThrow()).id);
    await expect(requireTrader(t.ctx, userId)).rejects.toMatchObject({ status: '1011', key: 'tradeNeedRealname' });
    await call(t, '/api/user/profile/v1/submitrealname', { name: '钱七', idNumber: idFor(1995, 6, 6) }, { token: u.token });
    await expect(requireTrader(t.ctx, userId)).rejects.toMatchObject({ status: '1011', key: 'tradeNeedWallet' });
    await t.ctx.db.kysely.updateTable('users').set({ wallet_address: 'cfx:aasm4c231py7j34fghntcfkdt2nm9xv1tu0dukn7m1' }).where('id', '=', userId).execute();
    const digest = (await t.ctx.db.kysely.selectFrom('realname').select('id_digest').where('user_id', '=', userId).executeTakeFirstOrThrow()).id_digest;
    await expect(requireTrader(t.ctx, userId)).resolves.toMatchObject({ walletAddress: 'cfx:aasm4c231py7j34fghntcfkdt2nm9xv1tu0dukn7m1', idDigest: digest });
  });
});
