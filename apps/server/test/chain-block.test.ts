import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IpRateLimit } from '../src/modules/chain/ip-rate-limit.ts';
import { API, makeApp, type TestApp } from './helpers.ts';

/**
 * The public block look-up of the proof pages, GET /chain/v1/block?epoch= (docs/api.md "Chain"):
 * strict parameters (a decimal epoch, nothing else), a per-IP limit answered with HTTP 429 and
 * status 1006 in the envelope, never a 500, and no way to write: the dev wallet's JSON-RPC proxy
 * (the only route that forwards a transaction) exists only on the embedded chain with DEV_MODE=1.
 * The block itself, from a real node, is checked in chain-pace.chain.test.ts.
 */
describe('GET /chain/v1/block', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp({}, { CHAIN_BLOCK_QUERIES_PER_MIN: '3' });
    t.cacheClock.freeze();
  });
  afterAll(() => t?.close());

  const get = (query: string, ip = '10.1.0.1', lang = 'en') => t.app.inject({ method: 'GET', url: `${API}/chain/v1/block${query}`, headers: { lang }, remoteAddress: ip });

  it('refuses malformed epochs with 1001 in the envelope', async () => {
    for (const q of ['', '?epoch=', '?epoch=abc', '?epoch=-1', '?epoch=0x10', '?epoch=1.5', '?epoch=1e3', '?epoch=1234567890123456', '?epoch=12&epoch=13', '?epoch=%20%31']) {
      const r = await get(q, '10.1.0.9');
      expect(r.statusCode, q).toBe(400);
      expect(r.json(), q).toMatchObject({ status: '1001', data: null, message: 'invalid request parameters' });
    }
  });

  it('answers 1018 without a chain (never a 500)', async () => {
    const r = await get('?epoch=12', '10.1.0.2', 'zh');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ status: '1018', data: null, message: '链服务暂不可用，请稍后再试' });
  });

  it('limits each client IP per minute: HTTP 429, status 1006, Retry-After; other IPs unaffected; the window resets', async () => {
    for (let i = 0; i < 3; i++) expect((await get(`?epoch=${i}`, '10.1.0.3')).statusCode).toBe(200);
    const over = await get('?epoch=4', '10.1.0.3');
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ status: '1006', data: null, message: 'too many block requests, please try again in 60 seconds' });
    expect(over.headers['retry-after']).toBe('60');
    const zh = await get('?epoch=4', '10.1.0.3', 'zh');
    expect(zh.json().message).toBe('区块查询过于频繁，请60秒后再试');
    expect((await get('?epoch=4', '10.1.0.4')).statusCode).toBe(200);
    t.cacheClock.advance(30_000);
    expect((await get('?epoch=4', '10.1.0.3')).json().message).toBe('too many block requests, please try again in 30 seconds');
    t.cacheClock.advance(30_000);
    expect((await get('?epoch=4', '10.1.0.3')).statusCode).toBe(200);
  });

  it('writes nothing: no POST on the block route, no RPC proxy without the embedded dev chain', async () => {
    const post = await t.app.inject({ method: 'POST', url: `${API}/chain/v1/block?epoch=1`, payload: {} });
    expect(post.statusCode).toBe(404);
    expect(post.json().status).toBe('1404');
    for (const method of ['cfx_sendRawTransaction', 'cfx_getBlockByEpochNumber']) {
      const rpc = await t.app.inject({ method: 'POST', url: `${API}/chain/v1/rpc`, payload: { jsonrpc: '2.0', id: 1, method, params: ['0x1', false] } });
      expect(rpc.statusCode, method).toBe(404);
      expect(rpc.json().status, method).toBe('1404');
    }
  });
});

describe('IpRateLimit', () => {
  it('counts per key in fixed windows and forgets old windows when full', () => {
    let now = 0;
    const l = new IpRateLimit(2, 1000, () => now, 4);
    expect([l.take('a'), l.take('a'), l.take('a')]).toEqual([{ ok: true }, { ok: true }, { ok: false, retryAfterS: 1 }]);
    for (const k of ['b', 'c', 'd']) l.take(k);
    now = 1000; // every window is over: a fifth key prunes them instead of growing the map
    expect(l.take('e')).toEqual({ ok: true });
    expect((l as unknown as { windows: Map<string, unknown> }).windows.size).toBe(1);
    // all four current: the oldest half is dropped, the map stays bounded
    for (const k of ['f', 'g', 'h']) l.take(k);
    l.take('i');
    expect((l as unknown as { windows: Map<string, unknown> }).windows.size).toBeLessThanOrEqual(4);
  });
});
