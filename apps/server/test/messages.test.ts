import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestApp } from './helpers.ts';
import {
  createOrderFor, listForSale, makeGoods, makeMarketApp, makeRelease, makeTrader, orderStatus, runJobs, signTyped, topup,
  type FakeChain, type Release, type Trader,
} from './market-helpers.ts';
import { makeDrop } from './drops-helpers.ts';
import { givePhone, messagesOf, noticeOutbox } from './messages-helpers.ts';
import { inTx } from '../src/db/tx.ts';
import { notifyUser, notifyUsers } from '../src/modules/messages/notify-user.ts';
import { sweepPass } from '../src/modules/messages/sweep-pass.ts';
import { completeOrder } from '../src/modules/orders/settle-order.ts';
import { expireDueOrders } from '../src/modules/orders/close-order.ts';
import { notifyBidReceived, notifyDropReminders, notifyExpiringOrders, notifyLotteryResults } from '../src/modules/messages/events.ts';

/**
 * The message center (issue #11): each business event makes exactly one message for the right user
 * (replays and sweeps run twice make none), a rolled-back transaction makes none, settings decide
 * in-app display and SMS (exactly one sandbox SMS per message), and the calls: msglist, read,
 * unread, getmsgsetting, submitmsg, remind. The stream is in messages-stream.test.ts.
 */
let t: TestApp & { chain: FakeChain };
let release: Release;
beforeAll(async () => {
  t = await makeMarketApp();
  release = await makeRelease(t);
});
afterAll(async () => { await t?.close(); });

const day = 86_400_000;
const M = '/api/user/message/v1';
const bid = (u: Trader, goodsId: number, amount: number) => call(t, '/goods/v1/bargin', { goodsId, amount, expiresAt: t.clock.t + day }, u.h);
const list = (u: Trader, body: Record<string, unknown> = {}, lang = 'en') => call(t, `${M}/msglist`, body, { ...u.h, lang });

