import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordChecks, sha256 } from '../src/util/crypto.ts';
import { anonymiseAccount, CANCELLED_NICKNAME, tombstoneMobile } from '../src/modules/privacy/anonymise-account.ts';
import { LAST_SEEN_EVERY_MS } from '../src/modules/accounts/sessions.ts';
import { API, b64, call, captchaToken, latestCode, newMobile, register, smsCode } from './helpers.ts';
import { createOrderFor, listForSale, orderStatus, makeGoods, makeMarketApp, makeRelease, makeTrader, runJobs, topup, type FakeChain, type Trader } from './market-helpers.ts';
import type { TestApp } from './helpers.ts';

/**
 * Security and privacy of the personal center (issue #11) on a real database (SQLite, or
 * PostgreSQL with TEST_PG_URL): change password, change phone with two codes, sessions, privacy
 * switches and the public collection, account cancellation with its cooling-off period and the
 * anonymisation job, and the personal-data export.
 */
const EN = { lang: 'en' };
const DAY = 24 * 3600_000;
let t: TestApp & { chain: FakeChain };
beforeAll(async () => {
  // Sessions outlive the cooling-off period here, so one session follows an account through it
  // (the revoke test logs in again after 14 days, as a returning user does).
  t = await makeMarketApp({ SESSION_TTL_HOURS: String(24 * 100) });
});
afterAll(async () => {
  await t?.close();
});

const h = (token: string, extra: Record<string, string> = {}) => ({ token, lang: 'en', ...extra });

/** A security code (type 4) to the user's own phone, read from the sandbox outbox. */
async function securityCode(token: string, mobile: string): Promise<string> {
  t.clock.t += 61_000;
  const r = await call(t, '/api/user/v1/mobile/smscode', { NECaptchaValidate: await captchaToken(t) }, h(token));
  expect(r.status, r.message).toBe('000000');
  return latestCode(t, mobile);
}

async function login(mobile: string, password: string, headers: Record<string, string> = {}, ip?: string) {
  return call(t, '/api/user/v1/login', { mobile, pwd: b64(password), loginType: 1 }, { ...EN, ...headers }, ip);
}

async function profileStatus(token: string) {
  return (await call(t, '/api/user/profile/v1/userprofile', {}, { token })).status;
}

async function events(userId: number) {
  return t.ctx.db.kysely.selectFrom('security_events').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

async function userIdOf(mobile: string) {
  return Number((await t.ctx.db.kysely.selectFrom('users').select('id').where('mobile', '=', mobile).executeTakeFirstOrThrow()).id);
}

/** A valid GB 11643 number of an adult born 1990-01-01; `seq` is 3 digits. */
function adultId(seq: number): string {
  const first17 = `11010119900101${String(seq).padStart(3, '0')}`;
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...first17].reduce((s, c, i) => s + Number(c) * w[i]!, 0);
  return first17 + '10X98765432'[sum % 11];
}
let idSeq = 100 + (process.pid % 500);

