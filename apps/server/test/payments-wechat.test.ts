import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentNotifyPaths } from '@cfx/contract/routes.ts';
import { reconcilePayments } from '../src/modules/payments/reconcile-payments.ts';
import { reconcilePayouts } from '../src/modules/payout/reconcile.ts';
import { openWechatNotify, wechatPayment, wechatPublicKey } from '../src/providers/payment/wechat.ts';
import { call, type TestApp } from './helpers.ts';
import { balance, createOrderFor, expectLedgerBalanced, listForSale, makeGoods, makeMarketApp, makeRelease, makeTrader, orderStatus, runJobs, type FakeChain, type Release } from './market-helpers.ts';

/**
 * WeChat Pay Native (APIv3): the production adapter against a local HTTP server that speaks the
 * protocol with keys made here — it checks our request signatures with the merchant's public key,
 * signs its answers and notifies with a "platform" key and encrypts notify resources with AES-256-GCM
 * under the APIv3 key (written from the protocol, independently of src/providers/payment/wechat.ts) —
 * and the sandbox's scan-and-pay flow.
 */
const MCH_ID = '1900009191';
const APP_ID = 'wxd678efh567hg6787';
const MCH_SERIAL = '5157F09EFDC096DE15EBE81A47057A7232F1B8E1';
const PLATFORM_SERIAL = 'PUB_KEY_ID_0119000091912025112700000000000001';
const APIV3_KEY = 'a7cde1ZJB1kG2e7VfTs3jQzaWizur8Gb';
const merchant = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const platform = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const stranger = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (k: crypto.KeyObject, type: 'pkcs8' | 'spki') => k.export({ type, format: 'pem' }).toString();

const rsaSign = (key: crypto.KeyObject, msg: string) => crypto.createSign('RSA-SHA256').update(msg, 'utf8').sign(key, 'base64');

/** AEAD_AES_256_GCM as WeChat Pay encrypts a notify resource. */
function encrypt(plain: string, associated: string, key = APIV3_KEY) {
  const nonce = crypto.randomBytes(6).toString('hex');
  const c = crypto.createCipheriv('aes-256-gcm', Buffer.from(key), Buffer.from(nonce));
  c.setAAD(Buffer.from(associated));
  const ct = Buffer.concat([c.update(plain, 'utf8'), c.final(), c.getAuthTag()]);
  return { original_type: associated, algorithm: 'AEAD_AES_256_GCM', ciphertext: ct.toString('base64'), associated_data: associated, nonce };
}

interface Signed {
  headers: Record<string, string>;
  body: string;
}
/** A platform-signed message (an answer or a notify). */
function platformSigned(body: string, o: { key?: crypto.KeyObject; serial?: string; ts?: number } = {}): Signed {
  const ts = String(o.ts ?? Math.floor(Date.now() / 1000));
  const nonce = crypto.randomBytes(16).toString('hex');
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'wechatpay-timestamp': ts,
      'wechatpay-nonce': nonce,
      'wechatpay-serial': o.serial ?? PLATFORM_SERIAL,
      'wechatpay-signature': rsaSign(o.key ?? platform.privateKey, `${ts}\n${nonce}\n${body}\n`),
    },
  };
}

function notifyBody(eventType: string, resource: Record<string, unknown>, originalType: string, key = APIV3_KEY) {
  return JSON.stringify({ id: crypto.randomUUID(), create_time: '2026-11-27T15:00:00+08:00', resource_type: 'encrypt-resource', event_type: eventType, summary: '支付成功', resource: encrypt(JSON.stringify(resource), originalType, key) });
}

interface GwOrder {
  body: Record<string, any>;
  transactionId: string | null;
  state: 'NOTPAY' | 'SUCCESS';
}
interface GwRequest {
  method: string;
  path: string;
  body: string;
  auth: Record<string, string>;
  verified: boolean;
}

