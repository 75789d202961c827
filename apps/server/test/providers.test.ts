import http from 'node:http';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aliyunSms, signAliyunQuery } from '../src/providers/sms/aliyun.ts';
import { yidunCaptcha, yidunSignature } from '../src/providers/captcha/yidun.ts';
import { API, makeApp } from './helpers.ts';

/**
 * The production adapters, exercised against local HTTP servers that check the signatures
 * the way the providers document them (no traffic leaves the machine).
 */
let server: http.Server;
let base = '';
const seen: { url: string; body: string }[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', body });
      const u = new URL(req.url ?? '/', 'http://x');
      if (u.pathname === '/sms') {
        const params = Object.fromEntries([...u.searchParams].filter(([k]) => k !== 'Signature'));
        const expected = new URLSearchParams(signAliyunQuery(params, 'secret')).get('Signature');
        const okSig = expected === u.searchParams.get('Signature');
        res.end(JSON.stringify(okSig && params.PhoneNumbers === '13800138000' ? { Code: 'OK' } : { Code: 'SignatureDoesNotMatch' }));
      } else if (u.pathname === '/yidun') {
        const p = Object.fromEntries(new URLSearchParams(body));
        const { signature, ...rest } = p;
        const good = signature === yidunSignature(rest, 'ysecret') && rest.validate === 'good-token';
        res.end(JSON.stringify({ error: 0, result: good }));
      } else res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('Alibaba Cloud SMS adapter', () => {
  it('signs SendSms with HMAC-SHA1 and passes the code as template parameter', async () => {
    const sms = aliyunSms({ accessKeyId: 'AK', accessKeySecret: 'secret', signName: '数藏', templateCode: 'SMS_1', endpoint: `${base}/sms` });
    await sms.send({ mobile: '13800138000', type: '1', code: '123456' });
    const u = new URL(seen.at(-1)!.url, 'http://x');
    expect(u.searchParams.get('Action')).toBe('SendSms');
    expect(JSON.parse(u.searchParams.get('TemplateParam')!)).toEqual({ code: '123456' });
  });
  it('throws when the provider refuses', async () => {
    const sms = aliyunSms({ accessKeyId: 'AK', accessKeySecret: 'wrong', signName: 's', templateCode: 't', endpoint: `${base}/sms` });
    await expect(sms.send({ mobile: '13800138000', type: '1', code: '1' })).rejects.toThrow(/SignatureDoesNotMatch/);
  });
  it('notices: one outcome each, in order — sent, skipped without a template, the error of a refused one', async () => {
    const sms = aliyunSms({ accessKeyId: 'AK', accessKeySecret: 'secret', signName: '数藏', templateCode: 'SMS_1', endpoint: `${base}/sms`, noticeTemplates: { sold: 'SMS_SOLD' } });
    const notice = (mobile: string, template: string, messageId: number) => ({ mobile, userId: 1, messageId, template, params: { name: 'a' }, text: 'x' });
    const before = seen.length;
    const out = await sms.notify([notice('13800138000', 'sold', 7), notice('13800138000', 'bid_received', 8), notice('13900139000', 'sold', 9)]);
    expect(out[0]).toBe('sent');
    expect(out[1]).toBe('skipped');
    expect(out[2]).toBeInstanceOf(Error);
    expect(String(out[2])).toMatch(/SignatureDoesNotMatch/);
    // Two SendSms calls (none for the notice without a template), each with its template and message id.
    const calls = seen.slice(before).map((x) => new URL(x.url, 'http://x').searchParams);
    expect(calls.map((c) => [c.get('TemplateCode'), c.get('OutId')])).toEqual([['SMS_SOLD', 'msg7'], ['SMS_SOLD', 'msg9']]);
  });
  it('signature matches the documented algorithm', () => {
    const q = signAliyunQuery({ B: '2', A: '1 *~' }, 'k');
    const sig = crypto.createHmac('sha1', 'k&').update('GET&%2F&' + encodeURIComponent('A=1%20%2A~&B=2')).digest('base64');
    expect(new URLSearchParams(q).get('Signature')).toBe(sig);
  });
});

describe('NetEase Yidun captcha adapter', () => {
  it('verifies server-side with a signed request', async () => {
    const y = yidunCaptcha({ captchaId: 'cid', secretId: 'sid', secretKey: 'ysecret', endpoint: `${base}/yidun` });
    expect(await y.verify('good-token')).toBe(true);
    expect(await y.verify('bad-token')).toBe(false);
    const p = Object.fromEntries(new URLSearchParams(seen.at(-1)!.body));
    expect(p).toMatchObject({ captchaId: 'cid', secretId: 'sid', version: 'v2' });
  });
  it('fails closed when the service is unreachable', async () => {
    const y = yidunCaptcha({ captchaId: 'c', secretId: 's', secretKey: 'k', endpoint: 'http://127.0.0.1:1/verify' });
    expect(await y.verify('x')).toBe(false);
  });
  it('the app wires yidun when configured and then offers no slider endpoints', async () => {
    const t = await makeApp({}, { CAPTCHA_PROVIDER: 'yidun', YIDUN_CAPTCHA_ID: 'c', YIDUN_SECRET_ID: 's', YIDUN_SECRET_KEY: 'k', YIDUN_ENDPOINT: `${base}/yidun` });
    try {
      expect(t.ctx.captcha.name).toBe('yidun');
      const r = await t.app.inject({ method: 'POST', url: `${API}/captcha/v1/get` });
      expect(r.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe('sandbox-only endpoints', () => {
  it('the SMS outbox is not served with a production SMS provider', async () => {
    const t = await makeApp({}, { SMS_PROVIDER: 'aliyun', ALIYUN_SMS_ACCESS_KEY_ID: 'a', ALIYUN_SMS_ACCESS_KEY_SECRET: 'b', ALIYUN_SMS_SIGN_NAME: 'c', ALIYUN_SMS_TEMPLATE_CODE: 'd' });
    try {
      const r = await t.app.inject({ method: 'GET', url: `${API}/dev/sms-outbox?mobile=13800138000` });
      expect(r.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