describe('events make exactly one message', () => {
  it('bid received: the owner only, rendered in the reader language, a replay makes none', async () => {
    const owner = await makeTrader(t);
    const bidder = await makeTrader(t);
    const { goodsId } = await makeGoods(t, release, owner);
    const b = await bid(bidder, goodsId, 5000);
    expect(b.status).toBe('000000');
    const rows = await messagesOf(t, owner.userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'bid_received', dedupe_key: `bid_received:${b.data.id}`, link: `/assets/${goodsId}`, read_at: null, sms_status: null });
    expect(await messagesOf(t, bidder.userId)).toHaveLength(0);
    // a replay of the event (same bid) changes nothing
    const again = await inTx(t.ctx, (trx) => notifyBidReceived(t.ctx, trx, { bidId: b.data.id, goodsId, ownerUserId: owner.userId, amountFen: 5000, expiresAt: t.clock.t + day }, t.clock.t));
    expect(again).toBeNull();
    expect(await messagesOf(t, owner.userId)).toHaveLength(1);

    const en = await list(owner);
    expect(en).toMatchObject({ status: '000000', data: { total: 1, unread: 1, pageNum: 1 } });
    expect(en.data.list[0]).toMatchObject({ kind: 'bid_received', title: 'New bid received', read: false, readAt: null, link: `/assets/${goodsId}` });
    expect(en.data.list[0].body).toMatch(/^Someone bid ￥50\.00 on your collectible ".+" #\d+; the bid is valid until \d{4}-\d\d-\d\d \d\d:\d\d\.$/);
    const zh = await list(owner, {}, 'zh');
    expect(zh.data.list[0].title).toBe('收到新的出价');
    expect(zh.data.list[0].body).toContain('出价￥50.00');
    // the bidder sees nothing of it
    expect((await list(bidder)).data).toMatchObject({ total: 0, unread: 0, list: [] });
  });

  it('a rolled-back business transaction leaves no message, no SMS job and no outbox row', async () => {
    const u = await makeTrader(t);
    await givePhone(t, u);
    await expect(
      inTx(t.ctx, async (trx) => {
        const id = await notifyUser(t.ctx, trx, u.userId, 'sold', { name: 'x', serial: 1, priceFen: 100, incomeFen: 90 }, { dedupeKey: 'sold:rollback' });
        expect(id).toBeGreaterThan(0);
        throw new Error('business failed');
      }),
    ).rejects.toThrow('business failed');
    await runJobs(t);
    expect(await messagesOf(t, u.userId)).toHaveLength(0);
    expect(await noticeOutbox(t, u.userId)).toHaveLength(0);
    const jobs = await t.ctx.db.kysely.selectFrom('jobs').select('job_key').where('kind', '=', 'msg-sms').execute();
    const ids = new Set((await t.ctx.db.kysely.selectFrom('messages').select('id').execute()).map((r) => `msg-sms:${r.id}`));
    expect(jobs.every((j) => ids.has(j.job_key))).toBe(true);
    // the same key afterwards works (nothing of the rolled-back attempt remains)
    expect(await inTx(t.ctx, (trx) => notifyUser(t.ctx, trx, u.userId, 'sold', { name: 'x', serial: 1, priceFen: 100, incomeFen: 90 }, { dedupeKey: 'sold:rollback' }))).toBeGreaterThan(0);
  });

  it('sold (seller, on settlement) with one SMS by default; bid accepted (bidder); replays of the completion make nothing more', async () => {
    const seller = await makeTrader(t);
    const buyer = await makeTrader(t);
    await givePhone(t, seller);
    await givePhone(t, buyer);
    const { goodsId } = await makeGoods(t, release, seller);
    await listForSale(t, seller, goodsId, 10_000);
    const o = await createOrderFor(t, buyer, goodsId);
    expect(o.status).toBe('000000');
    await topup(t, buyer, 10_000);
    expect((await call(t, '/payment/nftOrder/V1/pay', { orderNo: o.data.orderNo, method: 'balance' }, buyer.h)).status).toBe('000000');
    expect(await messagesOf(t, seller.userId)).toHaveLength(0); // paid is not sold yet
    await runJobs(t);
    await runJobs(t);
    expect(await orderStatus(t, o.data.orderNo)).toBe('completed');
    const msgs = await messagesOf(t, seller.userId);
    expect(msgs).toHaveLength(1);
    expect(msgs[0]).toMatchObject({ kind: 'sold', dedupe_key: `sold:${o.data.orderNo}`, sms_status: 'sent' });
    const out = await noticeOutbox(t, seller.userId);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ message_id: msgs[0]!.id, template: 'sold' });
    expect(out[0]!.mobile_masked).toMatch(/^1\d\d\*\*\*\*\d{4}$/);
    expect(out[0]!.text).toMatch(/^藏品已售出：您的藏品《.+》#\d+已以￥100\.00成交，扣除费用后￥95\.00已计入您的余额。$/);
    // replays: the completion again, the job again
    expect(await completeOrder(t.ctx, o.data.orderNo, null)).toBe(false);
    await runJobs(t);
    expect(await messagesOf(t, seller.userId)).toHaveLength(1);
    expect(await noticeOutbox(t, seller.userId)).toHaveLength(1);
    expect((await list(seller)).data.list[0]).toMatchObject({ title: 'Collectible sold', link: '/personal-center/txn-details' });
    expect(await messagesOf(t, buyer.userId)).toHaveLength(0);

    // bid accepted → the bidder
    const owner = await makeTrader(t);
    const bidder = await makeTrader(t);
    const g = await makeGoods(t, release, owner);
    const b = await bid(bidder, g.goodsId, 8000);
    const pre = await call(t, '/goods/v1/preOpenSale', { goodsId: g.goodsId, price: 8000, bidId: b.data.id }, owner.h);
    t.chain.approve(pre.data.tokenId, owner.address);
    const r = await call(t, '/goods/v1/agreeBargin/', { bidId: b.data.id, sellerOrderId: pre.data.sellerOrderId, signature: signTyped(owner, pre.data) }, owner.h);
    expect(r.status).toBe('000000');
    const bm = await messagesOf(t, bidder.userId);
    expect(bm).toHaveLength(1);
    expect(bm[0]).toMatchObject({ kind: 'bid_accepted', link: `/object-buy?goodsId=${g.goodsId}&orderNo=${r.data.orderNo}` });
    expect((await list(bidder)).data.list[0].body).toMatch(/^Your bid of ￥80\.00 for ".+" #\d+ was accepted; please pay before \d{4}-\d\d-\d\d \d\d:\d\d\.$/);
    // the owner got "bid received" only
    expect((await messagesOf(t, owner.userId)).map((m) => m.kind)).toEqual(['bid_received']);
  });

  it('order expiring (once, by the sweep) then expired, for the buyer; SMS only for expiring by default', async () => {
    const seller = await makeTrader(t);
    const buyer = await makeTrader(t);
    await givePhone(t, buyer);
    const { goodsId } = await makeGoods(t, release, seller);
    await listForSale(t, seller, goodsId, 3000);
    const o = await createOrderFor(t, buyer, goodsId);
    const orderNo = o.data.orderNo as string;
    const expiresAt = Number((await t.ctx.db.kysely.selectFrom('orders').select('expires_at').where('order_no', '=', orderNo).executeTakeFirstOrThrow()).expires_at);
    expect(await notifyExpiringOrders(t.ctx)).toBe(0); // 5 minutes left: not yet
    t.clock.t = expiresAt - 30_000;
    expect(await notifyExpiringOrders(t.ctx)).toBeGreaterThanOrEqual(1); // (other tests' unpaid orders may be due too)
    expect(await notifyExpiringOrders(t.ctx)).toBe(0);
    await runJobs(t);
    t.clock.t = expiresAt + 1;
    await expireDueOrders(t.ctx);
    await expireDueOrders(t.ctx);
    await runJobs(t);
    expect(await orderStatus(t, orderNo)).toBe('expired');
    const msgs = await messagesOf(t, buyer.userId);
    expect(msgs.map((m) => [m.kind, m.dedupe_key, m.sms_status])).toEqual([
      ['order_expiring', `order_expiring:${orderNo}`, 'sent'],
      ['order_expired', `order_expired:${orderNo}`, null],
    ]);
    expect(msgs[0]!.link).toBe(`/object-buy?goodsId=${goodsId}&orderNo=${orderNo}`);
    expect((await noticeOutbox(t, buyer.userId)).map((r) => r.template)).toEqual(['order_expiring']);
    const zh = await list(buyer, {}, 'zh');
    expect(zh.data.list.map((m: any) => m.title)).toEqual(['订单已超时关闭', '订单即将超时']);
    expect(zh.data.list[1].body).toContain(`订单${orderNo}`);
    expect(await messagesOf(t, seller.userId)).toHaveLength(0);
  });

  it('orders expiring together: one pass tells each buyer once, their SMS in shared jobs; expired together: each buyer told once', async () => {
    const seller = await makeTrader(t);
    const buyers = [await makeTrader(t), await makeTrader(t), await makeTrader(t), await makeTrader(t)];
    for (const b of buyers) await givePhone(t, b);
    const orders: { orderNo: string; goodsId: number }[] = [];
    for (const b of buyers) {
      const { goodsId } = await makeGoods(t, release, seller);
      await listForSale(t, seller, goodsId, 2500);
      orders.push({ orderNo: (await createOrderFor(t, b, goodsId)).data.orderNo as string, goodsId });
    }
    const expiresAt = Number((await t.ctx.db.kysely.selectFrom('orders').select('expires_at').where('order_no', '=', orders[2]!.orderNo).executeTakeFirstOrThrow()).expires_at);
    t.clock.t = expiresAt - 30_000;
    expect(await notifyExpiringOrders(t.ctx)).toBeGreaterThanOrEqual(4);
    expect(await notifyExpiringOrders(t.ctx)).toBe(0);
    const told = await Promise.all(buyers.map((b) => messagesOf(t, b.userId)));
    told.forEach((m, i) => {
      expect(m.map((x) => [x.kind, x.dedupe_key, x.link])).toEqual([['order_expiring', `order_expiring:${orders[i]!.orderNo}`, `/object-buy?goodsId=${orders[i]!.goodsId}&orderNo=${orders[i]!.orderNo}`]]);
      expect(JSON.parse(m[0]!.params)).toMatchObject({ orderNo: orders[i]!.orderNo, priceFen: 2500 });
    });
    const ids = told.map((m) => Number(m[0]!.id));
    const jobs = await t.ctx.db.kysely.selectFrom('jobs').select(['job_key', 'payload']).where('kind', '=', 'msg-sms').execute();
    const carried = (j: { payload: string }) => ((JSON.parse(j.payload).messageIds as number[] | undefined) ?? [JSON.parse(j.payload).messageId as number]);
    // Each message in exactly one job, and the messages of one pass share jobs (one per multi-row insert; on
    // SQLite the inserts come in power-of-two parts) instead of one job each.
    for (const id of ids) expect(jobs.filter((j) => carried(j).includes(id))).toHaveLength(1);
    expect(jobs.filter((j) => ids.some((id) => carried(j).includes(id))).length).toBeLessThan(ids.length);
    await runJobs(t);
    for (const b of buyers) expect((await noticeOutbox(t, b.userId)).map((r) => r.template)).toEqual(['order_expiring']);

    t.clock.t = expiresAt + 1;
    await expireDueOrders(t.ctx);
    await expireDueOrders(t.ctx);
    for (let i = 0; i < buyers.length; i++) {
      expect(await orderStatus(t, orders[i]!.orderNo)).toBe('expired');
      expect((await messagesOf(t, buyers[i]!.userId)).map((x) => [x.kind, x.dedupe_key])).toEqual([
        ['order_expiring', `order_expiring:${orders[i]!.orderNo}`],
        ['order_expired', `order_expired:${orders[i]!.orderNo}`],
      ]);
    }
  });

  it('drop reminders: subscribe before the start, one message N minutes before, never twice; refused after the start', async () => {
    const fan = await makeTrader(t);
    const other = await makeTrader(t);
    const drop = await makeDrop(t, { startInMs: 3600_000, priceFen: 1990 });
    const projectId = drop.projectId;
    const saleStartAt = Number((await t.ctx.db.kysely.selectFrom('projects').select('sale_start_at').where('id', '=', projectId).executeTakeFirstOrThrow()).sale_start_at);
    expect(await call(t, `${M}/remind/status`, { projectId }, fan.h)).toMatchObject({ status: '000000', data: { projectId, subscribed: false, saleStartAt, remindAt: null, notified: false } });
    const on = await call(t, `${M}/remind`, { projectId }, fan.h);
    expect(on).toMatchObject({ status: '000000', message: 'you will be reminded before the sale starts', data: { subscribed: true, remindAt: saleStartAt - 10 * 60_000 } });
    expect((await call(t, `${M}/remind`, { projectId, on: true }, fan.h)).status).toBe('000000'); // twice: no-op
    expect((await call(t, `${M}/remind`, { projectId }, other.h)).status).toBe('000000');
    expect((await call(t, `${M}/remind`, { projectId, on: false }, other.h)).data.subscribed).toBe(false);
    expect(await call(t, `${M}/remind`, { projectId: 99_999_999 }, fan.h)).toMatchObject({ http: 404, status: '1404' });
    expect(await call(t, `${M}/remind`, { projectId: 'x' }, fan.h)).toMatchObject({ http: 400, status: '1001' });
    expect(await call(t, `${M}/remind`, { projectId })).toMatchObject({ status: '1100' });

    expect(await notifyDropReminders(t.ctx)).toBe(0);
    t.clock.t = saleStartAt - 9 * 60_000;
    expect(await notifyDropReminders(t.ctx)).toBe(1);
    expect(await notifyDropReminders(t.ctx)).toBe(0);
    await runJobs(t);
    const msgs = await messagesOf(t, fan.userId);
    expect(msgs).toHaveLength(1);
    expect(msgs[0]).toMatchObject({ kind: 'drop_starting', link: `/projects/dropping/${projectId}`, dedupe_key: `drop_starting:${projectId}` });
    expect((await list(fan)).data.list[0].body).toMatch(/goes on sale at \d{4}-\d\d-\d\d \d\d:\d\d for ￥19\.90 each\.$/);
    expect(await messagesOf(t, other.userId)).toHaveLength(0);
    expect((await call(t, `${M}/remind/status`, { projectId }, fan.h)).data).toMatchObject({ subscribed: true, notified: true });
    t.clock.t = saleStartAt + 1;
    expect(await call(t, `${M}/remind`, { projectId }, other.h)).toMatchObject({ status: '1024', message: 'the sale has already started' });
  });

  it('drop reminders of several releases in one pass: each subscriber told once per release; a long-started release closes its subscriptions silently', async () => {
    const fans = [await makeTrader(t), await makeTrader(t), await makeTrader(t), await makeTrader(t)];
    const a = await makeDrop(t, { startInMs: 2 * 3600_000 });
    const b = await makeDrop(t, { startInMs: 2 * 3600_000 + 60_000 });
    const late = await makeDrop(t, { startInMs: 60_000 });
    const subscribe = async (u: Trader, projectId: number) => expect((await call(t, `${M}/remind`, { projectId }, u.h)).status).toBe('000000');
    for (const u of fans.slice(0, 3)) await subscribe(u, a.projectId);
    for (const u of fans.slice(2)) await subscribe(u, b.projectId);
    await subscribe(fans[0]!, late.projectId);
    const startA = Number((await t.ctx.db.kysely.selectFrom('projects').select('sale_start_at').where('id', '=', a.projectId).executeTakeFirstOrThrow()).sale_start_at);
    t.clock.t = startA - 9 * 60_000; // both within the 10-minute lead; `late` started ≈ 2 h ago
    expect(await notifyDropReminders(t.ctx)).toBeGreaterThanOrEqual(5);
    expect(await notifyDropReminders(t.ctx)).toBe(0);
    const keys = async (u: Trader) => (await messagesOf(t, u.userId)).map((m) => m.dedupe_key).sort();
    expect(await keys(fans[0]!)).toEqual([`drop_starting:${a.projectId}`]);
    expect(await keys(fans[1]!)).toEqual([`drop_starting:${a.projectId}`]);
    expect(await keys(fans[2]!)).toEqual([`drop_starting:${a.projectId}`, `drop_starting:${b.projectId}`].sort());
    expect(await keys(fans[3]!)).toEqual([`drop_starting:${b.projectId}`]);
    // every subscription is closed, the long-started one without a message
    const open = await t.ctx.db.kysely.selectFrom('drop_reminders').select('user_id').where('project_id', 'in', [a.projectId, b.projectId, late.projectId]).where('notified_at', 'is', null).execute();
    expect(open).toEqual([]);
  });

  it('a sweep pass that fails is done item by item: the others are told, the error still surfaces', async () => {
    const calls: number[][] = [];
    const mark = `sw${Date.now() % 1e9}`; // sms_outbox.mobile is varchar(20)
    const pass = sweepPass(t.ctx, [1, 2, 3], async (trx, items) => {
      calls.push([...items]);
      for (const i of items) await trx.insertInto('sms_outbox').values({ mobile: mark, type: String(i), code: '0', created_at: 0 }).execute();
      if (items.includes(2)) throw new Error('item 2 is bad');
      return items.map((i) => i);
    });
    await expect(pass).rejects.toThrow('item 2 is bad');
    expect(calls).toEqual([[1, 2, 3], [1], [2], [3]]);
    // the whole pass's rows and item 2's rolled back; items 1 and 3 committed
    const rows = await t.ctx.db.kysely.selectFrom('sms_outbox').select('type').where('mobile', '=', mark).orderBy('type').execute();
    expect(rows.map((r) => r.type)).toEqual(['1', '3']);
    expect(await sweepPass(t.ctx, [4, 5], async (_trx, items) => items.map((i) => (i === 4 ? null : i)))).toBe(1);
  });

  it('lottery result: the won / lost texts, once per user per release', async () => {
    const u = await makeTrader(t);
    const drop = await makeDrop(t, { startInMs: 3600_000 });
    await inTx(t.ctx, (trx) => notifyLotteryResults(t.ctx, trx, [{ userId: u.userId, projectId: drop.projectId, won: true, count: 2, deadlineAt: t.clock.t + 600_000 }]));
    await inTx(t.ctx, (trx) => notifyLotteryResults(t.ctx, trx, [{ userId: u.userId, projectId: drop.projectId, won: false }]));
    const l = await list(u);
    expect(l.data.total).toBe(1);
    expect(l.data.list[0]).toMatchObject({ kind: 'lottery_result', title: 'You won the lottery', link: `/projects/dropping/${drop.projectId}` });
    expect(l.data.list[0].body).toMatch(/you won the right to buy 2; please buy before \d{4}-/);
  });
});

