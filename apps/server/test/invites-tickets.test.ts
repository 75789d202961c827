import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvitePaths, SettledPaths, TicketPaths } from '@cfx/contract/routes.ts';
import { TICKET_LIMITS } from '@cfx/contract/ticket-rules.ts';
import { closeTicket, replyTicket } from '../src/modules/tickets/transitions.ts';
import { API, b64, call, makeApp, register, type TestApp } from './helpers.ts';
import { png, upload } from './upload-helpers.ts';

/**
 * Invite records and customer-service tickets on a real app and database (SQLite, or PostgreSQL
 * with TEST_PG_URL): only my invitees, masked; the ticket lifecycle open → answered → closed →
 * reopened with its thread, ownership of the related order and of attachments, the staff side
 * (replyTicket / closeTicket), the unread indicator and the rate limits.
 */
let t: TestApp;
const EN = { lang: 'en' };
const DAY = 86_400_000;

beforeAll(async () => {
  t = await makeApp();
});
afterAll(async () => {
  await t?.close();
});

const H = (token: string) => ({ token, lang: 'en' });
/** A valid GB 11643 number of an adult born on 1990-01-01 (region 110101); `seq` is 3 digits. */
function adultId(seq: string): string {
  const first17 = `11010119900101${seq}`;
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...first17].reduce((acc, c, i) => acc + Number(c) * w[i]!, 0);
  return first17 + '10X98765432'[sum % 11];
}
async function inviteCodeOf(token: string): Promise<string> {
  const r = await call(t, '/api/user/v1/getinvitecode', {}, H(token));
  return r.data.inviteCode;
}
async function userIdOf(mobile: string): Promise<number> {
  const u = await t.ctx.db.kysely.selectFrom('users').select('id').where('mobile', '=', mobile).executeTakeFirstOrThrow();
  return Number(u.id);
}

describe('invite records', () => {
  it('needs a login', async () => {
    expect(await call(t, InvitePaths.records, {}, EN)).toMatchObject({ status: '1100' });
  });

  it('lists only the users I invited, newest first, masked, with totals and paging', async () => {
    const me = await register(t);
    const other = await register(t);
    const code = await inviteCodeOf(me.token);
    const a = await register(t, undefined, 'abc123!', { inviteCode: code });
    t.clock.t += 1000;
    const b = await register(t, undefined, 'abc123!', { inviteCode: code.toLowerCase() });
    t.clock.t += 1000;
    const c = await register(t, undefined, 'abc123!', { inviteCode: code });
    await register(t, undefined, 'abc123!', { inviteCode: await inviteCodeOf(other.token) });
    // b finished the real-name verification (the sandbox KYC).
    const realname = await call(t, '/api/user/profile/v1/submitrealname', { name: '李四', idNumber: adultId('517') }, H(b.token));
    expect(realname).toMatchObject({ status: '000000' });

    const r = await call(t, InvitePaths.records, { pageNum: 1, pageSize: 2 }, H(me.token));
    expect(r).toMatchObject({ status: '000000', data: { total: 3, invitedCount: 3, realnameCount: 1, inviteCode: code, pageNum: 1, pageSize: 2 } });
    expect(r.data.list).toHaveLength(2);
    const mask = (m: string) => `${m.slice(0, 3)}****${m.slice(-4)}`;
    expect(r.data.list[0]).toEqual({ mobile: mask(c.mobile), nickname: expect.any(String), registeredAt: expect.any(Number), isRealname: '0' });
    expect(r.data.list[1]).toMatchObject({ mobile: mask(b.mobile), isRealname: '1' });
    expect(r.data.list[0].registeredAt).toBeGreaterThan(r.data.list[1].registeredAt);
    // Nothing else of the invitee leaves the server: not the full phone, not the account id.
    const text = JSON.stringify(r.data);
    for (const u of [a, b, c]) expect(text).not.toContain(u.mobile);
    expect(Object.keys(r.data.list[0]).sort()).toEqual(['isRealname', 'mobile', 'nickname', 'registeredAt']);

    const p2 = await call(t, InvitePaths.records, { pageNum: 2, pageSize: 2 }, H(me.token));
    expect(p2.data.list).toHaveLength(1);
    expect(p2.data.list[0].mobile).toBe(mask(a.mobile));
    // The other inviter sees only their own invitee; a user who invited nobody sees an empty list.
    expect((await call(t, InvitePaths.records, {}, H(other.token))).data).toMatchObject({ total: 1, invitedCount: 1 });
    expect((await call(t, InvitePaths.records, {}, H(a.token))).data).toMatchObject({ list: [], total: 0, realnameCount: 0 });
  });

  it('refuses bad paging with the envelope', async () => {
    const me = await register(t);
    expect(await call(t, InvitePaths.records, { pageNum: 0 }, H(me.token))).toMatchObject({ status: '1001' });
    expect(await call(t, InvitePaths.records, { pageNum: 'x' }, H(me.token))).toMatchObject({ status: '1001' });
  });
});

