import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, b64, call, captchaToken, latestCode, makeApp, newMobile, register, smsCode, type TestApp } from './helpers.ts';

const EN = { lang: 'en' };
let t: TestApp;
beforeAll(async () => { t = await makeApp(); });
afterAll(async () => { await t?.close(); });

describe(`accounts on ${process.env.TEST_PG_URL ? 'PostgreSQL' : 'SQLite'}`, () => {
  it('registers with a captcha-gated SMS code and answers the spec message', async () => {
    const mobile = newMobile();
    const send = await call(t, '/api/user/v1/smscode', { mobile, type: '1', NECaptchaValidate: await captchaToken(t) }, EN);
    expect(send).toMatchObject({ status: '000000', message: 'sent successfully' });
    const code = await latestCode(t, mobile);
    expect(code).toMatch(/^\d{6}$/);
    const r = await call(t, '/api/user/v1/regist', { mobile, pwd: b64('abc123!'), smsCode: code }, EN);
    expect(r.status).toBe('000000');
    expect(r.message).toBe('registered successfully, please change avatar and nickname in personal center - account settings');
    expect(r.data.token).toMatch(/^[\w-]{40,}$/);
    const p = await call(t, '/api/user/profile/v1/userprofile', {}, { token: r.data.token });
    expect(p.status).toBe('000000');
    expect(p.data).toMatchObject({ mobile, isRealname: '0', walletAddress: '', isCreator: 0 });
    expect(p.data.accountId).toMatch(/^\d{10}$/);
    expect(p.data.profpicUrl).toBe('/media/avatars/1.svg');
  });

  it('answers in Chinese by default', async () => {
    const r = await call(t, '/api/user/profile/v1/userprofile', {}, {});
    expect(r).toMatchObject({ status: '1100', code: '1100', message: '未登录或登录失效，请先登录！', msg: '未登录或登录失效，请先登录！', data: null });
  });

  it('refuses smscode without a valid, unused captcha token', async () => {
    const mobile = newMobile();
    const none = await call(t, '/api/user/v1/smscode', { mobile, type: '1', NECaptchaValidate: 'forged' }, EN);
    expect(none.status).toBe('1007');
    const token = await captchaToken(t);
    expect((await call(t, '/api/user/v1/smscode', { mobile, type: '1', NECaptchaValidate: token })).status).toBe('000000');
    t.clock.t += 61_000;
    const reused = await call(t, '/api/user/v1/smscode', { mobile, type: '1', NECaptchaValidate: token });
    expect(reused.status).toBe('1007');
  });

  it('expires captcha tokens after 2 minutes', async () => {
    const token = await captchaToken(t);
    t.clock.t += 121_000;
    const r = await call(t, '/api/user/v1/smscode', { mobile: newMobile(), type: '1', NECaptchaValidate: token });
    expect(r.status).toBe('1007');
  });

  it('rejects a malformed phone on smscode with 1001', async () => {
    const r = await call(t, '/api/user/v1/smscode', { mobile: '1380013', type: '1', NECaptchaValidate: await captchaToken(t) }, EN);
    expect(r).toMatchObject({ status: '1001', message: 'phone number entered incorrectly.' });
  });

  it('knows which phones may get which code type', async () => {
    const u = await register(t);
    const again = await call(t, '/api/user/v1/smscode', { mobile: u.mobile, type: '1', NECaptchaValidate: await captchaToken(t) });
    expect(again.status).toBe('1003');
    // Login and reset codes answer alike for registered and unregistered phones (no enumeration),
    // limits included; an unregistered phone simply gets no SMS.
    const fresh = newMobile();
    for (const [mobile, type] of [[u.mobile, '2'], [fresh, '2'], [u.mobile, '3'], [fresh, '3']] as const) {
      t.clock.t += 61_000;
      const first = await call(t, '/api/user/v1/smscode', { mobile, type, NECaptchaValidate: await captchaToken(t) }, EN);
      expect(first, `${mobile === fresh ? 'unregistered' : 'registered'} type ${type}`).toMatchObject({ status: '000000', message: 'sent successfully' });
      const soon = await call(t, '/api/user/v1/smscode', { mobile, type, NECaptchaValidate: await captchaToken(t) }, EN);
      expect(soon.status).toBe('1006');
    }
    const outbox = await t.app.inject({ method: 'GET', url: `${API}/dev/sms-outbox?mobile=${fresh}` });
    expect(outbox.json().data).toEqual([]);
  });

  it('allows one send per phone per 60 s and caps sends per day', async () => {
    const mobile = newMobile();
    await smsCode(t, mobile, '1');
    const soon = await call(t, '/api/user/v1/smscode', { mobile, type: '1', NECaptchaValidate: await captchaToken(t) }, EN);
    expect(soon.status).toBe('1006');
    expect(soon.message).toMatch(/try again in \d+ seconds/);
    for (let i = 1; i < 10; i++) {
      t.clock.t += 61_000;
      await smsCode(t, mobile, '1');
    }
    t.clock.t += 61_000;
    const capped = await call(t, '/api/user/v1/smscode', { mobile, type: '1', NECaptchaValidate: await captchaToken(t) }, EN);
    expect(capped).toMatchObject({ status: '1006', message: 'daily limit reached, please try again tomorrow' });
  });

  it('caps sends per IP per day', async () => {
    const ip = '10.9.8.7';
    const t2 = await makeApp({}, { SMS_DAILY_PER_IP: '3' });
    try {
      for (let i = 0; i < 3; i++) await smsCode(t2, newMobile(), '1', ip);
      const r = await call(t2, '/api/user/v1/smscode', { mobile: newMobile(), type: '1', NECaptchaValidate: await captchaToken(t2) }, EN, ip);
      expect(r.status).toBe('1006');
      const other = await call(t2, '/api/user/v1/smscode', { mobile: newMobile(), type: '1', NECaptchaValidate: await captchaToken(t2) }, EN, '10.9.8.8');
      expect(other.status).toBe('000000');
    } finally {
      await t2.close();
    }
  });

  it('SMS codes are single use, expire after 5 minutes and die after 5 wrong tries', async () => {
    const mobile = newMobile();
    const code = await smsCode(t, mobile, '1');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) {
      expect((await call(t, '/api/user/v1/regist', { mobile, pwd: b64('abc123'), smsCode: wrong }, EN)).status).toBe('1004');
    }
    const fifth = await call(t, '/api/user/v1/regist', { mobile, pwd: b64('abc123'), smsCode: wrong }, EN);
    expect(fifth).toMatchObject({ status: '1004', message: 'too many wrong codes, please request a new one' });
    expect((await call(t, '/api/user/v1/regist', { mobile, pwd: b64('abc123'), smsCode: code })).status).toBe('1004');

    t.clock.t += 61_000;
    const code2 = await smsCode(t, mobile, '1');
    t.clock.t += 5 * 60_000 + 1000;
    expect((await call(t, '/api/user/v1/regist', { mobile, pwd: b64('abc123'), smsCode: code2 })).status).toBe('1004');

    const code3 = await smsCode(t, mobile, '1');
    expect((await call(t, '/api/user/v1/regist', { mobile, pwd: b64('abc123'), smsCode: code3 })).status).toBe('000000');
    // The used code is wrong now: 1004 as for any phone (regist tells 1003 only to a holder of a live code).
    expect((await call(t, '/api/user/v1/regist', { mobile, pwd: b64('abc123'), smsCode: code3 })).status).toBe('1004');
  });

  it('enforces the password rule on register (6-20 digits, letters, symbols; base64)', async () => {
    for (const pwd of [b64('12345'), b64('a'.repeat(21)), b64('密码密码密码'), b64('abc 123'), 'not base64!!', '']) {
      const r = await call(t, '/api/user/v1/regist', { mobile: newMobile(), pwd, smsCode: '123456' }, EN);
      expect(r).toMatchObject({ status: '1001', message: 'please enter 6-20 characters of digits, letters and symbols' });
    }
  });

  it('records who invited whom', async () => {
    const inviter = await register(t);
    const info = await call(t, '/api/user/v1/getinvitecode', {}, { token: inviter.token });
    expect(info.data.inviteCode).toMatch(/^[A-Z2-9]{6}$/);
    expect(info.data.invitedCount).toBe(0);
    await register(t, newMobile(), 'abc123', { inviteCode: info.data.inviteCode.toLowerCase(), registChannel: 'poster' });
    const after = await call(t, '/api/user/v1/getinvitecode', {}, { token: inviter.token });
    expect(after.data.invitedCount).toBe(1);
    const mobile = newMobile();
    const code = await smsCode(t, mobile, '1');
    const bad = await call(t, '/api/user/v1/regist', { mobile, pwd: b64('abc123'), smsCode: code, inviteCode: 'ZZZZZZ' }, EN);
    expect(bad).toMatchObject({ status: '1001', message: 'invite code does not exist' });
  });

  it('logs in by password and by SMS code', async () => {
    const u = await register(t);
    const pw = await call(t, '/api/user/v1/login', { mobile: u.mobile, pwd: b64(u.password), loginType: 1 }, EN);
    expect(pw).toMatchObject({ status: '000000', message: 'login successful' });
    const code = await smsCode(t, u.mobile, '2');
    const sms = await call(t, '/api/user/v1/login', { mobile: u.mobile, loginType: '2', smsCode: code }, EN);
    expect(sms.status).toBe('000000');
    expect(sms.data.token).not.toBe(pw.data.token);
    const wrong = await call(t, '/api/user/v1/login', { mobile: u.mobile, pwd: b64('wrong-pass'), loginType: 1 }, EN);
    expect(wrong).toMatchObject({ status: '1005', message: 'phone number or password incorrect' });
  });

  it('rate-limits password failures per phone with a clear message', async () => {
    const u = await register(t);
    for (let i = 0; i < 5; i++) {
      expect((await call(t, '/api/user/v1/login', { mobile: u.mobile, pwd: b64('nope-nope'), loginType: 1 })).status).toBe('1005');
    }
    const locked = await call(t, '/api/user/v1/login', { mobile: u.mobile, pwd: b64(u.password), loginType: 1 }, EN);
    expect(locked).toMatchObject({ status: '1006', message: 'too many login attempts, please try again in 15 minutes' });
    t.clock.t += 15 * 60_000 + 1000;
    expect((await call(t, '/api/user/v1/login', { mobile: u.mobile, pwd: b64(u.password), loginType: 1 })).status).toBe('000000');
  });

  it('rate-limits password failures per IP', async () => {
    const t2 = await makeApp({}, { LOGIN_FAILURES_PER_IP: '3' });
    try {
      const ip = '10.1.1.1';
      for (let i = 0; i < 3; i++) await call(t2, '/api/user/v1/login', { mobile: newMobile(), pwd: b64('x1x1x1'), loginType: 1 }, {}, ip);
      const r = await call(t2, '/api/user/v1/login', { mobile: newMobile(), pwd: b64('x1x1x1'), loginType: 1 }, EN, ip);
      expect(r.status).toBe('1006');
    } finally {
      await t2.close();
    }
  });

  it('logout revokes the token; invalid and expired tokens answer 1100', async () => {
    const u = await register(t);
    expect((await call(t, '/api/user/v1/logout', {}, { token: u.token })).status).toBe('000000');
    expect((await call(t, '/api/user/profile/v1/userprofile', {}, { token: u.token })).status).toBe('1100');
    expect((await call(t, '/api/user/v1/logout', {}, { token: u.token })).status).toBe('1100');
    expect((await call(t, '/api/user/profile/v1/userprofile', {}, { token: 'x'.repeat(43) })).status).toBe('1100');
    const v = await register(t);
    t.clock.t += t.ctx.config.sessionTtlMs + 1;
    expect((await call(t, '/api/user/profile/v1/userprofile', {}, { token: v.token })).status).toBe('1100');
  });

  it('every protected call answers 1100 without a token', async () => {
    for (const p of ['userprofile', 'profpic/list', 'changeprofpic', 'modifynickname', 'security/setting', 'privacy/other/getsetting']) {
      const r = await call(t, `/api/user/profile/v1/${p}`, { id: '1', nickname: 'x' });
      expect(r.status, p).toBe('1100');
    }
    for (const p of ['getinvitecode', 'logout', 'mobile/smscode']) {
      expect((await call(t, `/api/user/v1/${p}`, { NECaptchaValidate: 'x' })).status, p).toBe('1100');
    }
  });

  it('resets a forgotten password in three steps with the spec codes', async () => {
    const u = await register(t);
    const code = await smsCode(t, u.mobile, '3');
    const check = await call(t, '/api/user/findpwd/v1/checkmobile', { mobile: u.mobile, smscode: code }, EN);
    expect(check).toMatchObject({ status: '000000', message: 'verification passed' });
    const resetToken = check.data.token;

    const weak = await call(t, '/api/user/findpwd/v1/reset', { mobile: u.mobile, token: resetToken, newPwd: b64('123') }, EN);
    expect(weak).toMatchObject({ status: '1001', message: 'please enter 6-20 characters of digits, letters and symbols' });
    // The token is bound to its phone and checked first: another phone, registered or not, gets 1100.
    const unknown = await call(t, '/api/user/findpwd/v1/reset', { mobile: newMobile(), token: resetToken, newPwd: b64('newpass1') }, EN);
    expect(unknown).toMatchObject({ status: '1100', message: 'login token verification failed' });
    const badToken = await call(t, '/api/user/findpwd/v1/reset', { mobile: u.mobile, token: 'nope', newPwd: b64('newpass1') }, EN);
    expect(badToken).toMatchObject({ status: '1100', message: 'login token verification failed' });
    const done = await call(t, '/api/user/findpwd/v1/reset', { mobile: u.mobile, token: resetToken, newPwd: b64('newpass1') }, EN);
    expect(done).toMatchObject({ status: '000000', message: 'changed successfully, please log in' });
    const zh = await call(t, '/api/user/findpwd/v1/reset', { mobile: u.mobile, token: resetToken, newPwd: b64('newpass2') });
    expect(zh).toMatchObject({ status: '1100', message: '登录token校验失败' });

    expect((await call(t, '/api/user/profile/v1/userprofile', {}, { token: u.token })).status).toBe('1100');
    expect((await call(t, '/api/user/v1/login', { mobile: u.mobile, pwd: b64(u.password), loginType: 1 })).status).toBe('1005');
    expect((await call(t, '/api/user/v1/login', { mobile: u.mobile, pwd: b64('newpass1'), loginType: 1 })).status).toBe('000000');
  });

  it('checkmobile and SMS login answer unknown phones exactly like a wrong code', async () => {
    const u = await register(t);
    for (const p of ['/api/user/findpwd/v1/checkmobile', '/api/user/v1/login']) {
      const body = (mobile: string) => (p.endsWith('login') ? { mobile, loginType: 2, smsCode: '123456' } : { mobile, smscode: '123456' });
      const unknown = await call(t, p, body(newMobile()), EN);
      const wrong = await call(t, p, body(u.mobile), EN);
      expect(unknown.status, p).toBe('1004');
      expect({ status: unknown.status, message: unknown.message }).toEqual({ status: wrong.status, message: wrong.message });
    }
    const bad = await call(t, '/api/user/findpwd/v1/checkmobile', { mobile: u.mobile, smscode: '12' }, EN);
    expect(bad.status).toBe('1004');
  });

  it('a reset token expires after 10 minutes', async () => {
    const u = await register(t);
    const code = await smsCode(t, u.mobile, '3');
    const check = await call(t, '/api/user/findpwd/v1/checkmobile', { mobile: u.mobile, smscode: code });
    t.clock.t += 10 * 60_000 + 1;
    const r = await call(t, '/api/user/findpwd/v1/reset', { mobile: u.mobile, token: check.data.token, newPwd: b64('newpass1') });
    expect(r.status).toBe('1100');
  });

  it('changes avatar and nickname', async () => {
    const u = await register(t);
    const h = { token: u.token };
    const list = await call(t, '/api/user/profile/v1/profpic/list', {}, h);
    expect(list.data.length).toBe(12);
    expect((await call(t, '/api/user/profile/v1/changeprofpic', { id: list.data[4].id }, h)).status).toBe('000000');
    expect((await call(t, '/api/user/profile/v1/changeprofpic', { id: '999' }, { ...h, ...EN })).message).toBe('avatar does not exist');
    expect((await call(t, '/api/user/profile/v1/modifynickname', { nickname: '  数字藏家小王  ' }, h)).status).toBe('000000');
    for (const nickname of ['', '   ', 'x'.repeat(17), '<script>', 'a\u0000b']) {
      expect((await call(t, '/api/user/profile/v1/modifynickname', { nickname }, h)).status, nickname).toBe('1001');
    }
    const p = await call(t, '/api/user/profile/v1/userprofile', {}, h);
    expect(p.data).toMatchObject({ nickname: '数字藏家小王', profpicUrl: list.data[4].url });
    const img = await t.app.inject({ method: 'GET', url: list.data[4].url });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toContain('image/svg+xml');
  });

  it('security and privacy settings', async () => {
    const u = await register(t);
    const s = await call(t, '/api/user/profile/v1/security/setting', {}, { token: u.token });
    expect(s.data).toEqual({ mobile: `${u.mobile.slice(0, 3)}****${u.mobile.slice(-4)}`, hasPassword: true, isRealname: '0', walletAddress: '' });
    const p = await call(t, '/api/user/profile/v1/privacy/other/getsetting', {}, { token: u.token });
    expect(p.data).toEqual({ showCollection: true, personalizedRecommend: true });
  });

  it('sends a security code to the logged-in user\'s own phone', async () => {
    const u = await register(t);
    t.clock.t += 61_000;
    const r = await call(t, '/api/user/v1/mobile/smscode', { NECaptchaValidate: await captchaToken(t) }, { token: u.token });
    expect(r.status).toBe('000000');
    const res = await t.app.inject({ method: 'GET', url: `${API}/dev/sms-outbox?mobile=${u.mobile}` });
    expect(res.json().data[0].type).toBe('4');
  });

  it('stores only hashes of passwords, tokens and codes', async () => {
    const u = await register(t);
    const user = await t.ctx.db.kysely.selectFrom('users').selectAll().where('mobile', '=', u.mobile).executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^scrypt\$/);
    expect(user.password_hash).not.toContain(u.password);
    const sessions = await t.ctx.db.kysely.selectFrom('sessions').select('token_hash').execute();
    expect(sessions.some((s) => s.token_hash === u.token)).toBe(false);
  });
});
