import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { yeepayPayout } from '../src/providers/payout/yeepay.ts';
import type { PayoutProvider, QuickPayCard } from '../src/providers/payout/types.ts';

/**
 * The YeePay adapter's quick payment (快捷支付) against a local YOP server in this test: a real HTTP
 * server with real RSA keys that checks every request's YOP-RSA2048-SHA256 signature (rebuilt here from
 * the request as received, independently of yop-sign.ts) and its content hash, keeps the charges, the
 * SMS codes and the card agreement, and signs each answer (`x-yop-sign` over `result`) with the platform
 * key; notifies are YOP digital envelopes (RSA-encrypted AES key, platform-signed content).
 */
const platform = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const merchant = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (k: crypto.KeyObject, type: 'pkcs8' | 'spki') => k.export({ type, format: 'pem' }).toString();
const enc = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

interface Charge { orderId: string; amount: string; token: string; uniqueOrderNo: string; notifyUrl: string; status: 'PROCESSING' | 'SUCCESS'; code?: string; bindId?: string }
const yop = {
  charges: new Map<string, Charge>(),
  flows: new Map<string, { code: string; card: Record<string, string> }>(),
  refunds: new Map<string, { uniqueRefundNo: string; amount: string }>(),
  calls: [] as { path: string; params: Record<string, string> }[],
  rejected: 0,
};
let server: http.Server;
let gateway = '';

/** The server side of the YOP RSA signature: the canonical request rebuilt from what arrived. */
function verifyRequest(req: http.IncomingMessage, path: string, query: string, body: string): boolean {
  const auth = String(req.headers.authorization ?? '');
  const m = /^YOP-RSA2048-SHA256 (yop-auth-v3\/([^/]+)\/[^/]+\/\d+)\/([a-z0-9;-]+)\/([A-Za-z0-9_-]+)\$SHA256$/.exec(auth);
  if (!m || m[2] !== 'app_test') return false;
  const [, authString, , signedHeaders, sig] = m;
  const params = Object.fromEntries(new URLSearchParams(req.method === 'GET' ? query : body));
  const canon = Object.keys(params).map((k) => `${enc(k)}=${enc(params[k]!)}`).sort().join('&');
  const hash = crypto.createHash('sha256').update(req.method === 'POST' ? canon : '').digest('hex');
  if (req.headers['x-yop-content-sha256'] !== hash) return false;
  const headers = signedHeaders!.split(';').map((h) => `${enc(h)}:${enc(String(req.headers[h] ?? '').trim())}`).join('\n');
  const canonical = [authString, req.method, path, req.method === 'GET' ? canon : '', headers].join('\n');
  return crypto.createVerify('RSA-SHA256').update(canonical).verify(platformSide.merchantPublic, Buffer.from(sig!, 'base64url'));
}
const platformSide = { merchantPublic: merchant.publicKey };

function answer(res: http.ServerResponse, result: Record<string, unknown>) {
  const sign = `${crypto.createSign('RSA-SHA256').update(JSON.stringify(result)).sign(platform.privateKey).toString('base64url')}$SHA256`;
  res.writeHead(200, { 'content-type': 'application/json', 'x-yop-sign': sign }).end(JSON.stringify({ result }));
}