describe(`change password on ${process.env.TEST_PG_URL ? 'PostgreSQL' : 'SQLite'}`, () => {
  it('needs the old password, follows the reset rule and message, revokes every other session and keeps the current one', async () => {
    const u = await register(t);
    const other = (await login(u.mobile, u.password)).data.token as string;
    const path = '/api/user/profile/v1/security/changepwd';

    const rule = await call(t, path, { oldPwd: b64(u.password), newPwd: b64('abc') }, { token: u.token });
    expect(rule).toMatchObject({ status: '1001', message: '请输入6-20位数字、字母和符号' });
    expect((await call(t, path, { oldPwd: b64(u.password), newPwd: b64('ab cd12') }, h(u.token))).message).toBe('please enter 6-20 characters of digits, letters and symbols');
    expect(await call(t, path, { newPwd: b64('n3w-pass') }, h(u.token))).toMatchObject({ status: '1001', message: 'please enter your current password' });
    expect(await call(t, path, { oldPwd: b64(u.password), newPwd: b64(u.password) }, h(u.token))).toMatchObject({ status: '1001', message: 'the new password must differ from the current one' });
    expect(await call(t, path, { oldPwd: b64('wrong-old1'), newPwd: b64('n3w-pass') }, h(u.token))).toMatchObject({ status: '1005', message: 'the current password is incorrect' });

    const ok = await call(t, path, { oldPwd: b64(u.password), newPwd: b64('n3w-pass') }, h(u.token));
    expect(ok).toMatchObject({ status: '000000', message: 'password changed' });
    expect(await profileStatus(u.token)).toBe('000000');
    expect(await profileStatus(other)).toBe('1100');
    expect((await login(u.mobile, u.password)).status).toBe('1005');
    expect((await login(u.mobile, 'n3w-pass')).status).toBe('000000');
    const log = await events(await userIdOf(u.mobile));
    expect(log.map((e) => e.kind)).toContain('password_changed');
    const detail = JSON.parse(log.find((e) => e.kind === 'password_changed')!.detail!);
    expect(detail).toEqual({ via: 'password', sessionsRevoked: 1 });
    expect(JSON.stringify(log)).not.toContain('n3w-pass');
  });

  it('a wrong old password counts toward the login lockout, reserved before scrypt runs', async () => {
    const u = await register(t);
    const ip = '10.9.8.7';
    const path = '/api/user/profile/v1/security/changepwd';
    for (let i = 0; i < 3; i++) {
      expect((await call(t, path, { oldPwd: b64(`wrong-${i}xx`), newPwd: b64('n3w-pass') }, h(u.token), ip)).status).toBe('1005');
    }
    // Two wrong logins of the same phone reach the limit of 5 together with the three above.
    expect((await login(u.mobile, 'wrong-a1', {}, ip)).status).toBe('1005');
    expect((await login(u.mobile, 'wrong-a2', {}, ip)).status).toBe('1005');
    const checks = passwordChecks.count;
    const locked = await call(t, path, { oldPwd: b64(u.password), newPwd: b64('n3w-pass') }, h(u.token), ip);
    expect(locked).toMatchObject({ status: '1006', message: 'too many login attempts, please try again in 15 minutes' });
    expect((await login(u.mobile, u.password, {}, ip)).status).toBe('1006');
    // Concurrent guesses while locked cost no scrypt at all.
    const many = await Promise.all(Array.from({ length: 10 }, (_, i) => call(t, path, { oldPwd: b64(`guess-${i}x`), newPwd: b64('n3w-pass') }, h(u.token), ip)));
    expect(many.every((r) => r.status === '1006')).toBe(true);
    expect(passwordChecks.count).toBe(checks);
    t.clock.t += 15 * 60_000 + 1;
    expect((await call(t, path, { oldPwd: b64(u.password), newPwd: b64('n3w-pass') }, h(u.token), ip)).status).toBe('000000');
  });

  it('an account without a password proves a security code to its own phone instead', async () => {
    const u = await register(t);
    await t.ctx.db.kysely.updateTable('users').set({ password_hash: null }).where('mobile', '=', u.mobile).execute();
    const setting = await call(t, '/api/user/profile/v1/security/setting', {}, h(u.token));
    expect(setting.data.hasPassword).toBe(false);
    const path = '/api/user/profile/v1/security/changepwd';
    expect((await call(t, path, { newPwd: b64('sms-only1') }, h(u.token))).status).toBe('1004');
    expect((await call(t, path, { newPwd: b64('sms-only1'), smsCode: '000000' }, h(u.token))).status).toBe('1004');
    const code = await securityCode(u.token, u.mobile);
    expect((await call(t, path, { newPwd: b64('sms-only1'), smsCode: code }, h(u.token))).status).toBe('000000');
    expect((await call(t, '/api/user/profile/v1/security/setting', {}, h(u.token))).data.hasPassword).toBe(true);
    expect((await login(u.mobile, 'sms-only1')).status).toBe('000000');
    // The code was single use.
    expect((await call(t, path, { oldPwd: b64('sms-only1'), newPwd: b64('other-12'), smsCode: code }, h(u.token))).status).toBe('000000');
  });
});

describe('sessions', () => {
  it('lists my sessions with device, masked IP, times and the current flag — never a token hash', async () => {
    const u = await register(t);
    const chromeUa = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
    const iphoneUa = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
    const a = (await login(u.mobile, u.password, { 'user-agent': chromeUa }, '203.0.113.25')).data.token as string;
    const b = (await login(u.mobile, u.password, { 'user-agent': iphoneUa }, '198.51.100.7')).data.token as string;
    const r = await call(t, '/api/user/profile/v1/security/sessions', {}, h(a));
    expect(r.status).toBe('000000');
    expect(r.data).toHaveLength(3); // the registration's session too
    const cur = r.data.find((s: any) => s.current);
    expect(cur).toMatchObject({ device: 'Chrome 126 · Windows', ip: '203.0.*.*' });
    expect(r.data.filter((s: any) => s.current)).toHaveLength(1);
    expect(r.data.find((s: any) => s.device === 'Safari 17 · iOS')).toMatchObject({ current: false, ip: '198.51.*.*' });
    for (const s of r.data) {
      expect(s.id).toMatch(/^[0-9a-f]{32}$/);
      expect(Object.keys(s).sort()).toEqual(['createdAt', 'current', 'device', 'expiresAt', 'id', 'ip', 'lastSeenAt']);
    }
    const text = JSON.stringify(r);
    for (const tok of [u.token, a, b]) {
      expect(text).not.toContain(tok);
      expect(text).not.toContain(sha256(tok));
    }
    expect(text).not.toContain('203.0.113.25');
  });

  it('last_seen_at moves at most once a minute', async () => {
    const u = await register(t);
    const seen = async () => ((await call(t, '/api/user/profile/v1/security/sessions', {}, h(u.token))).data as any[]).find((s) => s.current).lastSeenAt as number;
    const start = await seen();
    t.clock.t += LAST_SEEN_EVERY_MS / 2;
    expect(await seen()).toBe(start);
    expect((await call(t, '/api/user/profile/v1/userprofile', {}, h(u.token))).status).toBe('000000');
    expect(await seen()).toBe(start);
    t.clock.t += LAST_SEEN_EVERY_MS / 2 + 1;
    const moved = await seen();
    expect(moved).toBe(t.clock.t);
    t.clock.t += 1000;
    expect(await seen()).toBe(moved);
  });

  it('revokes one other session (it then answers 1100) or all others; never the current one, never another user\'s', async () => {
    const u = await register(t);
    const v = await register(t);
    const s2 = (await login(u.mobile, u.password)).data.token as string;
    const s3 = (await login(u.mobile, u.password)).data.token as string;
    const list = async (tok: string) => (await call(t, '/api/user/profile/v1/security/sessions', {}, h(tok))).data as any[];
    const mine = await list(u.token);
    const path = '/api/user/profile/v1/security/sessions/revoke';
    const current = mine.find((s) => s.current).id;
    expect(await call(t, path, { id: current }, h(u.token))).toMatchObject({ status: '1001', message: 'use log out to end the current session' });
    const vSession = (await list(v.token))[0].id;
    expect(await call(t, path, { id: vSession }, h(u.token))).toMatchObject({ status: '1001', message: 'that session does not exist or has already ended' });
    expect(await profileStatus(v.token)).toBe('000000');
    expect((await call(t, path, {}, h(u.token))).status).toBe('1001');

    const s2Id = (await list(s2)).find((s) => s.current).id;
    const one = await call(t, path, { id: s2Id }, h(u.token));
    expect(one).toMatchObject({ status: '000000', data: { revoked: 1 }, message: 'signed out of the selected device(s)' });
    expect(await profileStatus(s2)).toBe('1100');
    expect((await call(t, path, { id: s2Id }, h(u.token))).status).toBe('1001');
    expect(await profileStatus(s3)).toBe('000000');

    const all = await call(t, path, { others: true }, h(u.token));
    expect(all.data.revoked).toBe(1);
    expect(await profileStatus(s3)).toBe('1100');
    expect(await profileStatus(u.token)).toBe('000000');
    expect((await list(u.token)).map((s) => s.current)).toEqual([true]);
    expect((await events(await userIdOf(u.mobile))).map((e) => e.kind)).toEqual(expect.arrayContaining(['session_revoked', 'sessions_revoked']));
  });
});

