import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CardPayNotifyPaths } from '@cfx/contract/card-pay.ts';
import { ledgerProblems } from '../src/modules/ledger/ledger.ts';
import { payoutRuntime } from '../src/modules/payout/runtime.ts';
import { reconcileCardPays } from '../src/modules/card-pay/reconcile-card-pays.ts';
import { closeUnpaidOrder } from '../src/modules/orders/close-order.ts';
import { call, latestCode, newMobile, type TestApp } from './helpers.ts';
import { createOrderFor, listForSale, makeGoods, makeMarketApp, makeRelease, makeTrader, orderStatus, type FakeChain, type Release, type Trader } from './market-helpers.ts';
import { adultId, balanceOf, bindCard, cardNumber, runWorker } from './payouts-helpers.ts';
import { buy, makeDrop } from './drops-helpers.ts';

/**
 * Bank-card quick payment (docs/payouts.md "Paying with a bank card") on a real database (SQLite, or
 * PostgreSQL with TEST_PG_URL) with the sandbox bank: the card bound for withdrawals is charged after the
 * SMS code the bank sends to its reserved phone (read from the dev outbox); the money arrives by the
 * bank's HMAC-signed notify delivered over the app, or by reconciliation, through the one payment path.
 */
const PAYOUT_SECRET = 'test-card-pay-secret';
let t: TestApp & { chain: FakeChain };
let release: Release;

beforeAll(async () => {
  t = await makeMarketApp({ PAYOUT_SANDBOX_SECRET: PAYOUT_SECRET, PAYOUT_SANDBOX_DELAY_MS: '3000' });
  release = await makeRelease(t);
});
afterAll(async () => {
  await t?.close();
});

const C = '/payment/card/V1';
const expectBalanced = async () => expect(await ledgerProblems(t.ctx.db.kysely)).toEqual([]);
const rt = () => payoutRuntime(t.ctx)!;

async function postForm(path: string, params: Record<string, string>) {
  const res = await t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(params).toString() });
  return { http: res.statusCode, body: res.body };
}

/** A trader (wallet, trading gate) whose real name can be opened, with a debit card bound through the API. */
async function cardBuyer(last4?: string): Promise<Trader & { cardId: number; reserved: string }> {
  const u = await makeTrader(t);
  const name = '张三';
  const idNumber = adultId();
  await t.ctx.db.kysely.updateTable('realname').set({ name_sealed: t.ctx.secrets.seal(name), id_sealed: t.ctx.secrets.seal(idNumber), name_masked: '*三' }).where('user_id', '=', u.userId).execute();
  const reserved = newMobile();
  const { card } = await bindCard(t, { userId: u.userId, token: u.token, mobile: reserved, name, idNumber, h: { ...u.h, lang: 'en' } }, cardNumber(last4), reserved);
  return { ...u, h: { ...u.h, lang: 'en' }, cardId: card.id, reserved };
}

async function unpaidOrder(buyer: Trader, price: number) {
  const seller = await makeTrader(t);
  const g = await makeGoods(t, release, seller);
  await listForSale(t, seller, g.goodsId, price);
  const o = await createOrderFor(t, buyer, g.goodsId);
  expect(o.status, o.message).toBe('000000');
  return o.data.orderNo as string;
}

const payments = (orderNo: string) => t.ctx.db.kysely.selectFrom('payments').selectAll().where('order_no', '=', orderNo).execute();
const entries = async (txn: string) =>
  (await t.ctx.db.kysely.selectFrom('ledger_entries').select(['account', 'amount_fen']).where('txn_id', '=', txn).orderBy('account').execute()).map((e) => [e.account, Number(e.amount_fen)]);
const wrongCode = (code: string) => (code === '000000' ? '111111' : '000000');

