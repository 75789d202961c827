import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentNotifyPaths } from '@cfx/contract/routes.ts';
import { signContent } from '../src/providers/payment/types.ts';
import { notifyUser } from '../src/modules/messages/notify-user.ts';
import { ledgerProblems } from '../src/modules/ledger/ledger.ts';
import { call, type TestApp } from './helpers.ts';
import { createOrderFor, listForSale, makeGoods, makeMarketApp, makeRelease, makeTrader, orderStatus, runJobs, topup, type FakeChain, type Release } from './market-helpers.ts';
import { balanceOf, openAccount, runWorker, securityCode, verifiedUser, withdrawal, type PayoutUser } from './payouts-helpers.ts';

/**
 * Account cancellation and the personal-data export against everything issue #11 added (SQLite, or
 * PostgreSQL with TEST_PG_URL): money on its way out (withdrawals, refunds to the original method)
 * blocks a cancellation and an open ticket does not; the export carries bank cards (masked), the
 * payout account, withdrawals, refunds, messages and their settings, reminders, follows, moments,
 * tickets with their threads, invite records (masked), lottery and whitelist entries, compose records
 * and gifts — never another person's data; the anonymisation deletes follows (the follower count
 * follows), message settings, reminders, and revokes the payout card binding (sealed data and ID
 * photos deleted, withdrawals kept).
 */
const DAY = 24 * 3600_000;
const A = '/payment/account/V1';
const PAYMENT_SECRET = 'test-sandbox-secret';
let t: TestApp & { chain: FakeChain };
let release: Release;

beforeAll(async () => {
  t = await makeMarketApp({ PAYOUT_SANDBOX_SECRET: 'test-payout-secret', PAYOUT_SANDBOX_DELAY_MS: '3000' });
  release = await makeRelease(t);
});
afterAll(async () => {
  await t?.close();
});

const cancelStatus = async (h: Record<string, string>) => (await call(t, '/api/user/profile/v1/cancel/status', {}, h)).data;
const creatorIdOf = async (userId: number) => Number((await t.ctx.db.kysely.selectFrom('creators').select('id').where('user_id', '=', userId).executeTakeFirstOrThrow()).id);
const followers = async (creatorId: number) => Number((await t.ctx.db.kysely.selectFrom('creator_stats').select('followers').where('creator_id', '=', creatorId).executeTakeFirst())?.followers ?? 0);

/** A release whose sale starts tomorrow (reminders can be set). */
async function upcomingRelease(): Promise<Release> {
  const r = await makeRelease(t);
  await t.ctx.db.kysely.updateTable('projects').set({ sale_start_at: t.clock.t + DAY }).where('id', '=', r.projectId).execute();
  return r;
}

async function postForm(path: string, params: Record<string, string>) {
  const res = await t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(params).toString() });
  return res.body;
}