/** The local WeChat Pay gateway. */
function startGateway() {
  const orders = new Map<string, GwOrder>();
  const refunds = new Map<string, Record<string, any>>();
  const requests: GwRequest[] = [];
  const mode = { unsignedAnswers: false, refundStatus: 'PROCESSING' as 'PROCESSING' | 'SUCCESS' };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const answer = (status: number, json: unknown) => {
        const s = platformSigned(JSON.stringify(json), mode.unsignedAnswers ? { key: stranger.privateKey } : {});
        res.writeHead(status, { ...s.headers, 'request-id': crypto.randomUUID() });
        res.end(s.body);
      };
      const header = String(req.headers.authorization ?? '');
      const auth: Record<string, string> = {};
      const m = /^WECHATPAY2-SHA256-RSA2048 (.*)$/.exec(header);
      for (const kv of (m?.[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)) auth[kv[1]!] = kv[2]!;
      const message = `${req.method}\n${req.url}\n${auth.timestamp}\n${auth.nonce_str}\n${raw}\n`;
      const verified =
        auth.mchid === MCH_ID && auth.serial_no === MCH_SERIAL && Math.abs(Number(auth.timestamp) - Date.now() / 1000) < 300 &&
        crypto.createVerify('RSA-SHA256').update(message, 'utf8').verify(merchant.publicKey, auth.signature ?? '', 'base64');
      requests.push({ method: req.method!, path: req.url!, body: raw, auth, verified });
      if (!verified) return answer(401, { code: 'SIGN_ERROR', message: '签名错误' });
      const url = new URL(req.url!, 'http://gw');
      if (req.method === 'POST' && url.pathname === '/v3/pay/transactions/native') {
        const b = JSON.parse(raw);
        if (b.mchid !== MCH_ID || b.appid !== APP_ID || !Number.isSafeInteger(b.amount?.total)) return answer(400, { code: 'PARAM_ERROR', message: '参数错误' });
        if (!orders.has(b.out_trade_no)) orders.set(b.out_trade_no, { body: b, transactionId: null, state: 'NOTPAY' });
        return answer(200, { code_url: `weixin://wxpay/bizpayurl?pr=${crypto.randomBytes(5).toString('hex')}` });
      }
      const q = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && q) {
        const o = orders.get(decodeURIComponent(q[1]!));
        if (!o || url.searchParams.get('mchid') !== MCH_ID) return answer(404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
        return answer(200, transaction(o));
      }
      if (req.method === 'POST' && url.pathname === '/v3/refund/domestic/refunds') {
        const b = JSON.parse(raw);
        const o = [...orders.values()].find((x) => x.transactionId === b.transaction_id);
        if (!o) return answer(404, { code: 'RESOURCE_NOT_EXISTS', message: '订单不存在' });
        if (b.amount.refund > b.amount.total) return answer(400, { code: 'PARAM_ERROR', message: '退款金额大于订单金额' });
        const r = refunds.get(b.out_refund_no) ?? { ...b, refund_id: `50300${crypto.randomInt(1e9)}`, status: mode.refundStatus };
        refunds.set(b.out_refund_no, r);
        return answer(200, refundView(r));
      }
      const rq = /^\/v3\/refund\/domestic\/refunds\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && rq) {
        const r = refunds.get(decodeURIComponent(rq[1]!));
        return r ? answer(200, refundView(r)) : answer(404, { code: 'RESOURCE_NOT_EXISTS', message: '退款单不存在' });
      }
      answer(404, { code: 'NOT_FOUND', message: 'no such API' });
    });
  });
  const transaction = (o: GwOrder, total = o.body.amount.total as number) => ({
    appid: APP_ID, mchid: MCH_ID, out_trade_no: o.body.out_trade_no, transaction_id: o.transactionId ?? undefined, trade_type: 'NATIVE', trade_state: o.state,
    trade_state_desc: o.state === 'SUCCESS' ? '支付成功' : '订单未支付', success_time: '2026-11-27T15:00:00+08:00', payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' },
    amount: { total, payer_total: total, currency: 'CNY', payer_currency: 'CNY' },
  });
  const refundView = (r: Record<string, any>) => ({
    refund_id: r.refund_id, out_refund_no: r.out_refund_no, transaction_id: r.transaction_id, channel: 'ORIGINAL', user_received_account: '支付用户零钱', status: r.status,
    amount: { total: r.amount.total, refund: r.amount.refund, payer_total: r.amount.total, payer_refund: r.amount.refund, currency: 'CNY' },
  });
  return {
    orders, refunds, requests, mode,
    async listen() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
    /** The buyer scans and pays: the trade succeeds; returns the notify WeChat Pay would post. */
    pay(orderNo: string, total?: number): Signed & { url: string } {
      const o = orders.get(orderNo)!;
      o.transactionId ??= `42000${crypto.randomInt(1e9)}${crypto.randomInt(1e9)}`;
      o.state = 'SUCCESS';
      return { url: o.body.notify_url, ...platformSigned(notifyBody('TRANSACTION.SUCCESS', transaction(o, total), 'transaction')) };
    },
    transaction,
    refundNotify(refundNo: string): Signed & { url: string } {
      const r = refunds.get(refundNo)!;
      r.status = 'SUCCESS';
      const resource = { mchid: MCH_ID, out_trade_no: 'x', transaction_id: r.transaction_id, out_refund_no: r.out_refund_no, refund_id: r.refund_id, refund_status: 'SUCCESS', success_time: '2026-11-27T15:01:00+08:00', user_received_account: '支付用户零钱', amount: { total: r.amount.total, refund: r.amount.refund, payer_total: r.amount.total, payer_refund: r.amount.refund } };
      return { url: r.notify_url, ...platformSigned(notifyBody('REFUND.SUCCESS', resource, 'refund')) };
    },
  };
}

