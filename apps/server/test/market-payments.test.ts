import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentNotifyPaths } from '@cfx/contract/routes.ts';
import { signContent } from '../src/providers/payment/types.ts';
import { reconcilePayments } from '../src/modules/payments/reconcile-payments.ts';
import { call, type TestApp } from './helpers.ts';
import {
  balance, createOrderFor, expectLedgerBalanced, get, listForSale, makeGoods, makeMarketApp, makeRelease, makeTrader, orderStatus, runJobs,
  type FakeChain, type Release,
} from './market-helpers.ts';

/** Payment providers: the sandbox cashier over HTTP with HMAC-signed notifies, Alipay (alipay-sdk, RSA2), idempotency, late payments. */
const SECRET = 'test-sandbox-secret';
let t: TestApp & { chain: FakeChain };
let release: Release;
beforeAll(async () => {
  t = await makeMarketApp();
  release = await makeRelease(t);
});
afterAll(async () => { await t?.close(); });

async function paying(price = 10_000, app = t, rel = release) {
  const seller = await makeTrader(app);
  const g = await makeGoods(app, rel, seller);
  await listForSale(app, seller, g.goodsId, price);
  const buyer = await makeTrader(app);
  const o = await createOrderFor(app, buyer, g.goodsId);
  expect(o.status).toBe('000000');
  return { seller, buyer, orderNo: o.data.orderNo as string, ...g };
}

/** A notify signed as the sandbox signs it (HMAC-SHA256 over the sorted parameters). */
function sandboxNotify(p: Record<string, string>, secret = SECRET): Record<string, string> {
  const withType = { ...p, sign_type: 'HMAC-SHA256' };
  return { ...withType, sign: crypto.createHmac('sha256', secret).update(signContent(withType)).digest('hex') };
}

async function postNotify(app: TestApp, path: string, params: Record<string, string>) {
  const res = await app.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(params).toString() });
  return { http: res.statusCode, body: res.body };
}

describe('sandbox provider: a real page flow', () => {
  it('pay → cashier page → 支付 → signed notify over HTTP → paid → settled', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { buyer, orderNo, tokenId } = await paying(12_300);
    const pay = await call(t, '/payment/nftOrder/V1/pay', { orderNo, method: 'sandbox' }, buyer.h);
    expect(pay).toMatchObject({ status: '000000', data: { orderNo, method: 'sandbox', status: 'paying' } });
    expect(pay.data.payUrl).toMatch(/^\/mvapi\/public\/payment\/sandbox\/cashier\?t=/);
    expect(await orderStatus(t, orderNo)).toBe('paying');
    // the cashier page (over the real socket, like a browser)
    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const page = await fetch(base + pay.data.payUrl);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain('沙箱收银台');
    expect(html).toContain('￥123.00');
    expect(html).toContain(orderNo);
    expect(html).toContain('>支付<');
    expect(html).toContain('>取消<');
    // Its inline script runs under the CSP: it carries this response's nonce.
    const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(page.headers.get('content-security-policy') ?? '')?.[1];
    expect(nonce).toBeTruthy();
    expect(html).toContain(`<script nonce="${nonce}">`);
    const ticket = new URL(base + pay.data.payUrl).searchParams.get('t')!;
    // 取消 only returns; 支付 pays
    const cancel = await call(t, '/payment/sandbox/confirm', { t: ticket, action: 'cancel' });
    expect(cancel.data).toMatchObject({ result: 'cancelled', tradeNo: null, returnUrl: `/pay?orderNo=${orderNo}` });
    const confirm = await call(t, '/payment/sandbox/confirm', { t: ticket, action: 'pay' });
    expect(confirm).toMatchObject({ status: '000000', data: { result: 'paid', returnUrl: `/pay?orderNo=${orderNo}` } });
    expect(confirm.data.tradeNo).toMatch(/^SBX/);
    await waitFor(async () => (await orderStatus(t, orderNo)) === 'paid');
    const pays = await t.ctx.db.kysely.selectFrom('payments').selectAll().where('order_no', '=', orderNo).execute();
    expect(pays).toHaveLength(1);
    expect(pays[0]).toMatchObject({ provider: 'sandbox', provider_trade_no: confirm.data.tradeNo, outcome: 'applied' });
    // pressing 支付 again re-sends the same trade's notify: still one payment
    const again = await call(t, '/payment/sandbox/confirm', { t: ticket, action: 'pay' });
    expect(again.data.tradeNo).toBe(confirm.data.tradeNo);
    await new Promise((r) => setTimeout(r, 100));
    expect(await t.ctx.db.kysely.selectFrom('payments').selectAll().where('order_no', '=', orderNo).execute()).toHaveLength(1);
    await runJobs(t);
    expect(await orderStatus(t, orderNo)).toBe('completed');
    expect(t.chain.owners.get(tokenId)).toBe(buyer.address);
    await expectLedgerBalanced(t);
  });

  it('the cashier refuses tampered and expired tickets', async () => {
    const { buyer, orderNo } = await paying();
    const pay = await call(t, '/payment/nftOrder/V1/pay', { orderNo, method: 'sandbox' }, buyer.h);
    const ticket = new URL(`http://x${pay.data.payUrl}`).searchParams.get('t')!;
    const [body, mac] = ticket.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), amountFen: 1 })).toString('base64url');
    expect(await call(t, '/payment/sandbox/confirm', { t: `${forged}.${mac}`, action: 'pay' }, { lang: 'en' })).toMatchObject({ status: '1016', message: 'the cashier link is invalid or has expired' });
    expect(await get(t, `/payment/sandbox/cashier?t=${forged}.${mac}`)).toMatchObject({ status: '1016' });
    t.clock.t += 301_000;
    try {
      expect(await call(t, '/payment/sandbox/confirm', { t: ticket, action: 'pay' })).toMatchObject({ status: '1016' });
    } finally {
      t.clock.t -= 301_000;
    }
  });
});