describe('change phone', () => {
  const verify = '/api/user/v1/mobile/verify';
  const newCode = '/api/user/v1/mobile/newsmscode';
  const change = '/api/user/v1/mobile/change';

  /** Step 1: a security code to the current phone → a ticket. */
  async function ticketOf(u: { token: string; mobile: string }) {
    const code = await securityCode(u.token, u.mobile);
    const r = await call(t, verify, { smsCode: code }, h(u.token));
    expect(r.status, r.message).toBe('000000');
    return r.data.ticket as string;
  }
  /** Step 2: a type-5 code to `mobile`. */
  async function codeTo(u: { token: string }, ticket: string, mobile: string) {
    t.clock.t += 61_000;
    const r = await call(t, newCode, { ticket, mobile, NECaptchaValidate: await captchaToken(t) }, h(u.token));
    expect(r.status, r.message).toBe('000000');
    return latestCode(t, mobile);
  }

  it('needs both codes: the current phone (step 1) and the new phone (steps 2-3); then every other session is revoked and a notice recorded', async () => {
    const u = await register(t);
    const other = (await login(u.mobile, u.password)).data.token as string;
    const next = newMobile();
    // Without step 1 there is no ticket.
    expect((await call(t, newCode, { ticket: 'forged', mobile: next, NECaptchaValidate: await captchaToken(t) }, h(u.token))).status).toBe('1004');
    expect((await call(t, verify, { smsCode: '123456' }, h(u.token))).status).toBe('1004');
    const ticket = await ticketOf(u);
    // The captcha is required for the new phone's code.
    expect((await call(t, newCode, { ticket, mobile: next, NECaptchaValidate: 'forged' }, h(u.token))).status).toBe('1007');
    expect((await call(t, newCode, { ticket, mobile: u.mobile, NECaptchaValidate: await captchaToken(t) }, h(u.token))).status).toBe('1001');
    expect((await call(t, newCode, { ticket, mobile: '12345', NECaptchaValidate: await captchaToken(t) }, h(u.token))).status).toBe('1001');
    const code = await codeTo(u, ticket, next);
    const outbox = await t.app.inject({ method: 'GET', url: `${API}/dev/sms-outbox?mobile=${next}` });
    expect(outbox.json().data[0].type).toBe('5');
    // The new phone's code alone, without the ticket, changes nothing; neither does a wrong code.
    expect((await call(t, change, { ticket: 'forged', mobile: next, smsCode: code }, h(u.token))).status).toBe('1004');
    expect((await call(t, change, { ticket, mobile: next, smsCode: code === '000000' ? '000001' : '000000' }, h(u.token))).status).toBe('1004');
    // Another user cannot use this ticket.
    const v = await register(t);
    expect((await call(t, change, { ticket, mobile: next, smsCode: code }, h(v.token))).status).toBe('1004');

    const ok = await call(t, change, { ticket, mobile: next, smsCode: code }, h(u.token));
    expect(ok).toMatchObject({ status: '000000', message: 'phone number changed', data: { mobile: `${next.slice(0, 3)}****${next.slice(-4)}` } });
    expect((await call(t, '/api/user/profile/v1/userprofile', {}, { token: u.token })).data.mobile).toBe(next);
    expect(await profileStatus(other)).toBe('1100');
    expect((await login(next, u.password)).status).toBe('000000');
    expect((await login(u.mobile, u.password)).status).toBe('1005');
    // The ticket is single use.
    expect((await call(t, change, { ticket, mobile: next, smsCode: code }, h(u.token))).status).toBe('1004');
    const notice = (await events(await userIdOf(next))).find((e) => e.kind === 'mobile_changed')!;
    expect(JSON.parse(notice.detail!)).toEqual({ from: `${u.mobile.slice(0, 3)}****${u.mobile.slice(-4)}`, to: `${next.slice(0, 3)}****${next.slice(-4)}`, sessionsRevoked: 1 });
    expect(notice.detail).not.toContain(u.mobile);
  });

  it('step 3 must name the number the code went to; a later send to another number replaces it', async () => {
    const u = await register(t);
    const ticket = await ticketOf(u);
    const a = newMobile();
    const b = newMobile();
    const codeA = await codeTo(u, ticket, a);
    const codeB = await codeTo(u, ticket, b);
    expect((await call(t, change, { ticket, mobile: a, smsCode: codeA }, h(u.token))).status).toBe('1004');
    expect((await call(t, change, { ticket, mobile: b, smsCode: codeB }, h(u.token))).status).toBe('000000');
  });

  it('a registered new number gets the same answer and code as any number at step 2, and is refused only at step 3 (1003)', async () => {
    const u = await register(t);
    const taken = await register(t);
    const ticket = await ticketOf(u);
    t.clock.t += 61_000;
    const free = newMobile();
    const toFree = await call(t, newCode, { ticket, mobile: free, NECaptchaValidate: await captchaToken(t) }, h(u.token));
    t.clock.t += 61_000;
    const toTaken = await call(t, newCode, { ticket, mobile: taken.mobile, NECaptchaValidate: await captchaToken(t) }, h(u.token));
    expect(toTaken).toEqual(toFree);
    const code = await latestCode(t, taken.mobile);
    const refused = await call(t, change, { ticket, mobile: taken.mobile, smsCode: code }, h(u.token));
    expect(refused).toMatchObject({ status: '1003', message: 'this phone number is already used by another account' });
    expect((await call(t, '/api/user/profile/v1/userprofile', {}, { token: u.token })).data.mobile).toBe(u.mobile);
    expect(await profileStatus(taken.token)).toBe('000000');
  });

  it('a change and a registration of the same number at once: exactly one gets it, the other answers 1003', async () => {
    for (let round = 0; round < 3; round++) {
      const u = await register(t);
      const ticket = await ticketOf(u);
      const target = newMobile();
      const changeCode = await codeTo(u, ticket, target);
      const registerCode = await (async () => {
        t.clock.t += 61_000;
        return smsCode(t, target, '1');
      })();
      const [c, r] = await Promise.all([
        call(t, change, { ticket, mobile: target, smsCode: changeCode }, h(u.token)),
        call(t, '/api/user/v1/regist', { mobile: target, pwd: b64('abc123!'), smsCode: registerCode }, EN),
      ]);
      expect([c.status, r.status].sort(), `${c.message} / ${r.message}`).toEqual(['000000', '1003']);
      const holders = await t.ctx.db.kysely.selectFrom('users').select('id').where('mobile', '=', target).execute();
      expect(holders).toHaveLength(1);
      if (c.status === '1003') expect(c.message).toBe('this phone number is already used by another account');
    }
  });

  it('caps the codes one ticket may send; the ticket expires after 10 minutes', async () => {
    const u = await register(t);
    const ticket = await ticketOf(u);
    for (let i = 0; i < 5; i++) await codeTo(u, ticket, newMobile());
    t.clock.t += 61_000;
    expect((await call(t, newCode, { ticket, mobile: newMobile(), NECaptchaValidate: await captchaToken(t) }, h(u.token))).status).toBe('1006');
    const fresh = await ticketOf(u);
    t.clock.t += 10 * 60_000 + 1;
    expect((await call(t, newCode, { ticket: fresh, mobile: newMobile(), NECaptchaValidate: await captchaToken(t) }, h(u.token))).status).toBe('1004');
  });
});