async function post(url: string, s: Signed) {
  const res = await fetch(url, { method: 'POST', headers: s.headers, body: s.body });
  return { http: res.status, body: await res.text() };
}

describe('WeChat Pay platform keys', () => {
  // A self-signed test certificate and its key (test/fixtures; not WeChat Pay's): merchants still on
  // platform certificates configure the certificate PEM and its serial instead of the public key.
  const certPem = fs.readFileSync(new URL('./fixtures/wechat-platform-cert.pem', import.meta.url), 'utf8');
  const certKey = crypto.createPrivateKey(fs.readFileSync(new URL('./fixtures/wechat-platform-key.pem', import.meta.url), 'utf8'));
  const serial = new crypto.X509Certificate(certPem).serialNumber;
  const transaction = { appid: APP_ID, mchid: MCH_ID, out_trade_no: 'MO1', transaction_id: '4200001', trade_state: 'SUCCESS', amount: { total: 100 } };

  it('a platform certificate verifies notifies like the public key; a one-line PEM with \\n is read too', () => {
    const body = notifyBody('TRANSACTION.SUCCESS', transaction, 'transaction');
    const signed = platformSigned(body, { key: certKey, serial });
    const params = { ...signed.headers, body };
    for (const text of [certPem, certPem.replace(/\n/g, '\\n')]) {
      const v = { platform: { serial, key: wechatPublicKey(text) }, apiV3Key: APIV3_KEY, mchId: MCH_ID, appId: APP_ID };
      expect(openWechatNotify(v, params, Date.now())).toMatchObject({ kind: 'trade', trade: { orderNo: 'MO1', tradeNo: '4200001', amountFen: 100, paid: true } });
      // the generated platform key does not verify what the certificate's key signed
      expect(openWechatNotify({ ...v, platform: { serial, key: platform.publicKey } }, params, Date.now())).toBeNull();
    }
  });

  it('a key that does not parse stops the start naming the variable, not its value', () => {
    const cfg = { mchId: MCH_ID, appId: APP_ID, mchSerialNo: MCH_SERIAL, privateKey: pem(merchant.privateKey, 'pkcs8'), apiV3Key: APIV3_KEY, platformPublicKey: pem(platform.publicKey, 'spki'), platformSerial: PLATFORM_SERIAL, gateway: 'http://127.0.0.1:9' };
    expect(() => wechatPayment(cfg)).not.toThrow();
    expect(() => wechatPayment({ ...cfg, privateKey: 'not-a-key-secret-123' })).toThrow(/^WECHATPAY_PRIVATE_KEY is not a valid PEM key \(or certificate\)$/);
    expect(() => wechatPayment({ ...cfg, platformPublicKey: '-----BEGIN PUBLIC KEY-----\nxx\n-----END PUBLIC KEY-----' })).toThrow(/^WECHATPAY_PLATFORM_PUBLIC_KEY is not/);
  });
});