async function insertOrder(buyer: number, seller: number, orderNo: string) {
  const now = t.clock.t;
  await t.ctx.db.kysely
    .insertInto('orders')
    .values({
      order_no: orderNo, kind: 'market', listing_id: null, goods_id: null, buyer_user_id: buyer, seller_user_id: seller, buyer_address: 'cfx:x',
      price_fen: 100, commission_fen: 5, royalty_fen: 0, royalty_user_id: null, seller_income_fen: 95, status: 'completed', pay_method: 'balance',
      provider_trade_no: null, expires_at: now, chain_tx_id: null, tx_hash: null, fail_reason: null, created_at: now, paid_at: now, completed_at: now,
      closed_at: null, closed_by: null, project_id: null, quantity: null, unit_price_fen: null, identity_digest: null,
    })
    .execute();
}

const ticket = (extra: Record<string, unknown> = {}) => ({ category: 'order', subject: '订单未到账', content: '我的订单已付款，但藏品还没有到账，请帮忙查看。', ...extra });

describe('tickets', () => {
  let staffId: number;
  beforeAll(async () => {
    const staff = await register(t);
    staffId = await userIdOf(staff.mobile);
  });

  it('need a login', async () => {
    for (const p of [TicketPaths.create, TicketPaths.list, TicketPaths.detail, TicketPaths.reply, TicketPaths.close, TicketPaths.reopen, TicketPaths.unread]) {
      expect(await call(t, p, { id: 1 }, EN)).toMatchObject({ status: '1100' });
    }
  });

  it('refuses a broken form with the first rule it breaks', async () => {
    const u = await register(t);
    const cases: [Record<string, unknown>, string][] = [
      [{ category: 'bogus' }, 'please choose what the question is about'],
      [{ subject: '  ' }, 'please enter a subject (1-60 characters)'],
      [{ subject: 'x'.repeat(61) }, 'please enter a subject (1-60 characters)'],
      [{ subject: 'a\nb' }, 'please enter a subject (1-60 characters)'],
      [{ content: '' }, 'please describe the question (1-2000 characters)'],
      [{ content: '字'.repeat(2001) }, 'please describe the question (1-2000 characters)'],
      [{ attachmentKeys: ['a', 'b', 'c', 'd'] }, 'at most 3 images can be attached'],
      [{ orderNo: 'no spaces' }, 'the order number is not valid'],
    ];
    for (const [extra, message] of cases) expect(await call(t, TicketPaths.create, ticket(extra), H(u.token))).toMatchObject({ status: '1001', message });
    // 2000 characters (汉字 count once) is fine.
    expect((await call(t, TicketPaths.create, ticket({ content: '字'.repeat(2000) }), H(u.token))).status).toBe('000000');
    // Unknown fields of a wrong type are refused by the schema, never a 500.
    expect(await call(t, TicketPaths.create, { ...ticket(), attachmentKeys: 'x' }, H(u.token))).toMatchObject({ status: '1001' });
  });

  it('runs the whole lifecycle with the thread, unread indicator and staff actions', async () => {
    const u = await register(t);
    const uid = await userIdOf(u.mobile);
    const seller = await register(t);
    await insertOrder(uid, await userIdOf(seller.mobile), `T${uid}A`);
    const shot = await upload(t, TicketPaths.upload, u.token, { data: png(64, 48), filename: '截图.png' });
    expect(shot).toMatchObject({ status: '000000', data: { type: 'image/png', name: '截图.png' } });
    expect(shot.data.key).toMatch(/^private\/ticket\//);

    const created = await call(t, TicketPaths.create, ticket({ orderNo: ` T${uid}A `, attachmentKeys: [shot.data.key] }), H(u.token));
    expect(created).toMatchObject({ status: '000000', message: 'ticket submitted; customer service will reply soon', data: { status: 'open', orderNo: `T${uid}A`, category: 'order', subject: '订单未到账', unread: 0 } });
    const id = created.data.id as number;
    expect(created.data.messages).toEqual([
      { id: expect.any(Number), author: 'user', content: ticket().content, createdAt: t.clock.t, attachments: [{ key: shot.data.key, url: expect.stringContaining(encodeURIComponent(shot.data.key)), name: '截图.png', type: 'image/png', size: shot.data.size }] },
    ]);
    // The attachment is private: its owner reads it, nobody else does.
    const file = await t.app.inject({ method: 'GET', url: API + created.data.messages[0].attachments[0].url.slice(API.length), headers: { token: u.token } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    const stranger = await register(t);
    const denied = await t.app.inject({ method: 'GET', url: `${API}${SettledPaths.file}?key=${encodeURIComponent(shot.data.key)}`, headers: { token: stranger.token } });
    expect(denied.json()).toMatchObject({ status: '1404' });
    // Another user cannot read, answer, close or reopen my ticket: the same 1404 as a missing one.
    for (const p of [TicketPaths.detail, TicketPaths.close, TicketPaths.reopen]) expect(await call(t, p, { id }, H(stranger.token))).toMatchObject({ status: '1404', message: 'ticket not found' });
    expect(await call(t, TicketPaths.reply, { id, content: 'hi' }, H(stranger.token))).toMatchObject({ status: '1404' });

    // Staff answer: answered, one unread, shown in the list and the indicator.
    t.clock.t += 60_000;
    const answered = await replyTicket(t.ctx, staffId, id, '  您好，订单正在上链，预计10分钟内到账。 ');
    expect(answered).toMatchObject({ status: 'answered', unread: 1 });
    expect(answered.messages.at(-1)).toMatchObject({ author: 'staff', content: '您好，订单正在上链，预计10分钟内到账。', attachments: [] });
    expect((await call(t, TicketPaths.unread, {}, H(u.token))).data).toEqual({ unreadTickets: 1 });
    // …and in the message center (modules/messages), with a link to the ticket.
    const notices = await call(t, '/api/user/message/v1/msglist', { kind: 'service_reply' }, H(u.token));
    expect(notices.data.list).toHaveLength(1);
    expect(notices.data.list[0]).toMatchObject({ kind: 'service_reply', title: 'Customer service replied', link: `/personal-center/contact-service?id=${id}` });
    expect(notices.data.list[0].body).toContain('订单未到账');
    const list = await call(t, TicketPaths.list, {}, H(u.token));
    expect(list.data).toMatchObject({ total: 1, unreadTickets: 1, list: [{ id, status: 'answered', unread: 1 }] });
    // Opening the ticket marks the reply read.
    const detail = await call(t, TicketPaths.detail, { id }, H(u.token));
    expect(detail.data).toMatchObject({ unread: 0, status: 'answered' });
    expect(detail.data.messages.map((m: { author: string }) => m.author)).toEqual(['user', 'staff']);
    // Staff are never named to the user: a message has no author id.
    expect(Object.keys(detail.data.messages[1]).sort()).toEqual(['attachments', 'author', 'content', 'createdAt', 'id']);
    expect((await call(t, TicketPaths.unread, {}, H(u.token))).data).toEqual({ unreadTickets: 0 });

    // The user replies: open again.
    const replied = await call(t, TicketPaths.reply, { id, content: '好的，谢谢' }, H(u.token));
    expect(replied).toMatchObject({ status: '000000', message: 'reply sent', data: { status: 'open' } });
    expect(replied.data.messages).toHaveLength(3);

    // The user closes it; replying then needs a reopen; closing twice is refused.
    const closed = await call(t, TicketPaths.close, { id }, H(u.token));
    expect(closed).toMatchObject({ status: '000000', data: { status: 'closed', closedBy: 'user', closedAt: t.clock.t, reopenUntil: t.clock.t + TICKET_LIMITS.reopenDays * DAY } });
    expect(await call(t, TicketPaths.reply, { id, content: '还有一个问题' }, H(u.token))).toMatchObject({ status: '1041', message: 'the ticket is closed; reopen it first' });
    expect(await call(t, TicketPaths.close, { id }, H(u.token))).toMatchObject({ status: '1041', message: 'the ticket is already closed' });
    await expect(replyTicket(t.ctx, staffId, id, '补充')).rejects.toMatchObject({ status: '1041' });

    const reopened = await call(t, TicketPaths.reopen, { id }, H(u.token));
    expect(reopened).toMatchObject({ status: '000000', message: 'ticket reopened', data: { status: 'open', closedAt: null, closedBy: null, reopenUntil: null } });
    expect(await call(t, TicketPaths.reopen, { id }, H(u.token))).toMatchObject({ status: '1041', message: 'the ticket is not closed' });

    // Staff close it; after the reopen window it stays closed.
    const staffClosed = await closeTicket(t.ctx, staffId, id);
    expect(staffClosed).toMatchObject({ status: 'closed', closedBy: 'staff' });
    await expect(closeTicket(t.ctx, staffId, id)).rejects.toMatchObject({ status: '1041' });
    t.clock.t += TICKET_LIMITS.reopenDays * DAY + 1;
    const again = await call(t, '/api/user/v1/login', { mobile: u.mobile, pwd: b64(u.password), loginType: 1 }); // the session expired meanwhile
    const u2 = again.data.token as string;
    expect(await call(t, TicketPaths.reopen, { id }, H(u2))).toMatchObject({ status: '1041', message: 'the ticket closed more than 7 days ago; please open a new one' });

    // Every status change is in the audit trail, by whom.
    const events = await t.ctx.db.kysely.selectFrom('ticket_events').select(['from_status', 'to_status', 'actor']).where('ticket_id', '=', id).orderBy('id').execute();
    expect(events).toEqual([
      { from_status: null, to_status: 'open', actor: 'user' },
      { from_status: 'open', to_status: 'answered', actor: 'staff' },
      { from_status: 'answered', to_status: 'open', actor: 'user' },
      { from_status: 'open', to_status: 'closed', actor: 'user' },
      { from_status: 'closed', to_status: 'open', actor: 'user' },
      { from_status: 'open', to_status: 'closed', actor: 'staff' },
    ]);
    // Filters by status.
    expect((await call(t, TicketPaths.list, { status: 'closed' }, H(u2))).data.total).toBe(1);
    expect((await call(t, TicketPaths.list, { status: 'open' }, H(u2))).data.total).toBe(0);
  });

  it('takes a related order only when it is mine (bought or sold)', async () => {
    const u = await register(t);
    const uid = await userIdOf(u.mobile);
    const v = await register(t);
    const vid = await userIdOf(v.mobile);
    const w = await register(t);
    await insertOrder(vid, uid, `S${uid}`); // I sold it
    await insertOrder(vid, await userIdOf(w.mobile), `X${vid}`); // not mine
    expect((await call(t, TicketPaths.create, ticket({ orderNo: `S${uid}` }), H(u.token))).status).toBe('000000');
    for (const orderNo of [`X${vid}`, 'NOSUCHORDER']) {
      expect(await call(t, TicketPaths.create, ticket({ orderNo }), H(u.token))).toMatchObject({ status: '1012', message: 'no order of yours has this number' });
    }
  });

  it('takes only my own image uploads, each attached once', async () => {
    const u = await register(t);
    const v = await register(t);
    const mine = (await upload(t, TicketPaths.upload, u.token, { data: png(40, 40), filename: 'a.png' })).data.key;
    const theirs = (await upload(t, TicketPaths.upload, v.token, { data: png(40, 40), filename: 'b.png' })).data.key;
    expect(await call(t, TicketPaths.create, ticket({ attachmentKeys: [theirs] }), H(u.token))).toMatchObject({ status: '1012' });
    expect(await call(t, TicketPaths.create, ticket({ attachmentKeys: ['private/ticket/202501/nope.png'] }), H(u.token))).toMatchObject({ status: '1012' });
    const first = await call(t, TicketPaths.create, ticket({ attachmentKeys: [mine] }), H(u.token));
    expect(first.status).toBe('000000');
    expect(await call(t, TicketPaths.reply, { id: first.data.id, content: 'again', attachmentKeys: [mine] }, H(u.token))).toMatchObject({ status: '1001', message: 'at most 3 images can be attached' });
    // The upload call refuses what is not an image, judged by the bytes.
    expect(await upload(t, TicketPaths.upload, u.token, { data: '%PDF-1.4 not an image', filename: 'x.png', contentType: 'image/png' })).toMatchObject({ status: '1030' });
    expect(await upload(t, TicketPaths.upload, undefined, { data: png(40, 40) })).toMatchObject({ status: '1100' });
  });

  it(`allows ${TICKET_LIMITS.newPerDay} new tickets in 24 hours, also when sent at once`, async () => {
    const u = await register(t);
    const results = await Promise.all(Array.from({ length: TICKET_LIMITS.newPerDay + 3 }, () => call(t, TicketPaths.create, ticket(), H(u.token))));
    expect(results.filter((r) => r.status === '000000')).toHaveLength(TICKET_LIMITS.newPerDay);
    expect(results.filter((r) => r.status === '1006')).toHaveLength(3);
    expect(results.find((r) => r.status === '1006')!.message).toBe('at most 5 tickets can be opened in 24 hours; please try again later');
    expect((await call(t, TicketPaths.list, {}, H(u.token))).data).toMatchObject({ total: 5, remainingToday: 0 });
    t.clock.t += DAY + 1;
    expect((await call(t, TicketPaths.list, {}, H(u.token))).data.remainingToday).toBe(5);
    expect((await call(t, TicketPaths.create, ticket(), H(u.token))).status).toBe('000000');
  });

  it(`caps messages at ${TICKET_LIMITS.messagesPerDay} a day`, async () => {
    const u = await register(t);
    const id = (await call(t, TicketPaths.create, ticket(), H(u.token))).data.id;
    for (let i = 1; i < TICKET_LIMITS.messagesPerDay; i++) expect((await call(t, TicketPaths.reply, { id, content: `第${i}条` }, H(u.token))).status).toBe('000000');
    expect(await call(t, TicketPaths.reply, { id, content: 'one more' }, H(u.token))).toMatchObject({ status: '1006', message: 'too many messages; please try again later' });
    // Staff replies do not count against the user.
    expect((await replyTicket(t.ctx, staffId, id, '收到')).status).toBe('answered');
  });

  it('answers bad ids with the envelope, never a 500', async () => {
    const u = await register(t);
    for (const id of [0, -1, 'abc', 1e20]) expect((await call(t, TicketPaths.detail, { id }, H(u.token))).status).toBe('1001');
    expect(await call(t, TicketPaths.detail, { id: 9_999_999 }, H(u.token))).toMatchObject({ status: '1404', http: 404 });
    await expect(replyTicket(t.ctx, staffId, 9_999_999, 'x')).rejects.toMatchObject({ status: '1404' });
    await expect(replyTicket(t.ctx, staffId, 1, '')).rejects.toMatchObject({ status: '1001' });
  });
});
