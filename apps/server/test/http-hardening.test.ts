import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { buildApp, type App } from '../src/app.ts';
import { API, makeApp, type TestApp } from './helpers.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Issue #9: security headers, secrets masked in logs, dev routes out of the docs, every error an envelope. */
let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(async () => {
  await t?.close();
});

describe('security headers', () => {
  it('CSP: the JSON API allows no inline script; a page that renders one gets a per-response nonce; frame-ancestors none, nosniff, referrer policy; no HSTS over plain http', async () => {
    const a = await t.app.inject({ method: 'GET', url: `${API}/chain/v1/info` });
    const csp = String(a.headers['content-security-policy']);
    // An API answer never carries a nonce: nothing inline may run in it.
    expect(csp).toMatch(/script-src 'self' 'wasm-unsafe-eval'(;|$)/);
    expect(csp).not.toContain('nonce-');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    // WebAssembly may compile (the 3D viewer's decoder); JS eval may not
    expect(csp).toMatch(/script-src[^;]*'wasm-unsafe-eval'/);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-eval'/);
    expect(a.headers['x-content-type-options']).toBe('nosniff');
    expect(a.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(a.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(a.headers['x-powered-by']).toBeUndefined();
    expect(a.headers['strict-transport-security']).toBeUndefined();
    // The sandbox cashier renders an inline script: each response has its own nonce in its CSP.
    const page = () => t.app.inject({ method: 'GET', url: `${API}/payment/sandbox/cashier?t=${'x'.repeat(24)}` });
    const [p1, p2] = [await page(), await page()];
    const nonceOf = (h: unknown) => /script-src 'self' 'nonce-([A-Za-z0-9+/=]{20,})' 'wasm-unsafe-eval'/.exec(String(h))?.[1];
    const [n1, n2] = [nonceOf(p1.headers['content-security-policy']), nonceOf(p2.headers['content-security-policy'])];
    expect(n1).toBeTruthy();
    expect(n2).toBeTruthy();
    expect(n1).not.toBe(n2);
    expect(String(p1.headers['content-security-policy']).replace(n1!, '')).toBe(String(p2.headers['content-security-policy']).replace(n2!, ''));
  });

  it('HSTS behind a trusted TLS proxy', async () => {
    const p = await makeApp({}, { TRUST_PROXY: '1' });
    try {
      const r = await p.app.inject({ method: 'GET', url: `${API}/chain/v1/info`, headers: { 'x-forwarded-proto': 'https' } });
      expect(r.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    } finally {
      await p.close();
    }
  });

});

describe('logs and docs', () => {
  it('masks the cashier ticket, tokens and phone numbers in request logs', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-log-'));
    const config = loadConfig({ DEV_MODE: '1', CAPTCHA_PROVIDER: 'test', CHAIN: 'off', DEMO_DATA: '0', LOG_LEVEL: 'info' }, { dataDir: dir, serveWeb: false });
    let a: App | undefined;
    try {
      a = await buildApp(config, { logStream: stream });
      const ticket = 'SECRETTICKET1234567890';
      await a.app.inject({ method: 'GET', url: `${API}/payment/sandbox/cashier?t=${ticket}&x=1` });
      await a.app.inject({ method: 'GET', url: `${API}/dev/sms-outbox?mobile=13812345678&token=abcdef123456` });
      const log = lines.join('');
      expect(log).toContain('/payment/sandbox/cashier?t=***&x=1');
      expect(log).not.toContain(ticket);
      expect(log).not.toContain('13812345678');
      expect(log).not.toContain('abcdef123456');
    } finally {
      await a?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('dev and sandbox routes are hidden from /mvapi/docs', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/mvapi/docs/json' });
    expect(r.statusCode).toBe(200);
    const paths = Object.keys(r.json().paths);
    expect(paths.length).toBeGreaterThan(20);
    expect(paths.filter((p) => p.includes('/dev/') || p.includes('/sandbox/'))).toEqual([]);
  });
});

describe('every error answers the envelope', () => {
  const raw = (method: string, url: string, payload?: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: method as 'POST', url, payload, headers: { channel: 'pc', ...headers } });
  const cases: [string, () => ReturnType<typeof raw>, number][] = [
    ['malformed JSON', () => raw('POST', `${API}/api/user/v1/login`, '{"mobile":', { 'content-type': 'application/json' }), 400],
    ['unsupported content type', () => raw('POST', `${API}/api/user/v1/login`, 'mobile=1', { 'content-type': 'text/csv' }), 415],
    ['body too large', () => raw('POST', `${API}/api/user/v1/login`, JSON.stringify({ x: 'x'.repeat(300 * 1024) }), { 'content-type': 'application/json' }), 413],
    ['unknown API path', () => raw('GET', `${API}/no/such/thing`), 404],
    ['wrong method on an API path', () => raw('DELETE', `${API}/api/user/v1/login`), 404],
    ['malformed percent-encoding', () => raw('GET', `${API}/goods/v1/details/%E0%A4%A?id=%`), 400],
  ];
  for (const [name, send, http] of cases) {
    it(`${name} → ${http} with status and message`, async () => {
      const r = await send();
      expect(r.statusCode).toBe(http);
      const b = r.json();
      expect(typeof b.status).toBe('string');
      expect(b.status).toMatch(/^\d{4,6}$/);
      expect(typeof b.message).toBe('string');
      expect(b.message.length).toBeGreaterThan(0);
    });
  }
});