describe('privacy switches', () => {
  it('are saved; showCollection off hides the collection on public pages', async () => {
    const owner = await makeTrader(t);
    const release = await makeRelease(t);
    const { goodsId } = await makeGoods(t, release, owner);
    const accountId = (await t.ctx.db.kysely.selectFrom('users').select('account_id').where('id', '=', owner.userId).executeTakeFirstOrThrow()).account_id;
    const coll = (body: Record<string, unknown> = {}) => call(t, '/goods/v1/list/userCollection', { accountId, ...body });

    expect((await call(t, '/api/user/profile/v1/privacy/other/getsetting', {}, owner.h)).data).toEqual({ showCollection: true, personalizedRecommend: true });
    const shown = await coll();
    expect(shown.data).toMatchObject({ hidden: false, total: 1 });
    expect(shown.data.list.map((g: any) => g.id)).toEqual([goodsId]);

    const set = await call(t, '/api/user/profile/v1/privacy/other/setsetting', { showCollection: false }, owner.h);
    expect(set).toMatchObject({ status: '000000', data: { showCollection: false, personalizedRecommend: true }, message: 'settings saved' });
    expect((await call(t, '/api/user/profile/v1/privacy/other/getsetting', {}, owner.h)).data).toEqual({ showCollection: false, personalizedRecommend: true });
    expect((await coll()).data).toEqual({ hidden: true, list: [], total: 0, pageNum: 1, pageSize: 10 });
    // Logged-in strangers see the same.
    const other = await makeTrader(t);
    expect((await call(t, '/goods/v1/list/userCollection', { accountId }, other.h)).data.hidden).toBe(true);

    await call(t, '/api/user/profile/v1/privacy/other/setsetting', { personalizedRecommend: false }, owner.h);
    expect((await call(t, '/api/user/profile/v1/privacy/other/getsetting', {}, owner.h)).data).toEqual({ showCollection: false, personalizedRecommend: false });
    await call(t, '/api/user/profile/v1/privacy/other/setsetting', { showCollection: true }, owner.h);
    expect((await coll()).data.total).toBe(1);
    expect((await call(t, '/api/user/profile/v1/privacy/other/setsetting', {}, owner.h)).status).toBe('1001');
    expect((await call(t, '/api/user/profile/v1/privacy/other/setsetting', { showCollection: false }, {})).status).toBe('1100');
    const unknown = await call(t, '/goods/v1/list/userCollection', { accountId: '0000000000' }, EN);
    expect(unknown).toMatchObject({ http: 404, status: '1404', message: 'user not found' });
    expect((await events(owner.userId)).filter((e) => e.kind === 'privacy_changed')).toHaveLength(3);
  });
});

