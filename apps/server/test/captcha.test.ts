import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadingZeroBits, solvePowNow as solvePow } from '@cfx/protocol/pow.ts';
import { API, call, makeApp, newMobile, type TestApp } from './helpers.ts';

/**
 * The self-hosted slider: challenge image, a proof of work per challenge, one attempt per
 * challenge, offset and drag timing checked server-side. (The images' resistance to image
 * analysis: captcha-solver.test.ts.)
 */
let t: TestApp;
beforeAll(async () => { t = await makeApp({}, { CAPTCHA_PROVIDER: 'slider' }); });
afterAll(async () => { await t?.close(); });

const humanTrack = (x: number): [number, number][] => {
  const n = 25;
  return Array.from({ length: n + 1 }, (_, i) => [i * 24 + (i % 3), Math.round((x * i) / n)] as [number, number]);
};
const pow = (c: { data: { id: string; pow: { bits: number } } }) => solvePow(c.data.id, c.data.pow.bits);
const answerOf = async (id: string) =>
  (await t.ctx.db.kysely.selectFrom('captcha_challenges').select('answer_x').where('id', '=', id).executeTakeFirstOrThrow()).answer_x;

describe('slider captcha', () => {
  it('serves a PNG challenge with a full-height piece strip and a proof-of-work puzzle, no piece row', async () => {
    const r = await call(t, '/captcha/v1/get');
    expect(r.status).toBe('000000');
    expect(r.data).toMatchObject({ width: 300, height: 160, pieceSize: 44, pow: { algorithm: 'sha256', bits: 15 } });
    expect(r.data).not.toHaveProperty('pieceY');
    const size = (k: string) => {
      const png = Buffer.from(r.data[k].replace(/^data:image\/png;base64,/, ''), 'base64');
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      return [png.readUInt32BE(16), png.readUInt32BE(20)];
    };
    expect(size('bg')).toEqual([300, 160]);
    expect(size('piece')).toEqual([44, 160]);
  });

  it('a correct human drag yields a one-time token that smscode accepts once', async () => {
    const c = await call(t, '/captcha/v1/get');
    const x = await answerOf(c.data.id);
    const ok = await call(t, '/captcha/v1/check', { id: c.data.id, x: x + 2, track: humanTrack(x + 2), pow: pow(c) });
    expect(ok.status).toBe('000000');
    const token = ok.data.NECaptchaValidate;
    const mobile = newMobile();
    expect((await call(t, '/api/user/v1/smscode', { mobile, type: '1', NECaptchaValidate: token })).status).toBe('000000');
    t.clock.t += 61_000;
    expect((await call(t, '/api/user/v1/smscode', { mobile, type: '1', NECaptchaValidate: token })).status).toBe('1007');
  });

  it('a wrong offset fails, and the challenge cannot be retried', async () => {
    const c = await call(t, '/captcha/v1/get');
    const x = await answerOf(c.data.id);
    const wrong = x > 150 ? x - 30 : x + 30;
    const r = await call(t, '/captcha/v1/check', { id: c.data.id, x: wrong, track: humanTrack(wrong), pow: pow(c) }, { lang: 'en' });
    expect(r).toMatchObject({ status: '1007', message: 'verification failed, please try again' });
    const retry = await call(t, '/captcha/v1/check', { id: c.data.id, x, track: humanTrack(x), pow: pow(c) });
    expect(retry.status).toBe('1007');
  });

  it('rejects a drag that is too fast, too short or ends elsewhere', async () => {
    for (const mk of [
      (x: number) => [[0, 0], [50, x / 2], [100, x]],
      (x: number) => [[0, x]],
      (x: number) => humanTrack(x + 40),
      (x: number) => [[0, 0], [300, x / 2], [200, x]],
    ] as ((x: number) => [number, number][])[]) {
      const c = await call(t, '/captcha/v1/get');
      const x = await answerOf(c.data.id);
      expect((await call(t, '/captcha/v1/check', { id: c.data.id, x, track: mk(x), pow: pow(c) })).status).toBe('1007');
    }
  });

  it('an expired challenge fails', async () => {
    const c = await call(t, '/captcha/v1/get');
    const x = await answerOf(c.data.id);
    t.clock.t += 2 * 60_000 + 1;
    expect((await call(t, '/captcha/v1/check', { id: c.data.id, x, track: humanTrack(x), pow: pow(c) })).status).toBe('1007');
  });

  it('a solved challenge is single-use', async () => {
    const c = await call(t, '/captcha/v1/get');
    const x = await answerOf(c.data.id);
    const body = { id: c.data.id, x, track: humanTrack(x), pow: pow(c) };
    expect((await call(t, '/captcha/v1/check', body)).status).toBe('000000');
    expect(await call(t, '/captcha/v1/check', body, { lang: 'en' })).toMatchObject({ status: '1007', message: 'verification failed, please try again' });
  });

  it('refuses a missing or wrong proof of work without using up the challenge', async () => {
    const c = await call(t, '/captcha/v1/get');
    const x = await answerOf(c.data.id);
    const bits = c.data.pow.bits as number;
    // A nonce that is work for fewer bits than asked (found by search, checked with the hash).
    let weak = 0;
    const zeros = (n: number) => leadingZeroBits(crypto.createHash('sha256').update(`${c.data.id}:${n}`).digest());
    while (zeros(weak) < 4 || zeros(weak) >= bits) weak++;
    const refusal = { status: '1007', message: 'the security check (proof of work) is missing or wrong, please try again' };
    for (const p of [undefined, '', 'abc', '-1', String(weak), pow({ data: { id: 'another', pow: { bits } } })]) {
      expect(await call(t, '/captcha/v1/check', { id: c.data.id, x, track: humanTrack(x), pow: p }, { lang: 'en' })).toMatchObject(refusal);
    }
    const zh = await call(t, '/captcha/v1/check', { id: c.data.id, x, track: humanTrack(x) });
    expect(zh).toMatchObject({ status: '1007', message: '安全校验未完成，请重试' });
    expect((await call(t, '/captcha/v1/check', { id: c.data.id, x, track: humanTrack(x), pow: pow(c) })).status).toBe('000000');
  });

  it('the work grows with CAPTCHA_POW_BITS', async () => {
    const ids = Array.from({ length: 24 }, (_, i) => `challenge-${i}`);
    const tries = (bits: number) => ids.reduce((s, id) => s + Number(solvePow(id, bits)) + 1, 0) / ids.length;
    // Expected 2^bits tries each: ~16 at 4 bits, ~1024 at 10.
    const easy = tries(4), hard = tries(10);
    expect(hard).toBeGreaterThan(easy * 8);
    const t2 = await makeApp({}, { CAPTCHA_PROVIDER: 'slider', CAPTCHA_POW_BITS: '18' });
    try {
      const c = await call(t2, '/captcha/v1/get');
      expect(c.data.pow).toEqual({ algorithm: 'sha256', bits: 18 });
      // Work for the default 15 bits is not enough at 18 (unless it happens to reach 18).
      const n = solvePow(c.data.id, 15);
      const enough = leadingZeroBits(crypto.createHash('sha256').update(`${c.data.id}:${n}`).digest()) >= 18;
      const x = (await t2.ctx.db.kysely.selectFrom('captcha_challenges').select('answer_x').where('id', '=', c.data.id).executeTakeFirstOrThrow()).answer_x;
      expect((await call(t2, '/captcha/v1/check', { id: c.data.id, x, track: humanTrack(x), pow: n })).status).toBe(enough ? '000000' : '1007');
    } finally {
      await t2.close();
    }
  });

  it('the dev token endpoint does not exist under the slider provider', async () => {
    const r = await t.app.inject({ method: 'POST', url: `${API}/dev/captcha-token` });
    expect(r.statusCode).toBe(404);
    expect(r.json().status).toBe('1404');
  });
});
