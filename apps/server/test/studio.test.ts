import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import { CreatorPaths, MessagePaths } from '@cfx/contract/routes.ts';
import { StudioPaths } from '@cfx/contract/studio.ts';
import { adminCall, auditSince, lastAuditId, makeStaff, type Staff } from './admin-helpers.ts';
import { submittedApplication } from './admin-fixtures.ts';
import { buy, FakeMinter, fulfilAndMint, makeDropApp } from './drops-helpers.ts';
import { call, register, type TestApp } from './helpers.ts';
import { createOrderFor, expectLedgerBalanced, listForSale, makeGoods, makeTrader, orderStatus, runJobs, topup, type FakeChain } from './market-helpers.ts';
import { png, upload } from './upload-helpers.ts';

/**
 * The creator studio (docs/api.md "Creator studio", docs/admin.md "Release reviews") on a real app
 * and database (SQLite, or PostgreSQL with TEST_PG_URL): creator-only drafts with range checks
 * that write nothing on a bad value, submit with every rule, staff approve (exactly one release,
 * on sale at its start, with the draft's royalty; audited; a message) or reject with a reason
 * (then edit and resubmit), the console permission, and the studio's income after a sale.
 */
let t: TestApp & { chain: FakeChain };
let reviewer: Staff, operator: Staff, support: Staff;
const HOUR = 3_600_000;

beforeAll(async () => {
  t = await makeDropApp();
  reviewer = await makeStaff(t, ['reviewer']);
  operator = await makeStaff(t, ['operator']);
  support = await makeStaff(t, ['support']);
});
afterAll(async () => {
  await t?.close();
});

/** A creator made by approving their project application, with a cover uploaded. */
async function creator() {
  const a = await submittedApplication(t);
  const r = await adminCall(t, AdminPaths.applicationReview, { id: a.id, decision: 'approved' }, reviewer.token);
  expect(r.status, r.message).toBe('000000');
  const u = await t.ctx.db.kysely.selectFrom('users').select(['id']).where('mobile', '=', a.user.mobile).executeTakeFirstOrThrow();
  const c = await t.ctx.db.kysely.selectFrom('creators').select('id').where('user_id', '=', Number(u.id)).executeTakeFirstOrThrow();
  const cover = await upload(t, CreatorPaths.upload, a.user.token, { data: png(64, 64, true), filename: 'cover.png' });
  expect(cover.status, cover.message).toBe('000000');
  return { h: { token: a.user.token }, userId: Number(u.id), creatorId: Number(c.id), coverKey: cover.data.key as string };
}