describe('cancellation blockers: money on its way out', () => {
  it('a withdrawal requested or processing blocks the cancellation until it is paid; an open ticket does not', async () => {
    const u = await verifiedUser(t);
    await openAccount(t, u);
    await topup(t, { h: u.h } as never, 20_000);
    const ticket = await call(t, '/api/user/service/v1/ticket/create', { category: 'payment', subject: '提现多久到账', content: '请问提现多久到账？' }, u.h);
    expect(ticket.status, ticket.message).toBe('000000');
    const w = await call(t, `${A}/withdraw`, { amountFen: 20_000, smsCode: await securityCode(t, u) }, u.h);
    expect(w.data, w.message).toMatchObject({ status: 'processing' });
    expect(await balanceOf(t, u.h)).toBe(0);

    expect((await cancelStatus(u.h)).blockers).toEqual([{ kind: 'payouts', count: 1, amountFen: null }]);
    const en = await call(t, '/api/user/profile/v1/cancel/apply', { smsCode: await securityCode(t, u), confirm: true }, u.h);
    expect([en.status, en.message]).toEqual(['1032', 'the account still holds assets or money and cannot be cancelled yet: 1 withdrawal(s) or refund(s) in progress']);
    expect(en.data.blockers).toEqual([{ kind: 'payouts', count: 1, amountFen: null }]);
    const zh = await call(t, '/api/user/profile/v1/cancel/apply', { smsCode: await securityCode(t, u), confirm: true }, { token: u.token });
    expect(zh.message).toBe('账户中还有以下资产或资金未处理，暂不能注销：处理中的提现或退款1笔');

    // Paid by the sandbox bank: nothing is on its way any more; the open ticket does not block.
    t.clock.t += 3000;
    await runWorker(t);
    expect((await withdrawal(t, w.data.withdrawNo)).status).toBe('succeeded');
    expect((await t.ctx.db.kysely.selectFrom('tickets').select('status').where('id', '=', ticket.data.id).executeTakeFirstOrThrow()).status).toBe('open');
    expect((await cancelStatus(u.h)).blockers).toEqual([]);
  });

  it('a refund of a stray payment to its original method blocks until it is done', async () => {
    const seller = await makeTrader(t);
    const g = await makeGoods(t, release, seller);
    await listForSale(t, seller, g.goodsId, 6600);
    const buyer = await makeTrader(t);
    const orderNo = (await createOrderFor(t, buyer, g.goodsId)).data.orderNo as string;
    const notify = (tradeNo: string) => {
      const p = { out_trade_no: orderNo, trade_no: tradeNo, total_amount: '66.00', trade_status: 'TRADE_SUCCESS', sign_type: 'HMAC-SHA256' };
      return { ...p, sign: crypto.createHmac('sha256', PAYMENT_SECRET).update(signContent(p)).digest('hex') };
    };
    expect(await postForm(PaymentNotifyPaths.sandbox, notify(`SBXa${orderNo}`))).toBe('success');
    expect(await postForm(PaymentNotifyPaths.sandbox, notify(`SBXb${orderNo}`))).toBe('success'); // a duplicate: credited, refunded automatically
    await runWorker(t); // settles the order and submits the refund
    expect(await orderStatus(t, orderNo)).toBe('completed');
    expect((await t.ctx.db.kysely.selectFrom('stray_refunds').select('status').where('order_no', '=', orderNo).executeTakeFirstOrThrow()).status).toBe('processing');
    expect((await cancelStatus(buyer.h)).blockers).toEqual([{ kind: 'payouts', count: 1, amountFen: null }]);
    t.clock.t += 3000;
    await runWorker(t);
    expect((await t.ctx.db.kysely.selectFrom('stray_refunds').select('status').where('order_no', '=', orderNo).executeTakeFirstOrThrow()).status).toBe('succeeded');
    expect((await cancelStatus(buyer.h)).blockers).toEqual([]);
    expect(await ledgerProblems(t.ctx.db.kysely)).toEqual([]);
  });
});