describe('account cancellation', () => {
  const status = (u: Trader) => call(t, '/api/user/profile/v1/cancel/status', {}, u.h);
  const apply = async (u: Trader, mobile: string, extra: Record<string, unknown> = {}) =>
    call(t, '/api/user/profile/v1/cancel/apply', { smsCode: await securityCode(u.token, mobile), confirm: true, ...extra }, u.h);
  const mobileOf = async (u: Trader) => (await t.ctx.db.kysely.selectFrom('users').select('mobile').where('id', '=', u.userId).executeTakeFirstOrThrow()).mobile;

  it('is refused while the account holds goods or money that would be lost, and says which', async () => {
    const seller = await makeTrader(t);
    const buyer = await makeTrader(t);
    const release = await makeRelease(t);
    const { goodsId } = await makeGoods(t, release, seller);
    await listForSale(t, seller, goodsId, 5000);
    await makeGoods(t, release, seller, { minted: false });
    await topup(t, seller, 1234);
    const other = await makeGoods(t, release, buyer);
    const bid = await call(t, '/goods/v1/bargin', { goodsId: other.goodsId, amount: 3000, expiresAt: t.clock.t + DAY }, seller.h);
    expect(bid.status, bid.message).toBe('000000');
    const order = await createOrderFor(t, buyer, goodsId);
    expect(order.status, order.message).toBe('000000');

    const s = await status(seller);
    expect(s.data.coolingDays).toBe(15);
    expect(s.data.blockers).toEqual([
      { kind: 'listed', count: 1, amountFen: null },
      { kind: 'unminted', count: 1, amountFen: null },
      { kind: 'orders', count: 1, amountFen: null },
      { kind: 'bids', count: 1, amountFen: null },
      { kind: 'balance', count: 1, amountFen: 1234 },
    ]);
    const r = await apply(seller, await mobileOf(seller));
    expect(r.status).toBe('1032');
    expect(r.data.blockers).toEqual(s.data.blockers);
    expect(r.message).toBe(
      'the account still holds assets or money and cannot be cancelled yet: 1 collectible(s) on sale, 1 collectible(s) not yet minted to your wallet, 1 unfinished order(s), 1 active bid(s), a platform balance of ￥12.34',
    );
    const zh = await call(t, '/api/user/profile/v1/cancel/apply', { smsCode: await securityCode(seller.token, await mobileOf(seller)), confirm: true }, { token: seller.token });
    expect(zh.message).toBe('账户中还有以下资产或资金未处理，暂不能注销：寄售中的藏品1件、尚未上链的藏品1件、未完成的订单1笔、进行中的出价1个、平台余额￥12.34');
    // The buyer's unpaid order blocks the buyer too; a creator account always does.
    expect((await status(buyer)).data.blockers).toEqual([{ kind: 'orders', count: 1, amountFen: null }]);
    const c = await makeTrader(t);
    await t.ctx.db.kysely.updateTable('users').set({ is_creator: 1 }).where('id', '=', c.userId).execute();
    expect((await status(c)).data.blockers).toEqual([{ kind: 'creator', count: 1, amountFen: null }]);
    expect(await t.ctx.db.kysely.selectFrom('account_cancellations').select('id').where('user_id', '=', seller.userId).execute()).toEqual([]);
  });

  it('needs the confirmation and a fresh security code; one pending request; revocable by logging in during the cooling-off period', async () => {
    const reg = await register(t);
    const u = { userId: await userIdOf(reg.mobile), token: reg.token, h: h(reg.token) } as unknown as Trader;
    const mobile = reg.mobile;
    expect(await call(t, '/api/user/profile/v1/cancel/apply', { smsCode: '123456', confirm: false }, u.h)).toMatchObject({ status: '1001', message: 'please read and confirm the cancellation notice first' });
    expect((await call(t, '/api/user/profile/v1/cancel/apply', { smsCode: '123456', confirm: true }, u.h)).status).toBe('1004');
    const r = await apply(u, mobile);
    expect(r).toMatchObject({ status: '000000', message: 'cancellation requested; it takes effect after a 15-day cooling-off period' });
    expect(r.data).toEqual({ status: 'cooling', requestedAt: t.clock.t, effectiveAt: t.clock.t + 15 * DAY, blockers: [] });
    expect((await apply(u, mobile)).status).toBe('1033');
    expect((await status(u)).data.request).toMatchObject({ status: 'cooling' });
    // The account stays usable during the period.
    expect(await profileStatus(u.token)).toBe('000000');
    t.clock.t += 14 * DAY;
    const back = (await login(mobile, reg.password)).data.token as string;
    expect((await call(t, '/api/user/profile/v1/cancel/status', {}, h(back))).data.request).toMatchObject({ status: 'cooling', effectiveAt: r.data.effectiveAt });
    expect(await call(t, '/api/user/profile/v1/cancel/revoke', {}, h(back))).toMatchObject({ status: '000000', message: 'cancellation request withdrawn' });
    expect((await call(t, '/api/user/profile/v1/cancel/revoke', {}, h(back))).status).toBe('1033');
    expect((await status(u)).data.request).toBeNull();
    t.clock.t += 2 * DAY;
    await runJobs(t);
    await runJobs(t);
    expect(await profileStatus(back)).toBe('000000');
    expect((await events(u.userId)).map((e) => e.kind)).toEqual(['cancel_requested', 'cancel_revoked']);
  });

  it('after the period the job anonymises the account exactly once; accounting rows stay with the user id', async () => {
    const u = await register(t);
    const userId = await userIdOf(u.mobile);
    const trader = { userId, token: u.token, h: h(u.token) } as unknown as Trader;
    const idNumber = adultId(idSeq++);
    expect((await call(t, '/api/user/profile/v1/submitrealname', { name: '张三', idNumber }, h(u.token))).status).toBe('000000');
    await t.ctx.db.kysely.updateTable('users').set({ wallet_address: 'cfx:aamjy3abae3j0ud8ys0npt38ggnunk5r4ps2pg8vcc' }).where('id', '=', userId).execute();
    await call(t, '/search/v1/queryFinal', { text: '龙', pageNum: 1, pageSize: 1 }, h(u.token));
    const second = (await login(u.mobile, u.password)).data.token as string;
    const r = await call(t, '/api/user/profile/v1/cancel/apply', { smsCode: await securityCode(u.token, u.mobile), confirm: true }, h(u.token));
    expect(r.status, r.message).toBe('000000');
    const requestId = Number((await t.ctx.db.kysely.selectFrom('account_cancellations').select('id').where('user_id', '=', userId).executeTakeFirstOrThrow()).id);

    // Not yet due: nothing happens.
    t.clock.t += 15 * DAY - 1000;
    await runJobs(t);
    await runJobs(t);
    expect(await profileStatus(u.token)).toBe('000000');
    expect(await anonymiseAccount(t.ctx, requestId)).toBe('not_due');

    t.clock.t += 2000;
    // The period is over: too late to withdraw.
    expect((await call(t, '/api/user/profile/v1/cancel/revoke', {}, h(u.token))).status).toBe('1033');
    await runJobs(t); // the sweep enqueues the job
    await runJobs(t); // the job runs
    const user = await t.ctx.db.kysely.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ mobile: tombstoneMobile(userId), password_hash: null, nickname: CANCELLED_NICKNAME, profpic_id: '1', wallet_address: null, is_realname: 0 });
    expect(Number(user.cancelled_at)).toBe(t.clock.t);
    expect(await t.ctx.db.kysely.selectFrom('realname').select('user_id').where('user_id', '=', userId).execute()).toEqual([]);
    expect(await t.ctx.db.kysely.selectFrom('search_history').select('id').where('user_id', '=', userId).execute()).toEqual([]);
    expect(await profileStatus(u.token)).toBe('1100');
    expect(await profileStatus(second)).toBe('1100');
    expect((await login(u.mobile, u.password)).status).toBe('1005');
    expect((await call(t, '/api/user/profile/v1/cancel/status', {}, trader.h)).status).toBe('1100');
    // Exactly once: the job and the sweep again, and the handler called directly.
    await runJobs(t);
    await runJobs(t);
    expect(await anonymiseAccount(t.ctx, requestId)).toBe('nothing');
    const log = await events(userId);
    expect(log.filter((e) => e.kind === 'account_cancelled')).toHaveLength(1);
    expect(log.every((e) => e.ip === null && e.user_agent === null)).toBe(true);
    expect((await t.ctx.db.kysely.selectFrom('account_cancellations').select(['status']).where('id', '=', requestId).executeTakeFirstOrThrow()).status).toBe('done');
    // The phone number is free again: a new account may register it.
    expect((await register(t, u.mobile)).token).toBeTruthy();
  });

  it('concurrent runs of the anonymisation of one request: exactly one anonymises', async () => {
    const u = await makeTrader(t);
    expect((await apply(u, await mobileOf(u))).status).toBe('000000');
    const requestId = Number((await t.ctx.db.kysely.selectFrom('account_cancellations').select('id').where('user_id', '=', u.userId).executeTakeFirstOrThrow()).id);
    t.clock.t += 15 * DAY + 1;
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => anonymiseAccount(t.ctx, requestId)));
    expect(outcomes.filter((o) => o === 'anonymised')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== 'anonymised').every((o) => o === 'nothing')).toBe(true);
    expect((await events(u.userId)).filter((e) => e.kind === 'account_cancelled')).toHaveLength(1);
  });

  it('keeps orders and ledger rows for accounting and ends `blocked` when assets appeared during the period', async () => {
    const u = await makeTrader(t);
    const seller = await makeTrader(t);
    const release = await makeRelease(t);
    const { goodsId } = await makeGoods(t, release, seller);
    await listForSale(t, seller, goodsId, 2000);
    await topup(t, u, 2000);
    const order = await createOrderFor(t, u, goodsId);
    const paid = await call(t, '/payment/nftOrder/V1/pay', { orderNo: order.data.orderNo, method: 'balance' }, u.h);
    expect(paid.status, paid.message).toBe('000000');
    await runJobs(t);
    await runJobs(t);
    expect(await orderStatus(t, order.data.orderNo)).toBe('completed');
    expect((await status(u)).data.blockers).toEqual([]);
    const r = await apply(u, await mobileOf(u));
    expect(r.status, r.message).toBe('000000');
    // During the cooling-off period the user got a balance again.
    await topup(t, u, 500);
    t.clock.t += 15 * DAY + 1;
    await runJobs(t);
    await runJobs(t);
    const req = await t.ctx.db.kysely.selectFrom('account_cancellations').selectAll().where('user_id', '=', u.userId).executeTakeFirstOrThrow();
    expect(req.status).toBe('blocked');
    expect(JSON.parse(req.blockers!)).toEqual([{ kind: 'balance', count: 1, amountFen: 500 }]);
    expect(await profileStatus(u.token)).toBe('000000');
    expect((await status(u)).data.request).toMatchObject({ status: 'blocked', blockers: [{ kind: 'balance', count: 1, amountFen: 500 }] });

    // Spent: a new request goes through, and the order and ledger rows remain with the user id.
    const { goodsId: g2 } = await makeGoods(t, release, seller);
    await listForSale(t, seller, g2, 500);
    const o2 = await createOrderFor(t, u, g2);
    expect((await call(t, '/payment/nftOrder/V1/pay', { orderNo: o2.data.orderNo, method: 'balance' }, u.h)).status).toBe('000000');
    await runJobs(t);
    await runJobs(t);
    expect((await apply(u, await mobileOf(u))).status).toBe('000000');
    t.clock.t += 15 * DAY + 1;
    await runJobs(t);
    await runJobs(t);
    expect((await t.ctx.db.kysely.selectFrom('users').select('cancelled_at').where('id', '=', u.userId).executeTakeFirstOrThrow()).cancelled_at).not.toBeNull();
    const orders = await t.ctx.db.kysely.selectFrom('orders').select(['order_no', 'status']).where('buyer_user_id', '=', u.userId).execute();
    expect(orders.map((o) => o.order_no).sort()).toEqual([order.data.orderNo, o2.data.orderNo].sort());
    const entries = await t.ctx.db.kysely.selectFrom('ledger_entries').select('amount_fen').where('account', '=', `user:${u.userId}`).execute();
    expect(entries.length).toBeGreaterThanOrEqual(4);
    // The goods bought stay the user's (on chain in their wallet).
    expect(Number((await t.ctx.db.kysely.selectFrom('goods').select('owner_user_id').where('id', '=', goodsId).executeTakeFirstOrThrow()).owner_user_id)).toBe(u.userId);
  });
});

