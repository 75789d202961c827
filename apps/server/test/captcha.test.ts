import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, call, makeApp, newMobile, type TestApp } from './helpers.ts';

/** The self-hosted slider: challenge image, one attempt per challenge, offset and drag timing checked server-side. */
let t: TestApp;
beforeAll(async () => { t = await makeApp({}, { CAPTCHA_PROVIDER: 'slider' }); });
afterAll(async () => { await t?.close(); });

const humanTrack = (x: number): [number, number][] => {
  const n = 25;
  return Array.from({ length: n + 1 }, (_, i) => [i * 24 + (i % 3), Math.round((x * i) / n)] as [number, number]);
};
const answerOf = async (id: string) =>
  (await t.ctx.db.kysely.selectFrom('captcha_challenges').select('answer_x').where('id', '=', id).executeTakeFirstOrThrow()).answer_x;

describe('slider captcha', () => {
  it('serves a PNG challenge with a piece', async () => {
    const r = await call(t, '/captcha/v1/get');
    expect(r.status).toBe('000000');
    expect(r.data).toMatchObject({ width: 300, height: 160, pieceSize: 44 });
    for (const k of ['bg', 'piece']) {
      const png = Buffer.from(r.data[k].replace(/^data:image\/png;base64,/, ''), 'base64');
      expect(png.subarray(1, 4).toString()).toBe('PNG');
    }
    expect(r.data.pieceY).toBeGreaterThanOrEqual(0);
    expect(r.data.pieceY).toBeLessThanOrEqual(160 - 44);
  });

  it('a correct human drag yields a one-time token that smscode accepts once', async () => {
    const c = await call(t, '/captcha/v1/get');
    const x = await answerOf(c.data.id);
    const ok = await call(t, '/captcha/v1/check', { id: c.data.id, x: x + 2, track: humanTrack(x + 2) });
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
    const r = await call(t, '/captcha/v1/check', { id: c.data.id, x: wrong, track: humanTrack(wrong) }, { lang: 'en' });
    expect(r).toMatchObject({ status: '1007', message: 'verification failed, please try again' });
    const retry = await call(t, '/captcha/v1/check', { id: c.data.id, x, track: humanTrack(x) });
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
      expect((await call(t, '/captcha/v1/check', { id: c.data.id, x, track: mk(x) })).status).toBe('1007');
    }
  });

  it('an expired challenge fails', async () => {
    const c = await call(t, '/captcha/v1/get');
    const x = await answerOf(c.data.id);
    t.clock.t += 2 * 60_000 + 1;
    expect((await call(t, '/captcha/v1/check', { id: c.data.id, x, track: humanTrack(x) })).status).toBe('1007');
  });

  it('the dev token endpoint does not exist under the slider provider', async () => {
    const r = await t.app.inject({ method: 'POST', url: `${API}/dev/captcha-token` });
    expect(r.statusCode).toBe(404);
    expect(r.json().status).toBe('1404');
  });
});