describe('settings', () => {
  it('getmsgsetting defaults; submitmsg saves a subset; SMS off → no SMS, on → exactly one; in-app off → not listed', async () => {
    const u = await makeTrader(t);
    const d = await call(t, `${M}/getmsgsetting`, {}, u.h);
    expect(d.status).toBe('000000');
    expect(d.data.smsAvailable).toBe(false); // the inserted test phone is not a real number
    expect(d.data.items).toEqual([
      { kind: 'sold', inApp: true, sms: true },
      { kind: 'bid_received', inApp: true, sms: false },
      { kind: 'bid_accepted', inApp: true, sms: false },
      { kind: 'order_expiring', inApp: true, sms: true },
      { kind: 'order_expired', inApp: true, sms: false },
      { kind: 'order_refunded', inApp: true, sms: false },
      { kind: 'drop_starting', inApp: true, sms: false },
      { kind: 'lottery_result', inApp: true, sms: false },
      { kind: 'service_reply', inApp: true, sms: false },
      { kind: 'application_approved', inApp: true, sms: false },
      { kind: 'release_review', inApp: true, sms: false },
    ]);
    await givePhone(t, u);
    const saved = await call(t, `${M}/submitmsg`, { items: [{ kind: 'sold', sms: false }, { kind: 'bid_received', sms: true }] }, u.h);
    expect(saved).toMatchObject({ status: '000000', message: 'message settings saved', data: { smsAvailable: true } });
    expect(saved.data.items.slice(0, 2)).toEqual([{ kind: 'sold', inApp: true, sms: false }, { kind: 'bid_received', inApp: true, sms: true }]);
    expect((await call(t, `${M}/getmsgsetting`, {}, u.h)).data.items[0]).toEqual({ kind: 'sold', inApp: true, sms: false });
    for (const bad of [{}, { items: [] }, { items: [{ kind: 'nope', sms: true }] }, { items: [{ kind: 'sold', sms: 'yes' }] }, { items: 'x' }]) {
      expect(await call(t, `${M}/submitmsg`, bad, u.h)).toMatchObject({ http: 400, status: '1001' });
    }
    expect(await call(t, `${M}/submitmsg`, { items: [{ kind: 'sold', sms: true }] })).toMatchObject({ status: '1100' });

    const n = (key: string, kind: 'sold' | 'bid_received') => inTx(t.ctx, (trx) => notifyUser(t.ctx, trx, u.userId, kind, { name: 'a', serial: 1, priceFen: 100, incomeFen: 95, amountFen: 100 }, { dedupeKey: key }));
    const soldId = await n('sold:s1', 'sold');
    const bidId = await n('bid_received:b1', 'bid_received');
    await runJobs(t);
    await runJobs(t);
    const out = await noticeOutbox(t, u.userId);
    expect(out.map((r) => r.message_id)).toEqual([bidId]);
    expect((await messagesOf(t, u.userId)).find((m) => m.id === soldId)!.sms_status).toBeNull();

    await call(t, `${M}/submitmsg`, { items: [{ kind: 'bid_received', inApp: false }] }, u.h);
    await n('bid_received:b2', 'bid_received');
    await runJobs(t);
    const l = await list(u);
    expect(l.data.list.map((m: any) => m.kind)).toEqual(['bid_received', 'sold']); // b2 hidden
    expect(l.data.unread).toBe(2);
    expect(await noticeOutbox(t, u.userId)).toHaveLength(2); // SMS still on for bid_received
  });

  it('many notices in one call (a burst of sales): each user by their own settings, a notice repeated in the call or replayed makes one message', async () => {
    const [a, b, c] = [await makeTrader(t), await makeTrader(t), await makeTrader(t)];
    for (const u of [a, b, c]) await givePhone(t, u);
    expect((await call(t, `${M}/submitmsg`, { items: [{ kind: 'sold', sms: false }] }, b.h)).status).toBe('000000');
    expect((await call(t, `${M}/submitmsg`, { items: [{ kind: 'sold', inApp: false }] }, c.h)).status).toBe('000000');
    const notice = (u: Trader, key: string) => ({ userId: u.userId, kind: 'sold' as const, params: { name: 'n', serial: 1, priceFen: 100, incomeFen: 95, orderNo: key }, opts: { dedupeKey: `sold:${key}` } });
    const burst = [notice(a, 'x1'), notice(b, 'x2'), notice(a, 'x1'), notice(c, 'x3'), notice(a, 'x4')];
    const ids = await inTx(t.ctx, (trx) => notifyUsers(t.ctx, trx, burst));
    expect(ids.map((id) => id === null)).toEqual([false, false, true, false, false]);
    expect(new Set(ids.filter((id) => id !== null)).size).toBe(4);
    // replayed: nothing more
    expect(await inTx(t.ctx, (trx) => notifyUsers(t.ctx, trx, burst))).toEqual([null, null, null, null, null]);
    await runJobs(t);
    await runJobs(t);
    const byUser = async (u: Trader) => (await messagesOf(t, u.userId)).map((m) => ({ id: m.id, in_app: Number(m.in_app), sms: m.sms_status }));
    expect(await byUser(a)).toEqual(expect.arrayContaining([{ id: ids[0], in_app: 1, sms: 'sent' }, { id: ids[4], in_app: 1, sms: 'sent' }]));
    expect(await byUser(a)).toHaveLength(2);
    expect(await byUser(b)).toEqual([{ id: ids[1], in_app: 1, sms: null }]);
    expect(await byUser(c)).toEqual([{ id: ids[3], in_app: 0, sms: 'sent' }]);
    expect((await noticeOutbox(t, a.userId)).map((r) => r.message_id).sort()).toEqual([ids[0], ids[4]].sort());
    // SMS jobs carry the call's messages that want one (b's setting says no), a job per insert of messages, each done
    const smsJobs = await t.ctx.db.kysely.selectFrom('jobs').select(['job_key', 'payload', 'status']).where('job_key', 'in', ids.filter((id) => id !== null).map((id) => `msg-sms:${id}`)).execute();
    const carried = smsJobs.flatMap((j) => {
      const p = JSON.parse(j.payload);
      expect(j).toMatchObject({ job_key: `msg-sms:${p.messageId}`, status: 'done' });
      return (p.messageIds ?? [p.messageId]) as number[];
    });
    expect(carried.sort((x, y) => x - y)).toEqual([ids[0], ids[3], ids[4]].map(Number).sort((x, y) => x - y));
    expect(smsJobs.length).toBeLessThan(carried.length);
    expect(await noticeOutbox(t, b.userId)).toEqual([]);
    expect(await noticeOutbox(t, c.userId)).toHaveLength(1);
  });

  it('a failing SMS provider is retried and then sends once; a phone that cannot receive SMS is skipped', async () => {
    const u = await makeTrader(t);
    await givePhone(t, u);
    const real = t.ctx.sms.notify;
    let fails = 2;
    t.ctx.sms.notify = async (notices) => {
      if (fails-- > 0) throw new Error(`gateway down for ${notices[0]!.mobile}`);
      return real.call(t.ctx.sms, notices);
    };
    try {
      const id = await inTx(t.ctx, (trx) => notifyUser(t.ctx, trx, u.userId, 'sold', { name: 'a', serial: 1, priceFen: 100, incomeFen: 95 }, { dedupeKey: 'sold:retry' }));
      for (let i = 0; i < 3; i++) {
        await t.ctx.db.kysely.updateTable('jobs').set({ run_at: 0 }).where('job_key', '=', `msg-sms:${id}`).where('status', '=', 'pending').execute();
        await runJobs(t);
      }
      expect((await noticeOutbox(t, u.userId)).map((r) => r.message_id)).toEqual([id]);
      const job = await t.ctx.db.kysely.selectFrom('jobs').selectAll().where('job_key', '=', `msg-sms:${id}`).executeTakeFirstOrThrow();
      expect(job.status).toBe('done');
      expect(job.last_error ?? '').not.toMatch(/1\d{10}/); // the phone never lands in the job's error
    } finally {
      t.ctx.sms.notify = real;
    }
    // A job of several messages: the one the provider refuses is retried alone; the others are sent once.
    const [p, r] = [await makeTrader(t), await makeTrader(t)];
    const pPhone = await givePhone(t, p);
    await givePhone(t, r);
    let refuse = 1;
    // The provider answers per notice: p's is refused once, r's goes through.
    t.ctx.sms.notify = async (notices) => {
      const refused = notices.map((n) => n.mobile === pPhone && refuse-- > 0);
      const sent = await real.call(t.ctx.sms, notices.filter((_, i) => !refused[i]));
      return refused.map((no) => (no ? new Error('gateway refused') : sent.shift()!));
    };
    try {
      const [pid, rid] = await inTx(t.ctx, (trx) =>
        notifyUsers(t.ctx, trx, [p, r].map((u, i) => ({ userId: u.userId, kind: 'sold' as const, params: { name: 'b', serial: i }, opts: { dedupeKey: `sold:pair${i}` } }))),
      );
      await runJobs(t);
      expect((await messagesOf(t, p.userId)).map((m) => m.sms_status)).toEqual(['pending']);
      expect((await messagesOf(t, r.userId)).map((m) => m.sms_status)).toEqual(['sent']);
      await t.ctx.db.kysely.updateTable('jobs').set({ run_at: 0 }).where('job_key', '=', `msg-sms:${Math.min(pid!, rid!)}`).where('status', '=', 'pending').execute();
      await runJobs(t);
      expect((await noticeOutbox(t, p.userId)).map((x) => x.message_id)).toEqual([pid]);
      expect((await noticeOutbox(t, r.userId)).map((x) => x.message_id)).toEqual([rid]);
    } finally {
      t.ctx.sms.notify = real;
    }
    const gone = await makeTrader(t);
    await t.ctx.db.kysely.updateTable('users').set({ mobile: `x${gone.userId}` }).where('id', '=', gone.userId).execute();
    const id2 = await inTx(t.ctx, (trx) => notifyUser(t.ctx, trx, gone.userId, 'sold', { name: 'a' }, { dedupeKey: 'sold:gone' }));
    await runJobs(t);
    expect((await messagesOf(t, gone.userId)).find((m) => m.id === id2)!.sms_status).toBe('skipped');
    expect(await noticeOutbox(t, gone.userId)).toHaveLength(0);
  });
});