describe('paying an order with a bound bank card', () => {
  it('lists the card, refuses another user’s card, and pays exactly once after the SMS code', async () => {
    const buyer = await cardBuyer();
    const other = await cardBuyer();
    const orderNo = await unpaidOrder(buyer, 12_345);

    const cards = await call(t, `${C}/listPayCards`, {}, buyer.h);
    expect(cards).toMatchObject({ status: '000000', data: [{ id: buyer.cardId, bankCode: 'ICBC', bankName: '中国工商银行', logo: '/media/banks/ICBC.svg' }] });
    expect(cards.data[0].cardMasked).toMatch(/^6222 \*{4} \*{4} \d{4}$/);
    const amount = await call(t, '/payment/nftOrder/V1/queryAmount', { orderNo }, buyer.h);
    expect(amount.data.methods).toContain('card');
    // `pay` does not take a card: it has its own calls
    const viaPay = await call(t, '/payment/nftOrder/V1/pay', { orderNo, method: 'card' }, buyer.h);
    expect([viaPay.status, viaPay.message]).toEqual(['1016', 'to pay with a bank card, choose the card on the payment page and enter the SMS code']);

    // another user's card can never be used: refused like an unknown card, nothing recorded, nothing sent
    const stolen = await call(t, `${C}/startCardPay`, { orderNo, cardId: other.cardId }, buyer.h);
    expect([stolen.status, stolen.message]).toEqual(['1016', 'please choose one of your bound bank cards']);
    expect(await t.ctx.db.kysely.selectFrom('card_payments').select('pay_no').where('order_no', '=', orderNo).execute()).toHaveLength(0);
    expect(await orderStatus(t, orderNo)).toBe('created');
    // nor another user's order with one's own card
    const foreign = await call(t, `${C}/startCardPay`, { orderNo, cardId: other.cardId }, other.h);
    expect(foreign.status).toBe('1012');

    const started = await call(t, `${C}/startCardPay`, { orderNo, cardId: buyer.cardId }, buyer.h);
    const masked = `${buyer.reserved.slice(0, 3)}****${buyer.reserved.slice(-4)}`;
    expect(started).toMatchObject({ status: '000000', message: `a code was sent to the phone reserved at the bank ${masked}`, data: { orderNo, status: 'sms_sent', amountFen: 12_345, mobileMasked: masked, triesLeft: 5, orderStatus: 'paying' } });
    const payNo = started.data.payNo as string;
    const code = await latestCode(t, buyer.reserved);
    expect(code).toMatch(/^\d{6}$/);
    // the card number and phone are never stored in clear with the attempt
    const attempt = await t.ctx.db.kysely.selectFrom('card_payments').selectAll().where('pay_no', '=', payNo).executeTakeFirstOrThrow();
    expect(JSON.stringify(attempt)).not.toContain(buyer.reserved);

    // another user cannot confirm (or even see) my payment
    const hijack = await call(t, `${C}/confirmCardPay`, { payNo, smsCode: code }, other.h);
    expect([hijack.status, hijack.message]).toEqual(['1016', 'this card payment does not exist or has ended, please start again']);
    const wrong = await call(t, `${C}/confirmCardPay`, { payNo, smsCode: wrongCode(code) }, buyer.h);
    expect([wrong.status, wrong.message]).toEqual(['1004', 'wrong SMS code, 4 tries left']);
    expect(await payments(orderNo)).toHaveLength(0);

    const confirmed = await call(t, `${C}/confirmCardPay`, { payNo, smsCode: code }, buyer.h);
    expect(confirmed.status, confirmed.message).toBe('000000');
    expect(['confirming', 'succeeded']).toContain(confirmed.data.status);
    await rt().notifier.idle(); // the sandbox bank's signed notify, delivered over the app
    expect(await orderStatus(t, orderNo)).toBe('paid');
    const paid = await payments(orderNo);
    expect(paid).toMatchObject([{ provider: 'card', outcome: 'applied', amount_fen: 12_345 }]);
    const tradeNo = paid[0]!.provider_trade_no;
    expect(await entries(`pay:card:${tradeNo}`)).toEqual([['escrow', 12_345], ['external:card', -12_345]]);
    expect((await t.ctx.db.kysely.selectFrom('card_payments').select('status').where('pay_no', '=', payNo).executeTakeFirstOrThrow()).status).toBe('succeeded');
    expect((await t.ctx.db.kysely.selectFrom('orders').select(['pay_method', 'provider_trade_no']).where('order_no', '=', orderNo).executeTakeFirstOrThrow())).toEqual({ pay_method: 'card', provider_trade_no: tradeNo });
    // the settlement job was inserted with the payment
    expect(await t.ctx.db.kysely.selectFrom('jobs').select('job_key').where('job_key', '=', `settle:${orderNo}`).execute()).toHaveLength(1);
    await expectBalanced();

    // a replayed notify, a second confirmation and reconciliation change nothing
    const replay = rt().sandbox!.quickPayNotifyParams({ payNo, tradeNo, amountFen: 12_345 }, t.clock.t);
    expect(await postForm(CardPayNotifyPaths.sandbox, replay)).toEqual({ http: 200, body: 'success' });
    expect((await call(t, `${C}/confirmCardPay`, { payNo, smsCode: code }, buyer.h)).status).toBe('000000');
    t.clock.t += 61_000;
    expect(await reconcileCardPays(t.ctx)).toBe(0);
    expect(await payments(orderNo)).toHaveLength(1);
    expect(await balanceOf(t, buyer.h)).toBe(0);

    // forged notifies are refused and move no money: a changed amount, another key, another attempt's trade
    const ledgerBefore = (await t.ctx.db.kysely.selectFrom('ledger_entries').select('id').execute()).length;
    expect((await postForm(CardPayNotifyPaths.sandbox, { ...replay, amount: '999.99' })).http).toBe(400);
    expect((await postForm(CardPayNotifyPaths.sandbox, { ...replay, sign: 'f'.repeat(64) })).http).toBe(400);
    const { sandboxPayout } = await import('../src/providers/payout/sandbox.ts');
    const otherKey = sandboxPayout('another-secret', t.ctx.db).quickPayNotifyParams({ payNo, tradeNo: 'SBQforged', amountFen: 12_345 }, t.clock.t);
    expect((await postForm(CardPayNotifyPaths.sandbox, otherKey)).http).toBe(400);
    const foreignTrade = rt().sandbox!.quickPayNotifyParams({ payNo, tradeNo: 'SBQother', amountFen: 12_345 }, t.clock.t);
    expect((await postForm(CardPayNotifyPaths.sandbox, foreignTrade)).http).toBe(400);
    // a payout notify signed with the same key is not a card payment
    const payoutShaped = rt().sandbox!.notifyParams({ withdrawNo: payNo, tradeNo, amountFen: 12_345, success: true, reason: null }, t.clock.t);
    expect((await postForm(CardPayNotifyPaths.sandbox, payoutShaped)).http).toBe(400);
    expect((await t.ctx.db.kysely.selectFrom('ledger_entries').select('id').execute()).length).toBe(ledgerBefore);
    expect(await payments(orderNo)).toHaveLength(1);
    await expectBalanced();
  });

  it('limits wrong codes and resends, and a new attempt after a closed one pays', async () => {
    const buyer = await cardBuyer();
    const orderNo = await unpaidOrder(buyer, 5000);
    const started = await call(t, `${C}/startCardPay`, { orderNo, cardId: buyer.cardId }, buyer.h);
    const payNo = started.data.payNo as string;
    const code = await latestCode(t, buyer.reserved);
    // a new code 60 s apart
    const soon = await call(t, `${C}/resendCardPaySms`, { payNo }, buyer.h);
    expect([soon.status, soon.message]).toEqual(['1006', 'too many codes, please try again in 60 seconds']);
    t.clock.t += 60_000;
    const resent = await call(t, `${C}/resendCardPaySms`, { payNo }, buyer.h);
    expect(resent.status, resent.message).toBe('000000');
    const fresh = await latestCode(t, buyer.reserved);
    // the first code is dead once a new one was sent (unless the bank happened to draw the same digits)
    if (fresh !== code) expect((await call(t, `${C}/confirmCardPay`, { payNo, smsCode: code }, buyer.h)).message).toBe('wrong SMS code, 4 tries left');
    else await call(t, `${C}/confirmCardPay`, { payNo, smsCode: wrongCode(fresh) }, buyer.h);
    for (const left of [3, 2, 1]) {
      const r = await call(t, `${C}/confirmCardPay`, { payNo, smsCode: wrongCode(fresh) }, buyer.h);
      expect([r.status, r.message]).toEqual(['1004', `wrong SMS code, ${left} tries left`]);
    }
    const last = await call(t, `${C}/confirmCardPay`, { payNo, smsCode: wrongCode(fresh) }, buyer.h);
    expect([last.status, last.message]).toEqual(['1004', 'too many wrong codes: this payment is closed, please start again']);
    // closed: even the right code does not pay now, and the bank closed its charge too
    const closed = await call(t, `${C}/confirmCardPay`, { payNo, smsCode: fresh }, buyer.h);
    expect([closed.status, closed.message]).toEqual(['1016', 'this card payment does not exist or has ended, please start again']);
    expect((await t.ctx.db.kysely.selectFrom('sandbox_quickpays').select('status').where('request_no', '=', payNo).executeTakeFirstOrThrow()).status).toBe('fail');
    expect(await payments(orderNo)).toHaveLength(0);

    // a new attempt (61 s later: one code per phone per minute at the bank is not required, ours is per attempt)
    const again = await call(t, `${C}/startCardPay`, { orderNo, cardId: buyer.cardId }, buyer.h);
    expect(again.status, again.message).toBe('000000');
    const ok = await call(t, `${C}/confirmCardPay`, { payNo: again.data.payNo, smsCode: await latestCode(t, buyer.reserved) }, buyer.h);
    expect(ok.status, ok.message).toBe('000000');
    await rt().notifier.idle();
    expect(await orderStatus(t, orderNo)).toBe('paid');
    expect(await payments(orderNo)).toHaveLength(1);
    await expectBalanced();
  });

  it('a card the bank refuses closes the attempt with its reason and takes nothing', async () => {
    const buyer = await cardBuyer('0000');
    const orderNo = await unpaidOrder(buyer, 3000);
    const started = await call(t, `${C}/startCardPay`, { orderNo, cardId: buyer.cardId }, buyer.h);
    const r = await call(t, `${C}/confirmCardPay`, { payNo: started.data.payNo, smsCode: await latestCode(t, buyer.reserved) }, buyer.h);
    expect([r.status, r.message]).toEqual(['1016', 'the card payment failed: 余额不足 (sandbox test card)']);
    await rt().notifier.idle();
    expect(await orderStatus(t, orderNo)).toBe('paying');
    expect(await payments(orderNo)).toHaveLength(0);
  });

  it("an expired order's payment (notify lost, found by reconciliation) goes to the balance and is refunded to the card", async () => {
    const buyer = await cardBuyer();
    const price = 8800;
    const orderNo = await unpaidOrder(buyer, price);
    const started = await call(t, `${C}/startCardPay`, { orderNo, cardId: buyer.cardId }, buyer.h);
    const payNo = started.data.payNo as string;
    // the bank takes the money, but its notify is lost on the way
    const lost: Record<string, string>[] = [];
    const send = rt().notifier.send;
    rt().notifier.send = async (_url, params) => {
      lost.push(params);
      return false;
    };
    try {
      const confirmed = await call(t, `${C}/confirmCardPay`, { payNo, smsCode: await latestCode(t, buyer.reserved) }, buyer.h);
      expect(confirmed).toMatchObject({ status: '000000', message: 'payment submitted, waiting for the bank to confirm', data: { status: 'confirming' } });
    } finally {
      rt().notifier.send = send;
    }
    expect(lost).toHaveLength(1);
    // the order closes before anything arrived
    t.clock.t += 300_000 + 1000;
    expect(await closeUnpaidOrder(t.ctx, orderNo, 'expired', { dueOnly: true })).toBe(true);
    expect(await orderStatus(t, orderNo)).toBe('expired');
    // reconciliation asks the bank, which says paid: the money is the buyer's, in the balance
    expect(await reconcileCardPays(t.ctx)).toBe(1);
    expect(await orderStatus(t, orderNo)).toBe('expired');
    expect(await payments(orderNo)).toMatchObject([{ provider: 'card', outcome: 'credited', amount_fen: price }]);
    expect(await balanceOf(t, buyer.h)).toBe(price);
    // the lost notify arriving after all changes nothing
    expect(await postForm(CardPayNotifyPaths.sandbox, lost[0]!)).toEqual({ http: 200, body: 'success' });
    expect(await balanceOf(t, buyer.h)).toBe(price);
    await expectBalanced();

    // refund to the card
    const list = await call(t, '/payment/account/V1/pageListStrayCredit', { pageNum: 1, pageSize: 10 }, buyer.h);
    expect(list.data.list).toMatchObject([{ orderNo, provider: 'card', amountFen: price, reason: 'late', refundable: true, refund: null }]);
    const other = await cardBuyer();
    expect((await call(t, '/payment/account/V1/refundStrayCredit', { paymentId: list.data.list[0].paymentId }, other.h)).status).toBe('1063');
    const refund = await call(t, '/payment/account/V1/refundStrayCredit', { paymentId: list.data.list[0].paymentId }, buyer.h);
    expect(refund).toMatchObject({ status: '000000', data: { status: 'processing', amountFen: price } });
    expect(await balanceOf(t, buyer.h)).toBe(0);
    t.clock.t += 3000;
    await runWorker(t); // the sandbox bank settles the refund and posts its signed refund notify
    const done = await t.ctx.db.kysely.selectFrom('stray_refunds').selectAll().where('order_no', '=', orderNo).executeTakeFirstOrThrow();
    expect(done.status).toBe('succeeded');
    expect(await entries(`refund-out-paid:${done.refund_no}`)).toEqual([['external:card', price], ['refund:pending', -price]]);
    expect((await t.ctx.db.kysely.selectFrom('sandbox_quickpays').select('refunded_fen').where('request_no', '=', payNo).executeTakeFirstOrThrow()).refunded_fen).toBe(price);
    // a second refund is refused; a replayed or forged refund notify changes nothing
    expect((await call(t, '/payment/account/V1/refundStrayCredit', { paymentId: list.data.list[0].paymentId }, buyer.h)).status).toBe('1063');
    const replay = rt().sandbox!.quickPayRefundNotifyParams({ refundNo: done.refund_no, refundTradeNo: done.provider_refund_no!, success: false, reason: 'late' }, t.clock.t);
    expect((await postForm(CardPayNotifyPaths.refundSandbox, replay)).body).toBe('success');
    expect((await postForm(CardPayNotifyPaths.refundSandbox, { ...replay, sign: '0'.repeat(64) })).http).toBe(400);
    expect((await t.ctx.db.kysely.selectFrom('stray_refunds').select('status').where('order_no', '=', orderNo).executeTakeFirstOrThrow()).status).toBe('succeeded');
    expect(await balanceOf(t, buyer.h)).toBe(0);
    await expectBalanced();
  });

  it('pays a drop (primary sale) order the same way: paid once, the fulfil job inserted', async () => {
    const buyer = await cardBuyer();
    const { projectId } = await makeDrop(t, { supply: 10, priceFen: 2500 });
    const o = await buy(t, buyer, projectId, 2);
    expect(o.status, o.message).toBe('000000');
    const orderNo = o.data.orderNo as string;
    const started = await call(t, `${C}/startCardPay`, { orderNo, cardId: buyer.cardId }, buyer.h);
    expect(started).toMatchObject({ status: '000000', data: { amountFen: 5000 } });
    const r = await call(t, `${C}/confirmCardPay`, { payNo: started.data.payNo, smsCode: await latestCode(t, buyer.reserved) }, buyer.h);
    expect(r.status, r.message).toBe('000000');
    await rt().notifier.idle();
    expect(await orderStatus(t, orderNo)).toBe('paid');
    expect(await payments(orderNo)).toMatchObject([{ provider: 'card', outcome: 'applied', amount_fen: 5000 }]);
    expect(await t.ctx.db.kysely.selectFrom('jobs').select('job_key').where('job_key', '=', `fulfil:${orderNo}`).execute()).toHaveLength(1);
    await expectBalanced();
  });

  it('reconciliation closes an attempt whose code never came back once its order is past the deadline', async () => {
    const buyer = await cardBuyer();
    const orderNo = await unpaidOrder(buyer, 1500);
    const started = await call(t, `${C}/startCardPay`, { orderNo, cardId: buyer.cardId }, buyer.h);
    t.clock.t += 61_000;
    await reconcileCardPays(t.ctx);
    expect((await t.ctx.db.kysely.selectFrom('card_payments').select('status').where('pay_no', '=', started.data.payNo).executeTakeFirstOrThrow()).status).toBe('sms_sent');
    t.clock.t += 300_000;
    await reconcileCardPays(t.ctx);
    expect(await t.ctx.db.kysely.selectFrom('card_payments').select(['status', 'fail_reason']).where('pay_no', '=', started.data.payNo).executeTakeFirstOrThrow()).toEqual({ status: 'failed', fail_reason: 'expired' });
    expect(await payments(orderNo)).toHaveLength(0);
  });

  it('an expired order cannot be charged: confirming after the deadline is refused and takes nothing', async () => {
    const buyer = await cardBuyer();
    const orderNo = await unpaidOrder(buyer, 4000);
    const started = await call(t, `${C}/startCardPay`, { orderNo, cardId: buyer.cardId }, buyer.h);
    const code = await latestCode(t, buyer.reserved);
    t.clock.t += 300_000 + 1000;
    const late = await call(t, `${C}/confirmCardPay`, { payNo: started.data.payNo, smsCode: code }, buyer.h);
    expect(late.status).toBe('1015');
    expect(await orderStatus(t, orderNo)).toBe('expired');
    expect(await payments(orderNo)).toHaveLength(0);
    expect((await t.ctx.db.kysely.selectFrom('sandbox_quickpays').select('status').where('request_no', '=', started.data.payNo).executeTakeFirstOrThrow()).status).toBe('sms_sent');
    expect(await balanceOf(t, buyer.h)).toBe(0);
  });
});