describe('personal data export', () => {
  async function downloadOf(url: string) {
    const res = await t.app.inject({ method: 'GET', url });
    return res;
  }

  it('contains my data and nobody else\'s; masked real name without a code, the full ID number with one', async () => {
    const a = await register(t);
    const b = await register(t);
    const aId = adultId(idSeq++);
    const bId = adultId(idSeq++);
    expect((await call(t, '/api/user/profile/v1/submitrealname', { name: '王小明', idNumber: aId }, h(a.token))).status).toBe('000000');
    expect((await call(t, '/api/user/profile/v1/submitrealname', { name: '赵大海', idNumber: bId }, h(b.token))).status).toBe('000000');
    await call(t, '/search/v1/queryFinal', { text: 'alpha-only-a', pageNum: 1, pageSize: 1 }, h(a.token));
    await call(t, '/search/v1/queryFinal', { text: 'beta-only-b', pageNum: 1, pageSize: 1 }, h(b.token));
    await call(t, '/api/user/profile/v1/modifynickname', { nickname: '导出者甲' }, h(a.token));
    await call(t, '/api/user/profile/v1/modifynickname', { nickname: '旁人乙' }, h(b.token));
    const aUser = await userIdOf(a.mobile);
    const bUser = await userIdOf(b.mobile);
    const release = await makeRelease(t);
    const g = await makeGoods(t, release, { userId: aUser } as Trader, { minted: false });
    await call(t, '/goods/v1/love', { goodsId: g.goodsId }, h(a.token));
    await call(t, '/goods/v1/love', { goodsId: g.goodsId }, h(b.token));

    const r = await call(t, '/api/user/profile/v1/export/apply', {}, h(a.token));
    expect(r).toMatchObject({ status: '000000', message: 'your data export is ready; download it within 15 minutes', data: { includesIdNumber: false, expiresAt: t.clock.t + 15 * 60_000 } });
    expect(r.data.downloadUrl).toMatch(/^\/mvapi\/public\/api\/user\/profile\/v1\/export\/download\?t=[\w-]{40,}$/);
    const res = await downloadOf(r.data.downloadUrl);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="cfx-art-personal-data-\d+-\d{8}\.json"$/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const data = res.json();
    expect(data.account).toMatchObject({ mobile: a.mobile, nickname: '导出者甲', hasPassword: true });
    expect(data.realname).toMatchObject({ masked: true });
    expect(data.realname.idNumber).not.toBe(aId);
    expect(data.realname.name).not.toBe('王小明');
    expect(data.searchHistory.items.map((s: any) => s.text)).toEqual(['alpha-only-a']);
    expect(data.favourites.items.map((f: any) => f.goodsId)).toEqual([g.goodsId]);
    expect(data.collectibles.items.map((c: any) => c.goodsId)).toEqual([g.goodsId]);
    expect(data.sessions.items.length).toBeGreaterThanOrEqual(1);
    expect(data.securityLog.items.map((e: any) => e.kind)).toContain('export_requested');
    for (const key of ['orders', 'bids', 'deals', 'ledgerEntries', 'listings', 'uploads', 'projectApplications', 'accountCancellations', 'dataExports']) {
      expect(data[key], key).toMatchObject({ truncated: false });
    }
    const text = res.body;
    const bAccount = (await t.ctx.db.kysely.selectFrom('users').select('account_id').where('id', '=', bUser).executeTakeFirstOrThrow()).account_id;
    for (const foreign of [b.mobile, bAccount, bId, '赵大海', '旁人乙', 'beta-only-b', b.token, sha256(b.token), a.token, sha256(a.token)]) {
      expect(text, foreign).not.toContain(foreign);
    }
    const aLog = await events(aUser);
    expect(aLog.map((e) => e.kind)).toEqual(expect.arrayContaining(['export_requested', 'export_downloaded']));

    // Once a day.
    expect(await call(t, '/api/user/profile/v1/export/apply', {}, h(a.token))).toMatchObject({ status: '1006', message: 'personal data can be exported once every 24 hours; please try again later' });
    // The link works for 15 minutes, several times.
    expect((await downloadOf(r.data.downloadUrl)).statusCode).toBe(200);
    t.clock.t += 15 * 60_000 + 1;
    const expired = await downloadOf(r.data.downloadUrl);
    expect(expired.statusCode).toBe(404);
    expect(expired.json()).toMatchObject({ status: '1001', data: null });
    expect((await downloadOf(`${API}/api/user/profile/v1/export/download?t=forged`)).statusCode).toBe(404);
    expect((await downloadOf(`${API}/api/user/profile/v1/export/download`)).statusCode).toBe(404);

    // A day later, with a fresh security code: the full name and ID number (the owner's only).
    t.clock.t += DAY;
    expect((await call(t, '/api/user/profile/v1/export/apply', { smsCode: '000000' }, h(a.token))).status).toBe('1004');
    const code = await securityCode(a.token, a.mobile);
    const full = await call(t, '/api/user/profile/v1/export/apply', { smsCode: code }, h(a.token));
    expect(full.data.includesIdNumber).toBe(true);
    const fullData = (await downloadOf(full.data.downloadUrl)).json();
    expect(fullData.realname).toMatchObject({ masked: false, name: '王小明', idNumber: aId, birthDate: '1990-01-01' });
    expect(JSON.stringify(fullData)).not.toContain(bId);
    expect(fullData.dataExports.items).toHaveLength(2);
    expect((await call(t, '/api/user/profile/v1/export/apply', {}, {})).status).toBe('1100');
  });
});