function handle(path: string, p: Record<string, string>): Record<string, unknown> {
  const byToken = (token: string) => [...yop.charges.values()].find((c) => c.token === token);
  switch (path) {
    case '/rest/v1.0/trade/order': {
      const c: Charge = { orderId: p.orderId!, amount: p.orderAmount!, token: `TK${crypto.randomBytes(4).toString('hex')}`, uniqueOrderNo: `YB${crypto.randomBytes(4).toString('hex')}`, notifyUrl: p.notifyUrl!, status: 'PROCESSING' };
      yop.charges.set(c.orderId, c);
      return { code: 'OPR00000', token: c.token, uniqueOrderNo: c.uniqueOrderNo, orderId: c.orderId };
    }
    case '/rest/v1.0/frontcashier/bindcard/request':
      if (!p.bankCardNo || !p.userName || !p.idCardNo || !p.phone) return { code: 'NOP00011', message: '要素不全' };
      yop.flows.set(p.merchantFlowId!, { code: '246810', card: p });
      return { code: 'NOP00000', merchantFlowId: p.merchantFlowId };
    case '/rest/v1.0/frontcashier/bindcard/confirm': {
      const f = yop.flows.get(p.merchantFlowId!);
      if (!f || f.code !== p.smsCode) return { code: 'NOP00105', message: '短信验证码错误' };
      return { code: 'NOP00000', bindId: 'BID42', bindStatus: 'SUCCESS' };
    }
    case '/rest/v1.0/frontcashier/bindpay/request': {
      const c = byToken(p.token!);
      if (!c || p.bindId !== 'BID42') return { code: 'CAS00201', message: '绑卡ID无效' };
      c.bindId = p.bindId;
      // A card whose agreement was signed by this very payment's code pays at once (协议支付).
      if (yop.flows.has(c.orderId)) c.status = 'SUCCESS';
      return { code: 'CAS00000' };
    }
    case '/rest/v1.0/frontcashier/bindpay/sendsms': {
      const c = byToken(p.token!);
      if (!c || !c.bindId) return { code: 'CAS00202', message: '订单状态异常' };
      c.code = String(100000 + (yop.calls.length % 900000));
      return { code: 'CAS00000' };
    }
    case '/rest/v1.0/frontcashier/bindpay/confirm': {
      const c = byToken(p.token!);
      if (!c || !c.code) return { code: 'CAS00202', message: '订单状态异常' };
      if (c.code !== p.verifyCode) return { code: 'CAS00105', message: '短信验证码错误' };
      c.status = 'SUCCESS';
      return { code: 'CAS00000' };
    }
    case '/rest/v1.0/trade/order/query': {
      const c = yop.charges.get(p.orderId!);
      return c ? { code: 'OPR00000', orderId: c.orderId, uniqueOrderNo: c.uniqueOrderNo, orderAmount: c.amount, status: c.status } : { code: 'OPR00404', message: '订单不存在' };
    }
    case '/rest/v1.0/trade/refund': {
      const c = yop.charges.get(p.orderId!);
      if (!c || c.status !== 'SUCCESS' || c.uniqueOrderNo !== p.uniqueOrderNo || Number(p.refundAmount) > Number(c.amount)) return { code: 'OPR00500', message: '退款金额超过可退金额' };
      const r = yop.refunds.get(p.refundRequestId!) ?? { uniqueRefundNo: `YR${crypto.randomBytes(4).toString('hex')}`, amount: p.refundAmount! };
      yop.refunds.set(p.refundRequestId!, r);
      return { code: 'OPR00000', status: 'PROCESSING', refundRequestId: p.refundRequestId, uniqueRefundNo: r.uniqueRefundNo };
    }
    case '/rest/v1.0/trade/refund/query': {
      const r = yop.refunds.get(p.refundRequestId!);
      return r ? { code: 'OPR00000', status: 'SUCCESS', refundRequestId: p.refundRequestId, uniqueRefundNo: r.uniqueRefundNo } : { code: 'OPR00404', message: '退款不存在' };
    }
    default:
      return { code: '40044', message: 'unknown api' };
  }
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (!verifyRequest(req, url.pathname, url.search.slice(1), body)) {
        yop.rejected++;
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ result: { code: '40029', message: 'isv.service.signature.invalid' } }));
        return;
      }
      const params = Object.fromEntries(new URLSearchParams(req.method === 'GET' ? url.search : body));
      yop.calls.push({ path: url.pathname, params });
      answer(res, handle(url.pathname, params));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  gateway = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

/** A YOP digital envelope as the platform posts it (`response` parameter). */
function envelope(json: string, signer = platform.privateKey) {
  const aes = crypto.randomBytes(16);
  const sig = crypto.createSign('RSA-SHA256').update(json).sign(signer).toString('base64url');
  const c = crypto.createCipheriv('aes-128-ecb', aes, null);
  const data = Buffer.concat([c.update(`${json}$${sig}`, 'utf8'), c.final()]).toString('base64url');
  const key = crypto.publicEncrypt({ key: merchant.publicKey, padding: crypto.constants.RSA_PKCS1_PADDING }, aes).toString('base64url');
  return `${key}$${data}$AES$SHA256`;
}

