import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, makeApp, register, type TestApp } from './helpers.ts';

/**
 * Property: whatever arrives — malformed JSON, wrong types, huge strings, missing or odd
 * headers — every API endpoint answers the envelope and never a 5xx.
 */
let t: TestApp;
let token = '';
beforeAll(async () => {
  t = await makeApp();
  token = (await register(t)).token;
});
afterAll(async () => { await t?.close(); });

const endpoints = (() => {
  const routes: string[] = [];
  return routes;
})();

const anyJson = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(fc.constantFrom('mobile', 'pwd', 'type', 'loginType', 'smsCode', 'smscode', 'token', 'newPwd', 'NECaptchaValidate', 'inviteCode', 'registChannel', 'id', 'nickname', 'x', 'track', 'walletAddress', 'code'),
    fc.oneof(fc.string({ maxLength: 40 }), fc.string({ minLength: 5000, maxLength: 20000 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.anything(), { maxLength: 4 }), fc.object())),
);
const rawBody = fc.oneof(
  anyJson.map((v) => JSON.stringify(v) ?? 'null'),
  fc.string({ maxLength: 200 }),
  fc.constantFrom('', '{', '{"mobile":', 'null', '[]', '"x"', '\u0000', '{"__proto__":{"admin":true}}'),
);

describe('fuzz: every endpoint answers the envelope, never a 5xx', () => {
  it('collects the API routes', () => {
    for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
      const m = /(\/mvapi\/public\S*) \((.*)\)/.exec(line.replace(/^[\s│├└─]+/, ''));
      if (m && !m[1]!.includes(':')) for (const method of m[2]!.split(', ')) if (method !== 'HEAD') endpoints.push(`${method} ${m[1]}`);
    }
    expect(endpoints.length).toBeGreaterThanOrEqual(15);
  });

  it('random bodies, content types and headers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 10_000 }),
        rawBody,
        fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', undefined, 'application/json; charset=utf-8'),
        fc.constantFrom<string | undefined>(undefined, 'garbage', '', 'valid'),
        fc.constantFrom<string | undefined>(undefined, 'en', 'zh', 'fr'),
        async (i, payload, contentType, tok, lang) => {
          const [method, url] = endpoints[i % endpoints.length]!.split(' ') as ['GET' | 'POST', string];
          const headers: Record<string, string> = {};
          if (contentType) headers['content-type'] = contentType;
          if (tok !== undefined) headers.token = tok === 'valid' ? token : tok;
          if (lang) headers.lang = lang;
          const res = await t.app.inject({ method, url: method === 'GET' ? `${url}?mobile=${encodeURIComponent(payload.slice(0, 30))}` : url, headers, payload: method === 'POST' ? payload : undefined });
          expect(res.statusCode, `${method} ${url} ${payload.slice(0, 80)}`).toBeLessThan(500);
          const body = res.json();
          expect(typeof body.status).toBe('string');
          expect(body).toHaveProperty('message');
          expect(body).toHaveProperty('msg');
          expect(body).toHaveProperty('data');
          expect(body).toHaveProperty('code');
        },
      ),
      { numRuns: 600 },
    );
  });

  it('a body over the size limit answers 413 in the envelope', async () => {
    const res = await t.app.inject({ method: 'POST', url: `${API}/api/user/v1/login`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ mobile: 'x'.repeat(300_000) }) });
    expect(res.statusCode).toBe(413);
    expect(res.json().status).toBe('1001');
  });
});
