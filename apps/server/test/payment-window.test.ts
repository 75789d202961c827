import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentWindowText } from '../src/modules/orders/payment-window.ts';
import { buy, makeDrop, makeDropApp } from './drops-helpers.ts';
import { createOrderFor, listForSale, makeGoods, makeRelease, makeTrader, type FakeChain } from './market-helpers.ts';
import type { TestApp } from './helpers.ts';

/**
 * createOrder's message states the real payment window (PAYMENT_WINDOW_SECONDS), for market and drop
 * orders, in both languages — 90 s is "90秒", not a rounded "2分钟" — and the order expires at it.
 */
describe('paymentWindowText', () => {
  it('whole minutes as minutes, under two minutes as seconds, else minutes and seconds', () => {
    const cases: [number, string, string][] = [
      [300, '5分钟', '5 minutes'],
      [60, '1分钟', '1 minute'],
      [90, '90秒', '90 seconds'],
      [10, '10秒', '10 seconds'],
      [330, '5分30秒', '5 minutes 30 seconds'],
      [121, '2分1秒', '2 minutes 1 second'],
      [3600, '60分钟', '60 minutes'],
    ];
    for (const [s, zh, en] of cases) expect([paymentWindowText(s * 1000, 'zh'), paymentWindowText(s * 1000, 'en')]).toEqual([zh, en]);
  });
});

describe(`createOrder with PAYMENT_WINDOW_SECONDS=90 on ${process.env.TEST_PG_URL ? 'PostgreSQL' : 'SQLite'}`, () => {
  let t: TestApp & { chain: FakeChain };
  beforeAll(async () => {
    t = await makeDropApp({ PAYMENT_WINDOW_SECONDS: '90' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a market order: 请在90秒内完成支付 / please pay within 90 seconds, and it expires 90 s after creation', async () => {
    const release = await makeRelease(t);
    const seller = await makeTrader(t);
    for (const [lang, message] of [['zh', '下单成功，请在90秒内完成支付'], ['en', 'order placed, please pay within 90 seconds']] as const) {
      const g = await makeGoods(t, release, seller);
      await listForSale(t, seller, g.goodsId, 10_000);
      const buyer = await makeTrader(t);
      const r = await createOrderFor(t, { ...buyer, h: { ...buyer.h, lang } }, g.goodsId);
      expect(r).toMatchObject({ status: '000000', message });
      expect(r.data.expiresAt - t.clock.t).toBe(90_000);
    }
  });

  it('a drop order says the same', async () => {
    const { projectId } = await makeDrop(t);
    const zh = await buy(t, await makeTrader(t), projectId, 1, { lang: 'zh' });
    expect(zh).toMatchObject({ status: '000000', message: '下单成功，请在90秒内完成支付' });
    expect(zh.data.expiresAt - t.clock.t).toBe(90_000);
    expect(await buy(t, await makeTrader(t), projectId, 1, { lang: 'en' })).toMatchObject({ status: '000000', message: 'order placed, please pay within 90 seconds' });
  });
});