describe('the personal-data export (PIPL) covers issue #11', () => {
  it('bank cards masked, payout account, withdrawals, messages and settings, reminders, follows, moments, tickets, invites, lottery, whitelist, compose, gifts — and nobody else’s data', async () => {
    const u = await verifiedUser(t, '李四');
    const k = t.ctx.db.kysely;
    expect((await call(t, '/dev/make-creator', {}, u.h)).status).toBe('000000');
    const { cardNo, mobile: reservedMobile } = await openAccount(t, u);
    await topup(t, { h: u.h } as never, 5000);
    const w = await call(t, `${A}/withdraw`, { amountFen: 2000, smsCode: await securityCode(t, u) }, u.h);
    expect(w.status, w.message).toBe('000000');
    // message center: a setting, a message
    expect((await call(t, '/api/user/message/v1/submitmsg', { items: [{ kind: 'bid_received', sms: true }] }, u.h)).status).toBe('000000');
    await notifyUser(t.ctx, k, u.userId, 'order_expired', { orderNo: 'MO-export-1' }, { dedupeKey: 'export-test' });
    // a reminder, a follow, a moment, a ticket with a reply
    const soon = await upcomingRelease();
    expect((await call(t, '/api/user/message/v1/remind', { projectId: soon.projectId, on: true }, u.h)).status).toBe('000000');
    const creatorId = await creatorIdOf(release.creatorUserId);
    expect((await call(t, '/api/follow/v1/follow', { creatorId, follow: true }, u.h)).status).toBe('000000');
    const moment = await call(t, '/api/user/creator/v1/addCreatorFriendsMoments', { content: '<p>新作预告</p>', imageKeys: [] }, u.h);
    expect(moment.status, moment.message).toBe('000000');
    const ticket = await call(t, '/api/user/service/v1/ticket/create', { category: 'account', subject: '导出测试', content: '工单内容甲' }, u.h);
    expect(ticket.status, ticket.message).toBe('000000');
    expect((await call(t, '/api/user/service/v1/ticket/reply', { id: ticket.data.id, content: '补充说明乙' }, u.h)).status).toBe('000000');
    // someone I invited; lottery and whitelist entries, a compose, a gift each way (another user's side must not show)
    const invitee = await makeTrader(t);
    await k.updateTable('users').set({ invited_by: u.userId }).where('id', '=', invitee.userId).execute();
    const inviteeMobile = (await k.selectFrom('users').select('mobile').where('id', '=', invitee.userId).executeTakeFirstOrThrow()).mobile;
    const now = t.clock.t;
    await k.insertInto('drop_lottery_entries').values({ project_id: release.projectId, entry_no: 7, identity_digest: 'e'.repeat(64), user_id: u.userId, masked_account: '138****0000', won: 1, created_at: now }).execute();
    await k.insertInto('drop_whitelist').values({ project_id: release.projectId, user_id: u.userId, quota: 3, created_at: now, updated_at: now }).execute();
    const rule = await k
      .insertInto('compose_rules')
      .values({ name: '三合一', description: '', result_project_id: release.projectId, result_name: '合成品', result_image: '', result_attributes: '[]', ingredients: '[]', start_at: now, end_at: null, max_times: 10, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await k
      .insertInto('compose_records')
      .values({ compose_no: 'CP-export-1', rule_id: Number(rule.id), user_id: u.userId, owner_address: 'cfx:aaexport', goods_ids: '[1,2,3]', burn_token_ids: '["1","2","3"]', result_serial: 1, result_token_id: '900', status: 'completed', signature: null, chain_tx_id: null, tx_hash: '0xcompose', result_goods_id: null, fail_reason: null, expires_at: null, created_at: now, updated_at: now })
      .execute();
    const other = await makeTrader(t);
    const mine = await makeGoods(t, release, other);
    const theirs = await makeGoods(t, release, u as never);
    const gift = (no: string, goodsId: number, from: { userId: number; address: string }, to: { userId: number; address: string }) =>
      k.insertInto('goods_transfers').values({ transfer_no: no, kind: 'gift', goods_id: goodsId, token_id: String(goodsId), from_user_id: from.userId, to_user_id: to.userId, from_address: from.address, to_address: to.address, status: 'done', tx_hash: `0x${no}`, created_at: now, expires_at: now + DAY, done_at: now }).execute();
    const myAddress = 'cfx:aamyaddressofthisuser';
    await gift('GF-in-1', mine.goodsId, other, { userId: u.userId, address: myAddress });
    await gift('GF-out-1', theirs.goodsId, { userId: u.userId, address: myAddress }, other);

    const r = await call(t, '/api/user/profile/v1/export/apply', {}, u.h);
    expect(r.status, r.message).toBe('000000');
    const res = await t.app.inject({ method: 'GET', url: r.data.downloadUrl });
    expect(res.statusCode).toBe(200);
    const data = res.json();
    const text = res.body;

    expect(data.bankCards.items).toHaveLength(1);
    expect(data.bankCards.items[0]).toMatchObject({ bankName: '中国工商银行', status: 'active', cardNo: expect.stringMatching(new RegExp(`\\*{4}.*${cardNo.slice(-4)}$`)) });
    expect(data.bankCards.items[0].reservedMobile).not.toBe(reservedMobile);
    expect(data.payoutAccount).toMatchObject({ state: 'active', address: null, addressIncluded: false, idPhotos: [{ side: 'back' }, { side: 'front' }] });
    expect(data.withdrawals.items).toMatchObject([{ withdrawNo: w.data.withdrawNo, amountFen: 2000, status: 'processing', cardNo: data.bankCards.items[0].cardNo }]);
    expect(data.refunds).toEqual({ truncated: false, items: [] });
    expect(data.messages.items).toHaveLength(1);
    expect(data.messages.items[0]).toMatchObject({ kind: 'order_expired' });
    expect(data.messages.items[0].body).toContain('MO-export-1');
    expect(data.messageSettings).toMatchObject([{ kind: 'bid_received', sms: true }]);
    expect(data.dropReminders.items).toMatchObject([{ projectId: soon.projectId, notifiedAt: null }]);
    expect(data.follows.items).toMatchObject([{ creatorId }]);
    expect(data.moments.items).toMatchObject([{ text: '新作预告', deletedAt: null }]);
    expect(data.tickets.items).toHaveLength(1);
    expect(data.tickets.items[0]).toMatchObject({ subject: '导出测试', status: 'open' });
    expect(data.tickets.items[0].messages.map((m: { author: string; content: string }) => [m.author, m.content])).toEqual([['user', '工单内容甲'], ['user', '补充说明乙']]);
    expect(data.inviteRecords.items).toHaveLength(1);
    expect(data.inviteRecords.items[0].mobile).toMatch(/\*{4}/);
    expect(data.lotteryEntries.items).toMatchObject([{ projectId: release.projectId, entryNo: 7, won: true }]);
    expect(data.whitelistEntries.items).toMatchObject([{ projectId: release.projectId, quota: 3 }]);
    expect(data.composeRecords.items).toMatchObject([{ composeNo: 'CP-export-1', recipe: '三合一', goodsIds: [1, 2, 3], resultTokenId: '900', status: 'completed' }]);
    expect(data.transfers.items.map((x: Record<string, unknown>) => [x.transferNo, x.direction, x.fromAddress, x.toAddress]).sort()).toEqual([
      ['GF-in-1', 'received', null, myAddress],
      ['GF-out-1', 'sent', myAddress, null],
    ]);
    for (const foreign of [cardNo, reservedMobile, inviteeMobile, other.address, '朝阳区建国路88号']) expect(text, foreign).not.toContain(foreign);

    // With the security code the payout account's address is included (like the ID number).
    t.clock.t += DAY;
    const full = await call(t, '/api/user/profile/v1/export/apply', { smsCode: await securityCode(t, u) }, u.h);
    const fullData = (await t.app.inject({ method: 'GET', url: full.data.downloadUrl })).json();
    expect(fullData.payoutAccount).toMatchObject({ address: '朝阳区建国路88号', addressIncluded: true });
    expect(JSON.stringify(fullData)).not.toContain(cardNo);
  });
});

describe('anonymisation after the cooling-off period', () => {
  it('deletes follows (count follows), message settings and reminders, revokes the card binding and its sealed data and ID photos; withdrawals stay', async () => {
    const u: PayoutUser = await verifiedUser(t, '王五');
    const k = t.ctx.db.kysely;
    const { cardNo } = await openAccount(t, u);
    await topup(t, { h: u.h } as never, 3000);
    const w = await call(t, `${A}/withdraw`, { amountFen: 3000, smsCode: await securityCode(t, u) }, u.h);
    t.clock.t += 3000;
    await runWorker(t);
    expect((await withdrawal(t, w.data.withdrawNo)).status).toBe('succeeded');
    const creatorId = await creatorIdOf(release.creatorUserId);
    const before = await followers(creatorId);
    expect((await call(t, '/api/follow/v1/follow', { creatorId, follow: true }, u.h)).status).toBe('000000');
    expect(await followers(creatorId)).toBe(before + 1);
    expect((await call(t, '/api/user/message/v1/submitmsg', { items: [{ kind: 'sold', sms: false }] }, u.h)).status).toBe('000000');
    const soon = await upcomingRelease();
    expect((await call(t, '/api/user/message/v1/remind', { projectId: soon.projectId, on: true }, u.h)).status).toBe('000000');
    const photoKeys = (await k.selectFrom('payout_identity').innerJoin('uploads', 'uploads.id', 'payout_identity.upload_id').select('uploads.key').where('payout_identity.user_id', '=', u.userId).execute()).map((p) => p.key);
    expect(photoKeys).toHaveLength(2);
    for (const key of photoKeys) expect(await t.ctx.storage.get(key)).toBeDefined();

    expect((await cancelStatus(u.h)).blockers).toEqual([]);
    const r = await call(t, '/api/user/profile/v1/cancel/apply', { smsCode: await securityCode(t, u), confirm: true }, u.h);
    expect(r.status, r.message).toBe('000000');
    t.clock.t += 15 * DAY + 1;
    await runJobs(t); // the sweep enqueues the job
    await runJobs(t); // the job runs
    expect((await k.selectFrom('users').select('cancelled_at').where('id', '=', u.userId).executeTakeFirstOrThrow()).cancelled_at).not.toBeNull();

    expect(await k.selectFrom('follows').select('creator_id').where('user_id', '=', u.userId).execute()).toEqual([]);
    expect(await followers(creatorId)).toBe(before);
    expect(await k.selectFrom('message_settings').select('kind').where('user_id', '=', u.userId).execute()).toEqual([]);
    expect(await k.selectFrom('drop_reminders').select('project_id').where('user_id', '=', u.userId).execute()).toEqual([]);
    const cards = await k.selectFrom('payout_cards').selectAll().where('user_id', '=', u.userId).execute();
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ status: 'unbound', card_sealed: '', mobile_sealed: '', card_digest: '', ended_at: t.clock.t });
    expect(cards[0]!.card_masked.endsWith(cardNo.slice(-4))).toBe(true);
    expect(await k.selectFrom('payout_card_requests').select('id').where('user_id', '=', u.userId).execute()).toEqual([]);
    expect((await k.selectFrom('payout_accounts').select('address_sealed').where('user_id', '=', u.userId).executeTakeFirstOrThrow()).address_sealed).toBe('');
    expect(await k.selectFrom('payout_identity').select('side').where('user_id', '=', u.userId).execute()).toEqual([]);
    expect(await k.selectFrom('uploads').select('id').where('key', 'in', photoKeys).execute()).toEqual([]);
    for (const key of photoKeys) expect(await t.ctx.storage.get(key)).toBeUndefined();
    // Kept for accounting: the withdrawal, pointing at the masked card.
    expect(await withdrawal(t, w.data.withdrawNo)).toMatchObject({ status: 'succeeded', card_id: cards[0]!.id, card_masked: cards[0]!.card_masked });
    // The same card number can be bound by someone else now (no active binding, no digest left).
    const next = await verifiedUser(t);
    await openAccount(t, next, cardNo);
    expect(await ledgerProblems(k)).toEqual([]);
  });
});