describe('WeChat Pay APIv3 adapter against a local gateway', () => {
  const gw = startGateway();
  let a: TestApp & { chain: FakeChain };
  let rel: Release;
  let notifyUrl: string;
  beforeAll(async () => {
    const gateway = await gw.listen();
    a = await makeMarketApp({
      WECHATPAY_MCH_ID: MCH_ID,
      WECHATPAY_APP_ID: APP_ID,
      WECHATPAY_MCH_SERIAL_NO: MCH_SERIAL,
      WECHATPAY_PRIVATE_KEY: pem(merchant.privateKey, 'pkcs8'),
      WECHATPAY_APIV3_KEY: APIV3_KEY,
      WECHATPAY_PLATFORM_PUBLIC_KEY: pem(platform.publicKey, 'spki'),
      WECHATPAY_PLATFORM_SERIAL: PLATFORM_SERIAL,
      WECHATPAY_GATEWAY: gateway,
    });
    await a.app.listen({ port: 0, host: '127.0.0.1' });
    notifyUrl = `http://127.0.0.1:${(a.app.server.address() as AddressInfo).port}${PaymentNotifyPaths.wechat}`;
    rel = await makeRelease(a);
  });
  afterAll(async () => {
    await a?.close();
    await gw.close();
  });

  async function paying(price: number) {
    const seller = await makeTrader(a);
    const g = await makeGoods(a, rel, seller);
    await listForSale(a, seller, g.goodsId, price);
    const buyer = await makeTrader(a);
    const o = await createOrderFor(a, buyer, g.goodsId);
    expect(o.status).toBe('000000');
    const orderNo = o.data.orderNo as string;
    const pay = await call(a, '/payment/nftOrder/V1/pay', { orderNo, method: 'wechat' }, buyer.h);
    return { buyer, orderNo, pay };
  }
  const payments = (orderNo: string) => a.ctx.db.kysely.selectFrom('payments').select(['provider', 'provider_trade_no', 'amount_fen', 'outcome']).where('order_no', '=', orderNo).execute();

  it('pay places a Native order with a signed request and returns its code_url', async () => {
    const { buyer, orderNo, pay } = await paying(12_345);
    expect(pay).toMatchObject({ status: '000000', data: { orderNo, method: 'wechat', status: 'paying' } });
    expect(pay.data.payUrl).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=[0-9a-f]{10}$/);
    const req = gw.requests.at(-1)!;
    expect(req).toMatchObject({ method: 'POST', path: '/v3/pay/transactions/native', verified: true, auth: { mchid: MCH_ID, serial_no: MCH_SERIAL } });
    const body = JSON.parse(req.body);
    expect(body).toMatchObject({ appid: APP_ID, mchid: MCH_ID, out_trade_no: orderNo, notify_url: notifyUrl, amount: { total: 12_345, currency: 'CNY' } });
    // time_expire is the order's deadline in China time
    const exp = (await a.ctx.db.kysely.selectFrom('orders').select('expires_at').where('order_no', '=', orderNo).executeTakeFirstOrThrow()).expires_at;
    expect(new Date(body.time_expire).getTime()).toBe(Math.floor(Number(exp) / 1000) * 1000);
    expect(body.time_expire).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/);
    const amount = await call(a, '/payment/nftOrder/V1/queryAmount', { orderNo }, buyer.h);
    expect(amount.data.methods).toContain('wechat');
    expect(amount.data.methods).not.toContain('sandbox');
  });

  it('a signed notify pays the order exactly once; replays change nothing', async () => {
    const { orderNo } = await paying(12_345);
    const n = gw.pay(orderNo);
    expect(n.url).toBe(notifyUrl);
    expect(await post(n.url, n)).toEqual({ http: 204, body: '' });
    expect(await orderStatus(a, orderNo)).toBe('paid');
    const tx = gw.orders.get(orderNo)!.transactionId!;
    for (let i = 0; i < 3; i++) expect(await post(n.url, n)).toEqual({ http: 204, body: '' });
    // a fresh signature of the same trade (WeChat Pay's retry) is a replay too
    expect((await post(n.url, platformSigned(n.body))).http).toBe(204);
    expect(await payments(orderNo)).toEqual([{ provider: 'wechat', provider_trade_no: tx, amount_fen: 12_345, outcome: 'applied' }]);
    const entries = await a.ctx.db.kysely.selectFrom('ledger_entries').select(['account', 'amount_fen']).where('txn_id', 'like', `%:wechat:${tx}`).orderBy('account').execute();
    expect(entries.map((e) => [e.account, Number(e.amount_fen)])).toEqual([['escrow', 12_345], ['external:wechat', -12_345]]);
    await runJobs(a);
    expect(await orderStatus(a, orderNo)).toBe('completed');
    await expectLedgerBalanced(a);
  });

  it('a wrong signature, serial, a stale timestamp or a tampered resource is refused and moves no money', async () => {
    const { buyer, orderNo } = await paying(8_800);
    const good = gw.pay(orderNo);
    const tx = gw.orders.get(orderNo)!.transactionId!;
    const now = Math.floor(Date.now() / 1000);
    const ct = JSON.parse(good.body);
    const flipped = Buffer.from(ct.resource.ciphertext, 'base64');
    flipped[3]! ^= 1;
    const tampered = JSON.stringify({ ...ct, resource: { ...ct.resource, ciphertext: flipped.toString('base64') } });
    const otherMch = notifyBody('TRANSACTION.SUCCESS', { ...gw.transaction(gw.orders.get(orderNo)!), mchid: '1900000001' }, 'transaction');
    const bad: [string, Signed][] = [
      ['signed by another key', platformSigned(good.body, { key: stranger.privateKey })],
      ['signed by the merchant key', platformSigned(good.body, { key: merchant.privateKey })],
      ['another serial', platformSigned(good.body, { serial: 'PUB_KEY_ID_0119000091912025112700000000000002' })],
      ['a stale timestamp', platformSigned(good.body, { ts: now - 600 })],
      ['a timestamp from the future', platformSigned(good.body, { ts: now + 600 })],
      ['a body changed after signing', { headers: good.headers, body: good.body.replace('支付成功', '支付成功 ') }],
      ['a tampered ciphertext (signed again)', platformSigned(tampered)],
      ['a resource under another APIv3 key', platformSigned(notifyBody('TRANSACTION.SUCCESS', gw.transaction(gw.orders.get(orderNo)!), 'transaction', 'b'.repeat(32)))],
      ['another merchant id inside', platformSigned(otherMch)],
      ['no signature headers', { headers: { 'content-type': 'application/json' }, body: good.body }],
    ];
    for (const [why, s] of bad) {
      const r = await post(notifyUrl, s);
      expect([why, r.http, r.body ? JSON.parse(r.body).code : r.body]).toEqual([why, 401, 'FAIL']);
    }
    expect(await orderStatus(a, orderNo)).toBe('paying');
    expect(await payments(orderNo)).toEqual([]);
    expect(await balance(a, buyer)).toBe(0);
    // the genuine one still pays
    expect((await post(notifyUrl, good)).http).toBe(204);
    expect(await payments(orderNo)).toEqual([{ provider: 'wechat', provider_trade_no: tx, amount_fen: 8_800, outcome: 'applied' }]);
    await expectLedgerBalanced(a);
  });

  it('a wrong amount goes to the buyer\'s balance and is refunded to WeChat Pay once, by notify and by query', async () => {
    const { buyer, orderNo } = await paying(5_000);
    const n = gw.pay(orderNo, 4_999);
    expect((await post(n.url, n)).http).toBe(204);
    expect(await orderStatus(a, orderNo)).toBe('paying');
    expect(await payments(orderNo)).toMatchObject([{ provider: 'wechat', amount_fen: 4_999, outcome: 'credited' }]);
    expect(await balance(a, buyer)).toBe(4_999);
    const A = '/payment/account/V1';
    const credits = await call(a, `${A}/pageListStrayCredit`, { pageNum: 1, pageSize: 10 }, buyer.h);
    expect(credits.data.list).toMatchObject([{ orderNo, provider: 'wechat', amountFen: 4_999, reason: 'wrong_amount', refundable: true, refund: null }]);
    const r = await call(a, `${A}/refundStrayCredit`, { paymentId: credits.data.list[0].paymentId }, buyer.h);
    expect(r).toMatchObject({ status: '000000', data: { status: 'processing', amountFen: 4_999 } });
    const req = gw.requests.at(-1)!;
    expect(req).toMatchObject({ method: 'POST', path: '/v3/refund/domestic/refunds', verified: true });
    const tx = gw.orders.get(orderNo)!.transactionId!;
    expect(JSON.parse(req.body)).toMatchObject({ transaction_id: tx, out_refund_no: r.data.refundNo, notify_url: notifyUrl, amount: { refund: 4_999, total: 4_999, currency: 'CNY' } });
    expect(await balance(a, buyer)).toBe(0);
    // WeChat Pay's REFUND.SUCCESS notify finishes it; a replay changes nothing
    const rn = gw.refundNotify(r.data.refundNo);
    expect(rn.url).toBe(notifyUrl);
    for (let i = 0; i < 2; i++) expect((await post(rn.url, rn)).http).toBe(204);
    const done = await a.ctx.db.kysely.selectFrom('stray_refunds').selectAll().where('refund_no', '=', r.data.refundNo).executeTakeFirstOrThrow();
    expect(done).toMatchObject({ status: 'succeeded', provider: 'wechat', provider_refund_no: gw.refunds.get(r.data.refundNo)!.refund_id });
    const paid = await a.ctx.db.kysely.selectFrom('ledger_entries').select(['account', 'amount_fen']).where('txn_id', '=', `refund-out-paid:${r.data.refundNo}`).orderBy('account').execute();
    expect(paid.map((e) => [e.account, Number(e.amount_fen)])).toEqual([['external:wechat', 4_999], ['refund:pending', -4_999]]);
    expect(await balance(a, buyer)).toBe(0);
    await expectLedgerBalanced(a);

    // A second stray payment whose refund notify is lost: reconciliation asks GET /v3/refund/domestic/refunds/{no}.
    const second = await paying(3_000);
    const n2 = gw.pay(second.orderNo, 2_999);
    expect((await post(n2.url, n2)).http).toBe(204);
    const c2 = await call(a, `${A}/pageListStrayCredit`, { pageNum: 1, pageSize: 10 }, second.buyer.h);
    const r2 = await call(a, `${A}/refundStrayCredit`, { paymentId: c2.data.list[0].paymentId }, second.buyer.h);
    expect(r2.data.status).toBe('processing');
    gw.refunds.get(r2.data.refundNo)!.status = 'SUCCESS';
    a.clock.t += a.ctx.config.payout.reconcileAfterMs + 1000;
    await reconcilePayouts(a.ctx);
    expect(gw.requests.at(-1)).toMatchObject({ method: 'GET', path: `/v3/refund/domestic/refunds/${r2.data.refundNo}`, verified: true });
    expect((await a.ctx.db.kysely.selectFrom('stray_refunds').select('status').where('refund_no', '=', r2.data.refundNo).executeTakeFirstOrThrow()).status).toBe('succeeded');
    await expectLedgerBalanced(a);
  });

  it('reconciliation finds a payment whose notify was lost (GET /v3/pay/transactions/out-trade-no)', async () => {
    const { orderNo } = await paying(7_700);
    gw.pay(orderNo); // paid at WeChat Pay, notify never delivered
    expect(await reconcilePayments(a.ctx)).toBeGreaterThanOrEqual(1);
    expect(gw.requests.some((r) => r.method === 'GET' && r.path === `/v3/pay/transactions/out-trade-no/${orderNo}?mchid=${MCH_ID}` && r.verified)).toBe(true);
    expect(await orderStatus(a, orderNo)).toBe('paid');
    expect(await payments(orderNo)).toMatchObject([{ provider: 'wechat', amount_fen: 7_700, outcome: 'applied' }]);
    // its late notify is a replay
    const late = platformSigned(notifyBody('TRANSACTION.SUCCESS', gw.transaction(gw.orders.get(orderNo)!), 'transaction'));
    expect((await post(notifyUrl, late)).http).toBe(204);
    expect(await payments(orderNo)).toHaveLength(1);
    await expectLedgerBalanced(a);
  });

  it('an answer the platform key did not sign is not trusted: 1016 and the buyer may try again', async () => {
    gw.mode.unsignedAnswers = true;
    try {
      const { orderNo, pay } = await paying(6_600);
      expect([pay.status, pay.message]).toEqual(['1016', 'the payment provider could not start the payment, please try again later or choose another method']);
      expect(await orderStatus(a, orderNo)).toBe('paying');
    } finally {
      gw.mode.unsignedAnswers = false;
    }
  });
});

