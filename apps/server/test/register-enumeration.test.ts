import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { b64, call, makeApp, newMobile, register, smsCode, type TestApp } from './helpers.ts';

/**
 * regist with a wrong SMS code is no oracle for registered phones: a registered and an unregistered
 * phone get the same answer (1004 验证码错误或已失效) by the same path (the code is checked before the
 * phone's account is looked up), and wrong tries are limited per phone and per IP (1006, 15 minutes)
 * — the same answer again for every phone. SQLite, or PostgreSQL with TEST_PG_URL.
 */
const EN = { lang: 'en' };
const ZH = { lang: 'zh' };
const REGIST = '/api/user/v1/regist';
const wrongFor = (code: string) => (code === '123456' ? '654321' : '123456');
const LOCKED_EN = { http: 200, status: '1006', message: 'too many registration attempts, please try again in 15 minutes' };
const LOCKED_ZH = { http: 200, status: '1006', message: '注册尝试过于频繁，请15分钟后再试' };
const pick = (r: { http: number; status: string; message: string; data: unknown }) => ({ http: r.http, status: r.status, message: r.message, data: r.data });

let t: TestApp;
beforeAll(async () => {
  t = await makeApp({}, { REGISTER_FAILURES_PER_IP: '6', REGISTER_FAILURES_PER_MOBILE: '4' });
});
afterAll(async () => {
  await t?.close();
});

describe(`regist answers alike for every phone, on ${process.env.TEST_PG_URL ? 'PostgreSQL' : 'SQLite'}`, () => {
  it('a wrong code: the same status and message for a registered phone, an unregistered one and one with a live code', async () => {
    const registered = await register(t);
    const fresh = newMobile();
    const withCode = newMobile();
    const code = await smsCode(t, withCode, '1');
    for (const [h, message] of [[EN, 'verification code incorrect or expired'], [ZH, '验证码错误或已失效']] as const) {
      const answers = await Promise.all(
        [registered.mobile, fresh, withCode].map(async (mobile, i) => pick(await call(t, REGIST, { mobile, pwd: b64('abc123!'), smsCode: wrongFor(code) }, h, `10.7.0.${i + 1}`))),
      );
      expect(answers).toEqual(Array(3).fill({ http: 200, status: '1004', message, data: null }));
    }
    // The right code still registers; a registered phone is told so only to whoever holds its code.
    expect((await call(t, REGIST, { mobile: withCode, pwd: b64('abc123!'), smsCode: code }, EN, '10.7.0.9')).status).toBe('000000');
  });

  it('wrong tries are limited per IP: the limit answers 1006 for registered and unregistered phones alike, other IPs go on, the window ends', async () => {
    const registered = await register(t);
    const ip = '10.7.1.1';
    for (let i = 0; i < 6; i++) {
      const r = await call(t, REGIST, { mobile: i % 2 ? registered.mobile : newMobile(), pwd: b64('abc123!'), smsCode: '123456' }, EN, ip);
      expect(r.status).toBe('1004');
    }
    expect(pick(await call(t, REGIST, { mobile: registered.mobile, pwd: b64('abc123!'), smsCode: '123456' }, EN, ip))).toEqual({ ...LOCKED_EN, data: null });
    expect(pick(await call(t, REGIST, { mobile: newMobile(), pwd: b64('abc123!'), smsCode: '123456' }, EN, ip))).toEqual({ ...LOCKED_EN, data: null });
    expect(pick(await call(t, REGIST, { mobile: newMobile(), pwd: b64('abc123!'), smsCode: '123456' }, ZH, ip))).toEqual({ ...LOCKED_ZH, data: null });
    expect((await call(t, REGIST, { mobile: newMobile(), pwd: b64('abc123!'), smsCode: '123456' }, EN, '10.7.1.2')).status).toBe('1004');
    t.clock.t += 15 * 60_000 + 1000;
    expect((await call(t, REGIST, { mobile: registered.mobile, pwd: b64('abc123!'), smsCode: '123456' }, EN, ip)).status).toBe('1004');
  });

  it('wrong tries are limited per phone (from any IP), even the right code waits; a success does not count', async () => {
    const mobile = newMobile();
    const code = await smsCode(t, mobile, '1');
    for (let i = 0; i < 4; i++) expect((await call(t, REGIST, { mobile, pwd: b64('abc123!'), smsCode: wrongFor(code) }, EN, `10.7.2.${i}`)).status).toBe('1004');
    expect(pick(await call(t, REGIST, { mobile, pwd: b64('abc123!'), smsCode: code }, EN, '10.7.2.9'))).toEqual({ ...LOCKED_EN, data: null });
    t.clock.t += 15 * 60_000 + 1000;
    const code2 = await smsCode(t, mobile, '1');
    expect((await call(t, REGIST, { mobile, pwd: b64('abc123!'), smsCode: code2 }, EN, '10.7.2.9')).status).toBe('000000');
    // Successful registrations from one IP (an office, a carrier NAT) never fill its limit.
    for (let i = 0; i < 8; i++) await register(t);
  });

  it('300 probes from one IP in a burst: at most the limit is answered, the rest are refused', async () => {
    const ip = '10.7.3.1';
    const answers = await Promise.all(Array.from({ length: 300 }, () => call(t, REGIST, { mobile: newMobile(), pwd: b64('abc123!'), smsCode: '123456' }, EN, ip)));
    const counts = answers.reduce<Record<string, number>>((m, r) => ({ ...m, [r.status]: (m[r.status] ?? 0) + 1 }), {});
    expect(counts).toEqual({ '1004': 6, '1006': 294 });
  });
});