describe('notify verification and idempotency', () => {
  it('refuses notifies with a bad signature and changes nothing', async () => {
    const { orderNo } = await paying();
    const good = { out_trade_no: orderNo, trade_no: 'SBXbad1', total_amount: '100.00', trade_status: 'TRADE_SUCCESS' };
    const signed = sandboxNotify(good);
    for (const bad of [
      { ...signed, total_amount: '1.00' }, // tampered after signing
      sandboxNotify(good, 'another-secret'),
      { ...good }, // unsigned
      { ...signed, sign: '' },
      { ...signed, sign_type: 'RSA2' },
    ]) {
      expect(await postNotify(t, PaymentNotifyPaths.sandbox, bad)).toEqual({ http: 400, body: 'failure' });
    }
    expect(await orderStatus(t, orderNo)).toBe('created');
    expect(await t.ctx.db.kysely.selectFrom('payments').selectAll().where('order_no', '=', orderNo).execute()).toHaveLength(0);
    expect(await postNotify(t, PaymentNotifyPaths.sandbox, signed)).toEqual({ http: 200, body: 'success' });
    expect(await orderStatus(t, orderNo)).toBe('paid');
  });

  it('a notify replayed 50 times (concurrently) makes one payment and one settlement', async () => {
    const { buyer, seller, orderNo } = await paying(20_000);
    await call(t, '/payment/nftOrder/V1/pay', { orderNo, method: 'sandbox' }, buyer.h);
    const n = sandboxNotify({ out_trade_no: orderNo, trade_no: 'SBXreplay', total_amount: '200.00', trade_status: 'TRADE_SUCCESS' });
    const answers = await Promise.all(Array.from({ length: 50 }, () => postNotify(t, PaymentNotifyPaths.sandbox, n)));
    expect(answers.every((a) => a.http === 200 && a.body === 'success')).toBe(true);
    await runJobs(t);
    for (let i = 0; i < 5; i++) await postNotify(t, PaymentNotifyPaths.sandbox, n);
    await runJobs(t);
    expect(await t.ctx.db.kysely.selectFrom('payments').selectAll().where('order_no', '=', orderNo).execute()).toHaveLength(1);
    expect(await t.ctx.db.kysely.selectFrom('ledger_txns').select('id').where('order_no', '=', orderNo).orderBy('id').execute()).toEqual([{ id: `pay:sandbox:SBXreplay` }, { id: `settle:${orderNo}` }]);
    expect(t.chain.submitted.filter((s) => s.buyerOrderId === orderNo)).toHaveLength(1);
    expect(await orderStatus(t, orderNo)).toBe('completed');
    expect(await balance(t, seller)).toBe(19_000);
    expect(await balance(t, buyer)).toBe(0);
    await expectLedgerBalanced(t);
  });

  it('a payment after expiry, a second trade for a paid order, or a wrong amount is credited to the buyer — never lost', async () => {
    const late = await paying(10_000);
    await call(t, '/payment/nftOrder/V1/pay', { orderNo: late.orderNo, method: 'sandbox' }, late.buyer.h);
    t.clock.t += 300_001;
    await runJobs(t);
    expect(await orderStatus(t, late.orderNo)).toBe('expired');
    const n = sandboxNotify({ out_trade_no: late.orderNo, trade_no: 'SBXlate', total_amount: '100.00', trade_status: 'TRADE_SUCCESS' });
    expect((await postNotify(t, PaymentNotifyPaths.sandbox, n)).body).toBe('success');
    expect(await orderStatus(t, late.orderNo)).toBe('expired');
    expect(await balance(t, late.buyer)).toBe(10_000);
    const d = await call(t, '/payment/nftOrder/V1/getNftOrderDetail', { orderNo: late.orderNo }, late.buyer.h);
    expect(d.data.timeline.at(-1).note).toMatch(/credited to the buyer's balance/);

    const twice = await paying(10_000);
    await postNotify(t, PaymentNotifyPaths.sandbox, sandboxNotify({ out_trade_no: twice.orderNo, trade_no: 'SBXfirst', total_amount: '100.00', trade_status: 'TRADE_SUCCESS' }));
    await postNotify(t, PaymentNotifyPaths.sandbox, sandboxNotify({ out_trade_no: twice.orderNo, trade_no: 'SBXsecond', total_amount: '100.00', trade_status: 'TRADE_SUCCESS' }));
    expect(await orderStatus(t, twice.orderNo)).toBe('paid');
    expect(await balance(t, twice.buyer)).toBe(10_000);

    const wrong = await paying(10_000);
    await postNotify(t, PaymentNotifyPaths.sandbox, sandboxNotify({ out_trade_no: wrong.orderNo, trade_no: 'SBXwrong', total_amount: '99.99', trade_status: 'TRADE_SUCCESS' }));
    expect(await orderStatus(t, wrong.orderNo)).toBe('created');
    expect(await balance(t, wrong.buyer)).toBe(9_999);

    await postNotify(t, PaymentNotifyPaths.sandbox, sandboxNotify({ out_trade_no: 'MOunknown', trade_no: 'SBXorphan', total_amount: '5.00', trade_status: 'TRADE_SUCCESS' }));
    const suspense = await t.ctx.db.kysely.selectFrom('ledger_balances').select('balance_fen').where('account', '=', 'platform:suspense').executeTakeFirstOrThrow();
    expect(Number(suspense.balance_fen)).toBe(500);
    // a notify that is not a success (e.g. WAIT_BUYER_PAY) is acknowledged and ignored
    const wait = await paying(10_000);
    expect((await postNotify(t, PaymentNotifyPaths.sandbox, sandboxNotify({ out_trade_no: wait.orderNo, trade_no: 'SBXwait', total_amount: '100.00', trade_status: 'WAIT_BUYER_PAY' }))).body).toBe('success');
    expect(await orderStatus(t, wait.orderNo)).toBe('created');
    await runJobs(t);
    await expectLedgerBalanced(t);
  });

  it('reconciliation applies a trade whose notify was lost', async () => {
    const { buyer, orderNo } = await paying(10_000);
    await call(t, '/payment/nftOrder/V1/pay', { orderNo, method: 'sandbox' }, buyer.h);
    await t.ctx.db.kysely.insertInto('sandbox_trades').values({ trade_no: 'SBXlost', out_trade_no: orderNo, amount_fen: 10_000, status: 'success', created_at: t.clock.t }).execute();
    expect(await reconcilePayments(t.ctx)).toBeGreaterThanOrEqual(1);
    expect(await orderStatus(t, orderNo)).toBe('paid');
    expect(await reconcilePayments(t.ctx)).toBe(0);
    await runJobs(t);
    expect(await orderStatus(t, orderNo)).toBe('completed');
    await expectLedgerBalanced(t);
  });

  it('sandbox top-up and balance', async () => {
    const u = await makeTrader(t);
    expect(await call(t, '/payment/sandbox/topup', { amount: 0 }, u.h)).toMatchObject({ status: '1001' });
    expect(await call(t, '/payment/sandbox/topup', { amount: 1234 }, u.h)).toMatchObject({ status: '000000', message: 'top-up successful' });
    expect(await balance(t, u)).toBe(1234);
    expect((await get(t, '/payment/account/V1/queryBalance')).status).toBe('1100');
  });
});

describe('Alipay (alipay-sdk v4, RSA2)', () => {
  const app = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const alipay = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = {
    appPrivate: app.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    appPublic: app.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    alipayPrivate: alipay.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    alipayPublic: alipay.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
  let a: TestApp & { chain: FakeChain };
  let rel: Release;
  beforeAll(async () => {
    a = await makeMarketApp({
      ALIPAY_APP_ID: '2021000000000001',
      ALIPAY_PRIVATE_KEY: pem.appPrivate,
      ALIPAY_PUBLIC_KEY: pem.alipayPublic,
      ALIPAY_GATEWAY: 'https://openapi-sandbox.dl.alipaydev.com/gateway.do',
      PAYMENT_NOTIFY_BASE_URL: 'https://market.example.cn',
      PAYMENT_RETURN_URL: 'https://market.example.cn/pay',
    });
    rel = await makeRelease(a);
  });
  afterAll(async () => { await a?.close(); });

  /** Signs a notify the way Alipay does: RSA-SHA256 over the sorted parameters without sign and sign_type. */
  function alipayNotify(p: Record<string, string>, key = pem.alipayPrivate) {
    const params = { app_id: '2021000000000001', charset: 'utf-8', version: '1.0', notify_type: 'trade_status_sync', notify_time: '2026-11-21 18:00:00', notify_id: crypto.randomUUID(), ...p };
    const sign = crypto.createSign('RSA-SHA256').update(signContent(params), 'utf8').sign(key, 'base64');
    return { ...params, sign_type: 'RSA2', sign };
  }

  it('pay returns a signed alipay.trade.page.pay URL that expires with the order', async () => {
    const { buyer, orderNo } = await paying(12_345, a, rel);
    const r = await call(a, '/payment/nftOrder/V1/pay', { orderNo, method: 'alipay' }, buyer.h);
    expect(r).toMatchObject({ status: '000000', data: { status: 'paying', method: 'alipay' } });
    const url = new URL(r.data.payUrl);
    expect(url.origin + url.pathname).toBe('https://openapi-sandbox.dl.alipaydev.com/gateway.do');
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({ method: 'alipay.trade.page.pay', app_id: '2021000000000001', sign_type: 'RSA2', notify_url: 'https://market.example.cn/mvapi/notify/alipay', return_url: `https://market.example.cn/pay?orderNo=${orderNo}` });
    const biz = JSON.parse(q.biz_content!);
    expect(biz).toMatchObject({ out_trade_no: orderNo, total_amount: '123.45', product_code: 'FAST_INSTANT_TRADE_PAY' });
    expect(biz.time_expire).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    // the request is signed with the application's key
    const { sign, ...rest } = q;
    const content = Object.keys(rest).sort().map((k) => `${k}=${rest[k]}`).join('&');
    expect(crypto.createVerify('RSA-SHA256').update(content, 'utf8').verify(pem.appPublic, sign!, 'base64')).toBe(true);
    const amount = await call(a, '/payment/nftOrder/V1/queryAmount', { orderNo }, buyer.h);
    // The sandbox is never offered next to a real provider (issue #9), even with DEV_MODE=1.
    expect(amount.data.methods).toEqual(['alipay', 'balance']);
  });

  it('verifies notifies with checkNotifySignV2 and applies them once', async () => {
    const { buyer, orderNo } = await paying(12_345, a, rel);
    await call(a, '/payment/nftOrder/V1/pay', { orderNo, method: 'alipay' }, buyer.h);
    const n = alipayNotify({ out_trade_no: orderNo, trade_no: '2026112122001400000001', total_amount: '123.45', trade_status: 'TRADE_SUCCESS', buyer_id: '2088000000000001' });
    expect(await postNotify(a, PaymentNotifyPaths.alipay, { ...n, total_amount: '0.01' })).toEqual({ http: 400, body: 'failure' });
    expect(await postNotify(a, PaymentNotifyPaths.alipay, alipayNotify({ out_trade_no: orderNo, trade_no: 'x1', total_amount: '123.45', trade_status: 'TRADE_SUCCESS' }, pem.appPrivate))).toEqual({ http: 400, body: 'failure' });
    expect(await postNotify(a, PaymentNotifyPaths.alipay, alipayNotify({ out_trade_no: orderNo, trade_no: 'x2', total_amount: '123.45', trade_status: 'TRADE_SUCCESS', app_id: '2021999999999999' }))).toEqual({ http: 400, body: 'failure' });
    expect(await orderStatus(a, orderNo)).toBe('paying');
    for (let i = 0; i < 3; i++) expect(await postNotify(a, PaymentNotifyPaths.alipay, n)).toEqual({ http: 200, body: 'success' });
    expect(await orderStatus(a, orderNo)).toBe('paid');
    expect(await a.ctx.db.kysely.selectFrom('payments').select(['provider', 'provider_trade_no', 'outcome']).where('order_no', '=', orderNo).execute()).toEqual([
      { provider: 'alipay', provider_trade_no: '2026112122001400000001', outcome: 'applied' },
    ]);
    await runJobs(a);
    expect(await orderStatus(a, orderNo)).toBe('completed');
    await expectLedgerBalanced(a);
  });

  it('the alipay notify path answers 404 when Alipay is not configured', async () => {
    expect(await postNotify(t, PaymentNotifyPaths.alipay, { a: 'b' })).toEqual({ http: 404, body: 'failure' });
  });
});

async function waitFor(f: () => Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await f())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