describe('WeChat Pay sandbox (PAYMENT_SANDBOX=1)', () => {
  let t: TestApp & { chain: FakeChain };
  let rel: Release;
  beforeAll(async () => {
    t = await makeMarketApp();
    rel = await makeRelease(t);
  });
  afterAll(async () => { await t?.close(); });

  it('code_url opens the scan-and-pay page; 确认支付 sends a signed notify that pays the order once', async () => {
    const seller = await makeTrader(t);
    const g = await makeGoods(t, rel, seller);
    await listForSale(t, seller, g.goodsId, 12_300);
    const buyer = await makeTrader(t);
    const orderNo = (await createOrderFor(t, buyer, g.goodsId)).data.orderNo as string;
    const amount = await call(t, '/payment/nftOrder/V1/queryAmount', { orderNo }, buyer.h);
    expect(amount.data.methods).toEqual(expect.arrayContaining(['sandbox', 'wechat', 'balance']));
    const pay = await call(t, '/payment/nftOrder/V1/pay', { orderNo, method: 'wechat' }, buyer.h);
    expect(pay).toMatchObject({ status: '000000', data: { method: 'wechat', status: 'paying' } });
    expect(pay.data.payUrl).toMatch(/^\/mvapi\/public\/payment\/sandbox\/wechat\/scan\?t=/);
    const page = await t.app.inject({ method: 'GET', url: pay.data.payUrl });
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('微信支付（沙箱）');
    expect(page.body).toContain('￥123.00');
    expect(page.body).toContain(orderNo);
    const ticket = new URL(`http://x${pay.data.payUrl}`).searchParams.get('t')!;
    const forgedTicket = `${ticket.slice(0, -1)}${ticket.endsWith('0') ? '1' : '0'}`;
    expect((await call(t, '/payment/sandbox/wechat/pay', { t: forgedTicket })).status).toBe('1016');
    const paid = await call(t, '/payment/sandbox/wechat/pay', { t: ticket });
    expect(paid).toMatchObject({ status: '000000', data: { result: 'paid' } });
    expect(paid.data.tradeNo).toMatch(/^4200\d{26}$/);
    expect(await orderStatus(t, orderNo)).toBe('paid');
    const again = await call(t, '/payment/sandbox/wechat/pay', { t: ticket });
    expect(again.data).toEqual({ result: 'paid', tradeNo: paid.data.tradeNo });
    expect(await t.ctx.db.kysely.selectFrom('payments').select(['provider', 'provider_trade_no', 'outcome']).where('order_no', '=', orderNo).execute()).toEqual([
      { provider: 'wechat', provider_trade_no: paid.data.tradeNo, outcome: 'applied' },
    ]);
    // the sandbox's notifies go through the production verification: a notify signed by another key is refused
    const forged = platformSigned(notifyBody('TRANSACTION.SUCCESS', { appid: 'wxsandbox00000000', mchid: '1900000109', out_trade_no: orderNo, transaction_id: '4200x', trade_state: 'SUCCESS', amount: { total: 12_300 } }, 'transaction'));
    const res = await t.app.inject({ method: 'POST', url: PaymentNotifyPaths.wechat, headers: forged.headers, payload: forged.body });
    expect([res.statusCode, res.json().code]).toEqual([401, 'FAIL']);
    await expectLedgerBalanced(t);
  });

  it('a payment after the order was cancelled is credited and refunded by the sandbox once', async () => {
    const seller = await makeTrader(t);
    const g = await makeGoods(t, rel, seller);
    await listForSale(t, seller, g.goodsId, 4_500);
    const buyer = await makeTrader(t);
    const orderNo = (await createOrderFor(t, buyer, g.goodsId)).data.orderNo as string;
    const pay = await call(t, '/payment/nftOrder/V1/pay', { orderNo, method: 'wechat' }, buyer.h);
    const ticket = new URL(`http://x${pay.data.payUrl}`).searchParams.get('t')!;
    expect((await call(t, '/payment/nftOrder/V1/cannelOrder', { orderNo }, buyer.h)).status).toBe('000000');
    const paid = await call(t, '/payment/sandbox/wechat/pay', { t: ticket });
    expect(paid.data.result).toBe('paid');
    expect(await orderStatus(t, orderNo)).toBe('cancelled');
    expect(await balance(t, buyer)).toBe(4_500);
    const A = '/payment/account/V1';
    const credits = await call(t, `${A}/pageListStrayCredit`, { pageNum: 1, pageSize: 10 }, buyer.h);
    expect(credits.data.list).toMatchObject([{ orderNo, provider: 'wechat', amountFen: 4_500, reason: 'late', refundable: true }]);
    const r = await call(t, `${A}/refundStrayCredit`, { paymentId: credits.data.list[0].paymentId }, buyer.h);
    expect(r).toMatchObject({ status: '000000', data: { status: 'succeeded', amountFen: 4_500 } });
    expect((await call(t, `${A}/refundStrayCredit`, { paymentId: credits.data.list[0].paymentId }, buyer.h)).status).toBe('1063');
    expect(await balance(t, buyer)).toBe(0);
    const out = await t.ctx.db.kysely.selectFrom('ledger_entries').select(['account', 'amount_fen']).where('txn_id', '=', `refund-out-paid:${r.data.refundNo}`).orderBy('account').execute();
    expect(out.map((e) => [e.account, Number(e.amount_fen)])).toEqual([['external:wechat', 4_500], ['refund:pending', -4_500]]);
    await expectLedgerBalanced(t);
  });

  it('the notify path answers 404 with {code, message} where WeChat Pay is off', async () => {
    const off = await makeMarketApp({ PAYMENT_SANDBOX: '0' });
    try {
      const res = await off.app.inject({ method: 'POST', url: PaymentNotifyPaths.wechat, headers: { 'content-type': 'application/json' }, payload: '{}' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'FAIL' });
    } finally {
      await off.close();
    }
  });
});