const card = (quickBindId: string | null): QuickPayCard => ({ cardNo: '6222020200112233446', bankCode: 'ICBC', last4: '3446', mobile: '13800138000', name: '张三', idNumber: '11010119900101123X', userNo: '7', quickBindId });
const adapter = (privateKey = pem(merchant.privateKey, 'pkcs8')): PayoutProvider =>
  yeepayPayout({ appKey: 'app_test', privateKey, platformPublicKey: pem(platform.publicKey, 'spki'), parentMerchantNo: '10080000001', gateway });
const now = Date.parse('2026-01-01T08:00:00Z');

describe('YeePay quick payment over YOP (local server, real keys)', () => {
  it("a card's first payment signs its agreement with the SMS code, then pays; query, notify and refund", async () => {
    const y = adapter();
    const started = await y.startQuickPay({ payNo: 'CP1', orderNo: 'NO1', amountFen: 12_345, subject: '藏品 #1', expiresAt: now + 300_000, card: card(null), userIp: '203.0.113.5', notifyUrl: 'https://shop.test/mvapi/notify/card/yeepay', now });
    expect(started).toMatchObject({ accepted: true });
    const order = yop.calls.find((c) => c.path === '/rest/v1.0/trade/order')!.params;
    expect(order).toMatchObject({ orderId: 'CP1', orderAmount: '123.45', parentMerchantNo: '10080000001', notifyUrl: 'https://shop.test/mvapi/notify/card/yeepay', expiredTime: '2026-01-01 16:05:00', memo: 'NO1' });
    expect(yop.flows.get('CP1')!.card).toMatchObject({ bankCardNo: '6222020200112233446', userName: '张三', idCardNo: '11010119900101123X', phone: '13800138000', userNo: '7' });
    const ref = (started as { ref: string }).ref;
    // the agreement SMS has no resend call: the buyer starts again
    expect(await y.resendQuickPaySms({ payNo: 'CP1', ref, card: card(null), now })).toBe(false);
    expect(await y.confirmQuickPay({ payNo: 'CP1', ref, smsCode: '000000', card: card(null), userIp: '203.0.113.5', now })).toEqual({ status: 'bad_code' });
    expect(await y.queryQuickPay('CP1')).toBeNull(); // not paid
    const ok = await y.confirmQuickPay({ payNo: 'CP1', ref, smsCode: '246810', card: card(null), userIp: '203.0.113.5', now });
    const charge = yop.charges.get('CP1')!;
    expect(ok).toEqual({ status: 'processing', tradeNo: charge.uniqueOrderNo, quickBindId: 'BID42' });
    expect(yop.calls.find((c) => c.path === '/rest/v1.0/frontcashier/bindpay/request')!.params).toMatchObject({ token: charge.token, bindId: 'BID42', userNo: '7', userType: 'USER_ID', userIp: '203.0.113.5' });
    expect(await y.queryQuickPay('CP1')).toMatchObject({ payNo: 'CP1', tradeNo: charge.uniqueOrderNo, amountFen: 12_345, paid: true });

    // the platform's notify: verified envelope → the trade; another signer, garbage, or a withdrawal notify → nothing
    const json = JSON.stringify({ orderId: 'CP1', uniqueOrderNo: charge.uniqueOrderNo, orderAmount: '123.45', payAmount: '123.45', status: 'SUCCESS', parentMerchantNo: '10080000001' });
    expect(y.verifyQuickPayNotify({ response: envelope(json) })).toMatchObject({ payNo: 'CP1', tradeNo: charge.uniqueOrderNo, amountFen: 12_345, paid: true });
    expect(y.verifyQuickPayNotify({ response: envelope(json, merchant.privateKey) })).toBeNull();
    expect(y.verifyQuickPayNotify({ response: 'AAAA$BBBB' })).toBeNull();
    expect(y.verifyQuickPayNotify({ response: envelope(JSON.stringify({ requestNo: 'WD1', orderNo: 'YB9', status: 'SUCCESS' })) })).toBeNull();

    // refund to the card: accepted, then done by query and by its notify
    const refund = await y.refundQuickPay({ payNo: 'CP1', tradeNo: charge.uniqueOrderNo, refundNo: 'RF1', amountFen: 12_345, notifyUrl: 'https://shop.test/mvapi/notify/card/refund/yeepay', now });
    expect(refund).toMatchObject({ status: 'processing', refundTradeNo: expect.stringMatching(/^YR/) });
    expect(yop.calls.at(-1)!.params).toMatchObject({ orderId: 'CP1', uniqueOrderNo: charge.uniqueOrderNo, refundRequestId: 'RF1', refundAmount: '123.45' });
    expect(await y.queryQuickPayRefund({ payNo: 'CP1', tradeNo: charge.uniqueOrderNo, refundNo: 'RF1' })).toMatchObject({ status: 'succeeded' });
    const tooMuch = await y.refundQuickPay({ payNo: 'CP1', tradeNo: charge.uniqueOrderNo, refundNo: 'RF2', amountFen: 99_999, notifyUrl: 'x', now });
    expect(tooMuch).toMatchObject({ status: 'failed', reason: '退款金额超过可退金额' });
    const rn = JSON.stringify({ refundRequestId: 'RF1', uniqueRefundNo: 'YR1', status: 'SUCCESS', orderId: 'CP1' });
    expect(y.verifyQuickPayRefundNotify({ response: envelope(rn) })).toEqual({ refundNo: 'RF1', refundTradeNo: 'YR1', status: 'succeeded', reason: null });
    expect(y.verifyQuickPayRefundNotify({ response: envelope(rn, merchant.privateKey) })).toBeNull();
  });

  it('a card with an agreement pays with the payment SMS (sent again on request)', async () => {
    const y = adapter();
    const started = await y.startQuickPay({ payNo: 'CP2', orderNo: 'NO2', amountFen: 500, subject: 'x', expiresAt: now + 300_000, card: card('BID42'), userIp: '203.0.113.5', notifyUrl: 'n', now });
    expect(started).toMatchObject({ accepted: true });
    expect(yop.calls.map((c) => c.path).slice(-3)).toEqual(['/rest/v1.0/trade/order', '/rest/v1.0/frontcashier/bindpay/request', '/rest/v1.0/frontcashier/bindpay/sendsms']);
    const ref = (started as { ref: string }).ref;
    expect(await y.resendQuickPaySms({ payNo: 'CP2', ref, card: card('BID42'), now })).toBe(true);
    const charge = yop.charges.get('CP2')!;
    expect(await y.confirmQuickPay({ payNo: 'CP2', ref, smsCode: 'nope', card: card('BID42'), userIp: '203.0.113.5', now })).toEqual({ status: 'bad_code' });
    expect(await y.confirmQuickPay({ payNo: 'CP2', ref, smsCode: charge.code!, card: card('BID42'), userIp: '203.0.113.5', now })).toEqual({ status: 'processing', tradeNo: charge.uniqueOrderNo, quickBindId: 'BID42' });
    expect(await y.queryQuickPay('CP2')).toMatchObject({ amountFen: 500, paid: true });
    // an unknown agreement is refused by the platform: nothing accepted
    expect(await y.startQuickPay({ payNo: 'CP3', orderNo: 'NO3', amountFen: 500, subject: 'x', expiresAt: now + 300_000, card: card('BIDX'), userIp: '1.1.1.1', notifyUrl: 'n', now })).toEqual({ accepted: false, reason: '绑卡ID无效' });
  });

  it('requests signed with another key are refused by the server, and the adapter decides nothing on an unsigned answer', async () => {
    const before = yop.rejected;
    const stranger = adapter(pem(crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, 'pkcs8'));
    await expect(stranger.queryQuickPay('CP1')).rejects.toThrow(/signature/);
    expect(yop.rejected).toBe(before + 1);
  });
});
