import { expect } from 'vitest';
import { SettledPaths, TicketPaths } from '@cfx/contract/routes.ts';
import { call, register, type TestApp } from './helpers.ts';
import { createOrderFor, listForSale, makeGoods, makeRelease, makeTrader, topup, type FakeChain, type Trader } from './market-helpers.ts';
import { fixture, png, upload } from './upload-helpers.ts';

/**
 * What the console acts on, made through the real user-facing API: a submitted project application
 * (with an artwork and a private PDF), a ticket with a private screenshot, market orders unpaid or
 * paid from the balance (a listed collectible on the FakeChain market).
 */
export async function submittedApplication(t: TestApp, user?: { token: string; mobile: string }) {
  const u = user ?? (await register(t));
  const art = await upload(t, SettledPaths.upload, u.token, { data: png(48, 32), filename: 'art.png' });
  const doc = await upload(t, SettledPaths.uploadFile, u.token, { data: fixture('licence.pdf'), filename: '营业执照.pdf' });
  const r = await call(t, SettledPaths.submit, {
    projectName: '山海经·数字典藏', creatorName: '青山工作室', category: 'culture',
    description: '以《山海经》中的异兽为题材的数字艺术作品系列，共 12 款，由青山工作室原创绘制。',
    supply: 1000, priceFen: 9900, contactName: '王小明', mobile: '13800138000', email: 'wang@example.com', agree: true,
    artworkKeys: [art.data.key], qualificationKeys: [doc.data.key],
  }, { token: u.token });
  expect(r.status, r.message).toBe('000000');
  return { user: u, id: r.data.id as number, docKey: doc.data.key as string, artKey: art.data.key as string };
}

export async function ticketWithShot(t: TestApp) {
  const u = await register(t);
  const shot = await upload(t, TicketPaths.upload, u.token, { data: png(64, 48), filename: '截图.png' });
  const r = await call(t, TicketPaths.create, { category: 'order', subject: '订单未到账', content: '我付款后藏品一直没有到账，请帮忙看看，谢谢。', attachmentKeys: [shot.data.key] }, { token: u.token });
  expect(r.status, r.message).toBe('000000');
  return { user: u, id: r.data.id as number, shotKey: shot.data.key as string };
}

type MarketApp = TestApp & { chain: FakeChain };

/** A listed collectible and a buyer's unpaid order for it. */
export async function unpaidOrder(t: MarketApp, price = 10_000) {
  const seller = await makeTrader(t);
  const buyer = await makeTrader(t);
  const release = await makeRelease(t);
  const { goodsId } = await makeGoods(t, release, seller);
  const listing = await listForSale(t, seller, goodsId, price);
  const o = await createOrderFor(t, buyer, goodsId);
  expect(o.status, o.message).toBe('000000');
  return { seller, buyer, goodsId, listingId: listing.listingId as number | undefined, orderNo: o.data.orderNo as string, price };
}

/** The same, paid from the buyer's balance (settlement not run: MARKET_JOBS=0 in the market test app). */
export async function paidOrder(t: MarketApp, price = 10_000): Promise<Awaited<ReturnType<typeof unpaidOrder>> & { buyer: Trader }> {
  const o = await unpaidOrder(t, price);
  await topup(t, o.buyer, price);
  const paid = await call(t, '/payment/nftOrder/V1/pay', { orderNo: o.orderNo, method: 'balance' }, o.buyer.h);
  expect(paid.status, paid.message).toBe('000000');
  return o;
}