const draftCount = async () => Number((await t.ctx.db.kysely.selectFrom('release_drafts').select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const full = (coverKey: string) => ({
  title: '山海·白泽', storyHtml: '<p>白泽<script>alert(1)</script></p>', coverKey, supply: 50, priceFen: 1990,
  saleStartAt: t.clock.t + 2 * HOUR, perIdentityLimit: 3, holdingDays: 0, royaltyPermille: 75,
});

describe('creator-only access', () => {
  it('1100 without a session, 1012 for a user who is not a creator, 1404 for another creator\'s draft', async () => {
    expect(await call(t, StudioPaths.drafts, {}, { lang: 'en' })).toMatchObject({ status: '1100' });
    const plain = await register(t);
    expect(await call(t, StudioPaths.create, { title: 'x' }, { token: plain.token, lang: 'en' })).toMatchObject({
      status: '1012', message: 'you are not a creator yet; please apply to enlist a project first',
    });
    expect(await call(t, StudioPaths.stats, {}, { token: plain.token })).toMatchObject({ status: '1012', message: '您还不是创作者，请先申请项目入驻' });
    const a = await creator();
    const b = await creator();
    const d = await call(t, StudioPaths.create, { title: '我的草稿' }, a.h);
    expect(d, d.message).toMatchObject({ status: '000000', message: '草稿已保存', data: { state: 'draft', title: '我的草稿' } });
    expect(await call(t, StudioPaths.draft, { id: d.data.id }, b.h)).toMatchObject({ status: '1404' });
    expect(await call(t, StudioPaths.update, { id: d.data.id, title: '偷改' }, b.h)).toMatchObject({ status: '1404' });
    expect((await call(t, StudioPaths.drafts, {}, b.h)).data.total).toBe(0);
    expect((await call(t, StudioPaths.drafts, {}, a.h)).data.list.map((x: { id: number }) => x.id)).toEqual([d.data.id]);
  });
});

describe('validation', () => {
  it('a bad value is 1001 with its message and writes no row; submit checks every rule', async () => {
    const c = await creator();
    const before = await draftCount();
    for (const [body, en] of [
      [{ supply: 100_001 }, 'the supply must be 1-100000'],
      [{ supply: 0 }, 'the supply must be 1-100000'],
      [{ priceFen: 0 }, 'the price must be ¥0.01-1,000,000'],
      [{ royaltyPermille: 101 }, 'the creator royalty must be 0-10%'],
      [{ perIdentityLimit: 0 }, 'the per-identity limit must be 1-1000'],
    ] as const) {
      expect(await call(t, StudioPaths.create, body, { ...c.h, lang: 'en' })).toMatchObject({ status: '1001', message: en });
    }
    // Another user's upload is not a cover.
    const other = await creator();
    expect(await call(t, StudioPaths.create, { coverKey: other.coverKey }, c.h)).toMatchObject({ status: '1012' });
    expect(await draftCount()).toBe(before);

    const d = await call(t, StudioPaths.create, { ...full(c.coverKey), saleStartAt: t.clock.t + 30 * 60_000 }, c.h);
    expect(d.status, d.message).toBe('000000');
    expect(d.data.storyHtml).toBe('<p>白泽</p>');
    // An update with a bad value changes nothing.
    expect(await call(t, StudioPaths.update, { id: d.data.id, supply: 200_000, title: '改名' }, c.h)).toMatchObject({ status: '1001', message: '发行量需为1-100000份' });
    expect((await call(t, StudioPaths.draft, { id: d.data.id }, c.h)).data).toMatchObject({ supply: 50, title: '山海·白泽' });
    // A start less than an hour ahead is refused at submit, the draft stays a draft.
    expect(await call(t, StudioPaths.submit, { id: d.data.id }, c.h)).toMatchObject({ status: '1001', message: '开售时间需至少在1小时之后' });
    const empty = await call(t, StudioPaths.create, {}, c.h);
    expect(await call(t, StudioPaths.submit, { id: empty.data.id }, { ...c.h, lang: 'en' })).toMatchObject({ status: '1001', message: 'enter a title of 1-40 characters' });
    expect((await call(t, StudioPaths.draft, { id: d.data.id }, c.h)).data.state).toBe('draft');
  });
});

describe('review', () => {
  it('submit → approve creates exactly one release, on sale at its start, with the royalty; audited; a message', async () => {
    const c = await creator();
    const body = full(c.coverKey);
    const d = await call(t, StudioPaths.create, body, c.h);
    const s = await call(t, StudioPaths.submit, { id: d.data.id }, c.h);
    expect(s).toMatchObject({ status: '000000', message: '已提交审核', data: { state: 'submitted' } });
    // Submitted: no edit, no second submit.
    expect(await call(t, StudioPaths.update, { id: d.data.id, title: '改' }, c.h)).toMatchObject({ status: '1036' });
    expect(await call(t, StudioPaths.submit, { id: d.data.id }, c.h)).toMatchObject({ status: '1036' });

    // The queue shows it; a role without catalog.edit is refused and writes nothing.
    const q = await adminCall(t, AdminPaths.releaseReviewsList, {}, operator.token);
    expect(q.status, q.message).toBe('000000');
    expect(q.data.list.map((x: { id: number }) => x.id)).toContain(d.data.id);
    const since = await lastAuditId(t);
    expect(await adminCall(t, AdminPaths.releaseReviewApprove, { id: d.data.id }, support.token)).toMatchObject({ status: '1071' });
    expect(await adminCall(t, AdminPaths.releaseReviewsList, {}, support.token)).toMatchObject({ status: '1071' });
    const projectsBefore = Number((await t.ctx.db.kysely.selectFrom('projects').select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

    const [a1, a2] = await Promise.all([
      adminCall(t, AdminPaths.releaseReviewApprove, { id: d.data.id }, operator.token),
      adminCall(t, AdminPaths.releaseReviewApprove, { id: d.data.id }, operator.token),
    ]);
    expect(a1.status, a1.message).toBe('000000');
    expect(a2.status, a2.message).toBe('000000');
    expect(a1.data.projectId).toBe(a2.data.projectId);
    const a3 = await adminCall(t, AdminPaths.releaseReviewApprove, { id: d.data.id }, operator.token);
    expect(a3.data).toMatchObject({ projectId: a1.data.projectId, created: false });
    const projectId = a1.data.projectId as number;
    const projectsAfter = Number((await t.ctx.db.kysely.selectFrom('projects').select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    expect(projectsAfter).toBe(projectsBefore + 1);
    const p = await t.ctx.db.kysely.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirstOrThrow();
    expect(p).toMatchObject({ name: '山海·白泽', description_html: '<p>白泽</p>', cover: t.ctx.storage.url(c.coverKey) });
    expect(Number(p.creator_id)).toBe(c.creatorId);
    expect(Number(p.supply)).toBe(50);
    expect(Number(p.price_fen)).toBe(1990);
    expect(Number(p.sale_start_at)).toBe(body.saleStartAt);
    expect(Number(p.royalty_permille)).toBe(75);
    const cfg = await t.ctx.db.kysely.selectFrom('drop_config').selectAll().where('project_id', '=', projectId).executeTakeFirstOrThrow();
    expect(Number(cfg.per_identity_limit)).toBe(3);
    expect((await call(t, StudioPaths.draft, { id: d.data.id }, c.h)).data).toMatchObject({ state: 'approved', projectId });

    const audit = (await auditSince(t, since)).filter((x) => x.action.startsWith('release_draft.'));
    expect(audit.map((x) => x.action)).toEqual(['release_draft.approve', 'release_draft.approve', 'release_draft.approve']);
    expect(audit.map((x) => JSON.parse(x.summary).created).sort()).toEqual([false, false, true]);

    const zh = await call(t, MessagePaths.msglist, { pageNum: 1, pageSize: 10 }, { ...c.h, lang: 'zh' });
    const msg = zh.data.list.find((m: { kind: string }) => m.kind === 'release_review');
    expect(msg).toMatchObject({ title: '发售审核已通过', link: `/projects/detail/${projectId}` });
    expect(msg.body).toContain('《山海·白泽》已审核通过');
    const en = await call(t, MessagePaths.msglist, { pageNum: 1, pageSize: 10 }, { ...c.h, lang: 'en' });
    expect(en.data.list.find((m: { kind: string }) => m.kind === 'release_review')).toMatchObject({ title: 'Release approved' });

    // Not on sale before its start; on sale at it; a sale shows in the studio's income.
    const buyer = await makeTrader(t);
    expect((await buy(t, buyer, projectId, 2)).status).toBe('1024');
    t.clock.t = body.saleStartAt + 1000;
    const order = await buy(t, buyer, projectId, 2);
    expect(order.status, order.message).toBe('000000');
    await topup(t, buyer, 3980);
    expect((await call(t, '/payment/nftOrder/V1/pay', { orderNo: order.data.orderNo, method: 'balance' }, buyer.h)).data.status).toBe('paid');
    await fulfilAndMint(t, new FakeMinter());
    await expectLedgerBalanced(t);
    const stats = await call(t, StudioPaths.stats, {}, c.h);
    expect(stats.status, stats.message).toBe('000000');
    const rel = stats.data.releases.find((x: { projectId: number }) => x.projectId === projectId);
    // ￥39.80 less the platform's commission (PRIMARY_COMMISSION_PERMILLE, 10 % by default).
    expect(rel).toMatchObject({ status: 'on_sale', sold: 2, holders: 1, primaryIncomeFen: 3980 - Number(order.data.commissionFen), royaltyIncomeFen: 0, royaltyPermille: 75 });
    expect(stats.data.balanceFen).toBe(3980 - Number(order.data.commissionFen));

    // A resale of one of its collectibles at ￥100: the creator's royalty (7.5 %) shows as royalty income.
    const seller = await makeTrader(t);
    const g = await makeGoods(t, { projectId, creatorUserId: c.userId }, seller);
    await listForSale(t, seller, g.goodsId, 10_000);
    const reBuyer = await makeTrader(t);
    await topup(t, reBuyer, 10_000);
    const re = await createOrderFor(t, reBuyer, g.goodsId);
    expect(re.status, re.message).toBe('000000');
    expect((await call(t, '/payment/nftOrder/V1/pay', { orderNo: re.data.orderNo, method: 'balance' }, reBuyer.h)).status).toBe('000000');
    await runJobs(t);
    expect(await orderStatus(t, re.data.orderNo)).toBe('completed');
    await expectLedgerBalanced(t);
    const after = await call(t, StudioPaths.stats, {}, c.h);
    expect(after.data.releases.find((x: { projectId: number }) => x.projectId === projectId)).toMatchObject({ royaltyIncomeFen: 750, primaryIncomeFen: rel.primaryIncomeFen, holders: 2 });
    expect(after.data.totals.royaltyIncomeFen).toBe(750);
    expect(after.data.balanceFen).toBe(stats.data.balanceFen + 750);
  });

  it('reject with a reason (required) → the creator sees it, edits and resubmits; withdraw', async () => {
    // The previous test moved the clock past the staff sessions' lifetime.
    reviewer = await makeStaff(t, ['reviewer']);
    operator = await makeStaff(t, ['operator']);
    const c = await creator();
    const d = await call(t, StudioPaths.create, full(c.coverKey), c.h);
    // Not submitted yet: no review.
    expect(await adminCall(t, AdminPaths.releaseReviewReject, { id: d.data.id, reason: '封面不清晰' }, operator.token)).toMatchObject({ status: '1036' });
    await call(t, StudioPaths.submit, { id: d.data.id }, c.h);
    const since = await lastAuditId(t);
    expect(await adminCall(t, AdminPaths.releaseReviewReject, { id: d.data.id, reason: '  ' }, operator.token)).toMatchObject({ status: '1001', message: 'enter a reason of 1-500 characters' });
    expect(await auditSince(t, since)).toEqual([]);
    const r = await adminCall(t, AdminPaths.releaseReviewReject, { id: d.data.id, reason: '封面不清晰' }, operator.token);
    expect(r).toMatchObject({ status: '000000', message: 'rejected' });
    expect((await auditSince(t, since)).map((x) => x.action)).toEqual(['release_draft.reject']);
    const seen = await call(t, StudioPaths.draft, { id: d.data.id }, c.h);
    expect(seen.data).toMatchObject({ state: 'rejected', reviewReason: '封面不清晰', projectId: null });
    const msgs = await call(t, MessagePaths.msglist, { pageNum: 1, pageSize: 10 }, { ...c.h, lang: 'zh' });
    const m = msgs.data.list.find((x: { kind: string }) => x.kind === 'release_review');
    expect(m).toMatchObject({ title: '发售审核未通过' });
    expect(m.body).toContain('原因：封面不清晰');
    // Approving a rejected draft is refused.
    expect(await adminCall(t, AdminPaths.releaseReviewApprove, { id: d.data.id }, operator.token)).toMatchObject({ status: '1036' });

    expect((await call(t, StudioPaths.update, { id: d.data.id, title: '山海·白泽（高清）' }, c.h)).data).toMatchObject({ state: 'rejected', title: '山海·白泽（高清）' });
    // The artwork media: an image upload is not a video (1001, nothing changed); as an image it is kept.
    expect(await call(t, StudioPaths.update, { id: d.data.id, mediaKind: 'video', mediaKey: c.coverKey }, { ...c.h, lang: 'en' })).toMatchObject({ status: '1001', message: 'the media file is not valid' });
    expect((await call(t, StudioPaths.update, { id: d.data.id, mediaKind: 'image', mediaKey: c.coverKey }, c.h)).data).toMatchObject({ mediaKind: 'image', mediaKey: c.coverKey });
    expect((await call(t, StudioPaths.submit, { id: d.data.id }, c.h)).data.state).toBe('submitted');
    expect((await call(t, StudioPaths.withdraw, { id: d.data.id }, c.h))).toMatchObject({ status: '000000', data: { state: 'draft' } });
    expect(await call(t, StudioPaths.withdraw, { id: d.data.id }, c.h)).toMatchObject({ status: '1036' });
    await call(t, StudioPaths.submit, { id: d.data.id }, c.h);
    const ok = await adminCall(t, AdminPaths.releaseReviewApprove, { id: d.data.id }, operator.token);
    expect(ok.status, ok.message).toBe('000000');
    const p = await t.ctx.db.kysely.selectFrom('projects').select(['name', 'media_kind', 'media_key']).where('id', '=', ok.data.projectId).executeTakeFirstOrThrow();
    expect(p).toEqual({ name: '山海·白泽（高清）', media_kind: 'image', media_key: c.coverKey });
  });
});