describe('msglist, unread, read', () => {
  it('pages newest first, filters by kind and unread, marks nothing by reading; read one / all; never another user', async () => {
    const u = await makeTrader(t);
    const v = await makeTrader(t);
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) {
      const kind = i % 2 ? 'bid_received' : 'sold';
      ids.push((await inTx(t.ctx, (trx) => notifyUser(t.ctx, trx, u.userId, kind, { name: `n${i}`, serial: i, priceFen: 100, incomeFen: 95, amountFen: 100 }, { dedupeKey: `k${i}`, now: t.clock.t + i })))!);
    }
    const vId = (await inTx(t.ctx, (trx) => notifyUser(t.ctx, trx, v.userId, 'sold', { name: 'v' }, { dedupeKey: 'k0' })))!;
    const p1 = await list(u, { pageNum: 1, pageSize: 3 });
    expect(p1.data).toMatchObject({ total: 7, unread: 7, pageSize: 3 });
    expect(p1.data.list.map((m: any) => m.id)).toEqual([ids[6], ids[5], ids[4]]);
    const p3 = await list(u, { pageNum: 3, pageSize: 3 });
    expect(p3.data.list.map((m: any) => m.id)).toEqual([ids[0]]);
    expect((await list(u, { kind: 'bid_received' })).data.total).toBe(3);
    expect((await list(u)).data.unread).toBe(7); // listing marked nothing read
    const unread = await call(t, `${M}/unread`, {}, u.h);
    expect(unread.data).toEqual({ count: 7, byKind: { sold: 4, bid_received: 3, bid_accepted: 0, order_expiring: 0, order_expired: 0, order_refunded: 0, drop_starting: 0, lottery_result: 0, service_reply: 0, application_approved: 0, release_review: 0 } });

    // another user's id is ignored
    const r0 = await call(t, `${M}/read`, { ids: [vId] }, u.h);
    expect(r0).toMatchObject({ status: '000000', data: { updated: 0, unread: 7 } });
    expect((await messagesOf(t, v.userId))[0]!.read_at).toBeNull();
    const r1 = await call(t, `${M}/read`, { ids: [ids[0], ids[1]] }, u.h);
    expect(r1).toMatchObject({ status: '000000', message: 'marked as read', data: { updated: 2, unread: 5 } });
    expect((await list(u, { unread: true })).data.total).toBe(5);
    const one = (await list(u, { pageSize: 50 })).data.list.find((m: any) => m.id === ids[0]);
    expect(one).toMatchObject({ read: true, readAt: t.clock.t });
    expect((await call(t, `${M}/read`, { all: true, kind: 'sold' }, u.h)).data).toEqual({ updated: 3, unread: 2 });
    expect((await call(t, `${M}/read`, { all: true }, u.h)).data).toEqual({ updated: 2, unread: 0 });
    expect((await call(t, `${M}/unread`, {}, v.h)).data.count).toBe(1);
    // bad input is 1001, never a 500
    for (const bad of [{}, { ids: [] }, { ids: ['x'] }, { ids: Array.from({ length: 101 }, (_, i) => i + 1) }, { all: 'maybe' }]) {
      expect(await call(t, `${M}/read`, bad, u.h)).toMatchObject({ http: 400, status: '1001' });
    }
    for (const bad of [{ kind: 'nope' }, { pageNum: 0 }, { pageSize: 'x' }, { unread: 'x' }]) {
      expect(await call(t, `${M}/msglist`, bad, u.h)).toMatchObject({ http: 400, status: '1001' });
    }
    for (const p of ['msglist', 'unread', 'read', 'getmsgsetting', 'stream/ticket']) {
      expect(await call(t, `${M}/${p}`, { all: true })).toMatchObject({ status: '1100' });
    }
  });
});