describe('security log', () => {
  it('lists my latest security events with device and masked IP', async () => {
    const u = await register(t);
    await call(t, '/api/user/profile/v1/security/changepwd', { oldPwd: b64(u.password), newPwd: b64('n3w-pass') }, h(u.token, { 'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15' }), '192.0.2.44');
    const r = await call(t, '/api/user/profile/v1/security/events', {}, h(u.token));
    expect(r.data[0]).toEqual({ kind: 'password_changed', device: 'Safari 17 · macOS', ip: '192.0.*.*', at: t.clock.t });
  });
});

describe('every new call needs a session', () => {
  it('answers 1100 without a token', async () => {
    for (const p of [
      '/api/user/profile/v1/security/changepwd', '/api/user/profile/v1/security/sessions', '/api/user/profile/v1/security/sessions/revoke', '/api/user/profile/v1/security/events',
      '/api/user/v1/mobile/verify', '/api/user/v1/mobile/newsmscode', '/api/user/v1/mobile/change', '/api/user/profile/v1/privacy/other/setsetting',
      '/api/user/profile/v1/cancel/status', '/api/user/profile/v1/cancel/apply', '/api/user/profile/v1/cancel/revoke', '/api/user/profile/v1/export/apply',
    ]) {
      const body = { oldPwd: 'x', newPwd: 'eA==', smsCode: '123456', ticket: 'x', mobile: '13800000000', NECaptchaValidate: 'x', confirm: true, showCollection: true };
      const r = await call(t, p, body);
      expect(r.status, p).toBe('1100');
    }
  });
});
