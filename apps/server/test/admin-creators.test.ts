import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import { CatalogPaths, MessagePaths, SearchPaths } from '@cfx/contract/routes.ts';
import { adminCall, auditSince, lastAuditId, makeStaff, type Staff } from './admin-helpers.ts';
import { coverUrl, createReleaseAs, releaseForm } from './admin-catalog-helpers.ts';
import { submittedApplication } from './admin-fixtures.ts';
import { call, makeApp, register, type TestApp } from './helpers.ts';

/**
 * From application to creator (docs/admin.md "Creators"), on a real app and database (SQLite, or
 * PostgreSQL with TEST_PG_URL): approving a project application makes the applicant a creator in
 * the approval's transaction (bound, built from the application, once, audited, with a message);
 * the console's creators section lists, edits, disables / enables and verifies, each audited, and
 * refuses roles without the permission writing nothing; a disabled creator is hidden from the
 * public list, page and search and gets no new release; the verified mark is in the public answer.
 */
let t: TestApp;
let owner: Staff, reviewer: Staff, operator: Staff, support: Staff;
const EN = { lang: 'en' };
const userOf = async (mobile: string) => t.ctx.db.kysely.selectFrom('users').select(['id', 'is_creator', 'account_id']).where('mobile', '=', mobile).executeTakeFirstOrThrow();
const creatorsOf = async (userId: number) => t.ctx.db.kysely.selectFrom('creators').selectAll().where('user_id', '=', userId).execute();

beforeAll(async () => {
  t = await makeApp();
  owner = await makeStaff(t, ['owner']);
  reviewer = await makeStaff(t, ['reviewer']);
  operator = await makeStaff(t, ['operator']);
  support = await makeStaff(t, ['support']);
});
afterAll(async () => {
  await t?.close();
});

/** An approved application: the applicant and their new creator. */
async function approved() {
  const a = await submittedApplication(t);
  const r = await adminCall(t, AdminPaths.applicationReview, { id: a.id, decision: 'approved' }, reviewer.token);
  expect(r, r.message).toMatchObject({ status: '000000', data: { status: 'approved' } });
  const u = await userOf(a.user.mobile);
  const [c] = await creatorsOf(Number(u.id));
  return { a, user: u, creatorId: Number(c!.id) };
}

describe('approving an application makes the applicant a creator', () => {
  it('binds a creator built from the application, in the approval, audited, with a message in both languages', async () => {
    const a = await submittedApplication(t);
    const before = await userOf(a.user.mobile);
    expect(Number(before.is_creator)).toBe(0);
    expect(await creatorsOf(Number(before.id))).toEqual([]);
    const since = await lastAuditId(t);

    const r = await adminCall(t, AdminPaths.applicationReview, { id: a.id, decision: 'approved' }, reviewer.token);
    expect(r, r.message).toMatchObject({ status: '000000', message: 'review saved', data: { status: 'approved' } });

    const u = await userOf(a.user.mobile);
    expect(Number(u.is_creator)).toBe(1);
    const rows = await creatorsOf(Number(u.id));
    expect(rows).toHaveLength(1);
    const c = rows[0]!;
    expect(c).toMatchObject({ name: '青山工作室', media_links: '[]', disabled_at: null, verified_at: null });
    expect(Number(c.application_id)).toBe(a.id);
    expect(c.intro).toBe('以《山海经》中的异兽为题材的数字艺术作品系列，共 12 款，由青山工作室原创绘制。');
    // The avatar is the applicant's artwork, by its public URL.
    expect(c.avatar).toBe(t.ctx.storage.url(a.artKey));

    const audit = await auditSince(t, since);
    expect(audit.map((x) => x.action)).toEqual(['application.review']);
    expect(JSON.parse(audit[0]!.summary)).toMatchObject({ after: { status: 'approved' } });

    // The public page answers the new creator at once, not verified.
    const page = await call(t, CatalogPaths.creatorQuery, { accountId: u.account_id }, EN);
    expect(page).toMatchObject({ status: '000000', data: { id: Number(c.id), name: '青山工作室', verified: false, avatar: c.avatar } });

    // The applicant's message, in the reader's language.
    const zh = await call(t, MessagePaths.msglist, { pageNum: 1, pageSize: 10 }, { token: a.user.token, lang: 'zh' });
    expect(zh.data.list).toHaveLength(1);
    expect(zh.data.list[0]).toMatchObject({ kind: 'application_approved', title: '项目入驻申请已通过', link: `/creator/${u.account_id}` });
    expect(zh.data.list[0].body).toContain('《山海经·数字典藏》已审核通过');
    const en = await call(t, MessagePaths.msglist, { pageNum: 1, pageSize: 10 }, { token: a.user.token, lang: 'en' });
    expect(en.data.list[0]).toMatchObject({ kind: 'application_approved', title: 'Project application approved' });
    expect(en.data.list[0].body).toContain('"山海经·数字典藏" has been approved');

    // Approving again is refused (1031) and creates nothing twice.
    expect(await adminCall(t, AdminPaths.applicationReview, { id: a.id, decision: 'approved' }, reviewer.token)).toMatchObject({ status: '1031' });
    expect(await creatorsOf(Number(u.id))).toHaveLength(1);
    expect((await call(t, MessagePaths.msglist, { pageNum: 1, pageSize: 10 }, { token: a.user.token, lang: 'zh' })).data.list).toHaveLength(1);

    // The new creator can be picked in the release form right away.
    const opts = await adminCall(t, AdminPaths.releaseOptions, {}, operator.token);
    expect(opts.data.creators.map((x: { id: number }) => x.id)).toContain(Number(c.id));
  });

  it('an applicant who already is a creator keeps their creator: a second approved application creates none', async () => {
    const { a, user, creatorId } = await approved();
    await adminCall(t, AdminPaths.creatorUpdate, { id: creatorId, name: '青山' }, operator.token);
    const again = await submittedApplication(t, a.user);
    const r = await adminCall(t, AdminPaths.applicationReview, { id: again.id, decision: 'approved' }, reviewer.token);
    expect(r, r.message).toMatchObject({ status: '000000' });
    const rows = await creatorsOf(Number(user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: '青山' });
    expect(Number(rows[0]!.application_id)).toBe(a.id);
    // One message per approved application.
    expect((await call(t, MessagePaths.msglist, { pageNum: 1, pageSize: 10 }, { token: a.user.token, lang: 'en' })).data.list).toHaveLength(2);
  });

  it('rejecting makes no creator', async () => {
    const a = await submittedApplication(t);
    const r = await adminCall(t, AdminPaths.applicationReview, { id: a.id, decision: 'rejected', reason: '资料不完整' }, reviewer.token);
    expect(r).toMatchObject({ status: '000000', data: { status: 'rejected' } });
    const u = await userOf(a.user.mobile);
    expect(Number(u.is_creator)).toBe(0);
    expect(await creatorsOf(Number(u.id))).toEqual([]);
  });
});

describe('the console creators section', () => {
  it('lists with search and filters, and shows one creator', async () => {
    const { creatorId, user } = await approved();
    const byName = await adminCall(t, AdminPaths.creatorsList, { q: '青山工作' }, reviewer.token);
    expect(byName).toMatchObject({ status: '000000' });
    expect(byName.data.list.map((x: { id: number }) => x.id)).toContain(creatorId);
    const byAccount = await adminCall(t, AdminPaths.creatorsList, { q: user.account_id }, operator.token);
    expect(byAccount.data).toMatchObject({ total: 1, list: [{ id: creatorId, accountId: user.account_id, disabledAt: null, verifiedAt: null, projectCount: 0 }] });
    const none = await adminCall(t, AdminPaths.creatorsList, { q: user.account_id, disabled: true }, operator.token);
    expect(none.data.total).toBe(0);
    const paged = await adminCall(t, AdminPaths.creatorsList, { pageNum: 1, pageSize: 1 }, operator.token);
    expect(paged.data.list).toHaveLength(1);
    expect(paged.data.total).toBeGreaterThan(1);
    const d = await adminCall(t, AdminPaths.creatorDetail, { id: creatorId }, reviewer.token);
    expect(d).toMatchObject({ status: '000000', data: { id: creatorId, name: '青山工作室', mediaLinks: [], intro: expect.stringContaining('山海经') } });
    expect(await adminCall(t, AdminPaths.creatorDetail, { id: 99_999_999 }, reviewer.token)).toMatchObject({ status: '1404' });
  });

  it('refuses roles without the permission and writes nothing', async () => {
    const { creatorId } = await approved();
    const since = await lastAuditId(t);
    expect(await adminCall(t, AdminPaths.creatorsList, {}, support.token)).toMatchObject({ status: '1071' });
    expect(await adminCall(t, AdminPaths.creatorDetail, { id: creatorId }, support.token)).toMatchObject({ status: '1071' });
    // A reviewer may read but not change.
    expect(await adminCall(t, AdminPaths.creatorUpdate, { id: creatorId, name: '改名' }, reviewer.token)).toMatchObject({ status: '1071' });
    expect(await adminCall(t, AdminPaths.creatorDisable, { id: creatorId, reason: '违规内容' }, reviewer.token)).toMatchObject({ status: '1071' });
    expect(await adminCall(t, AdminPaths.creatorVerify, { id: creatorId, verified: true }, support.token)).toMatchObject({ status: '1071' });
    const [c] = await t.ctx.db.kysely.selectFrom('creators').selectAll().where('id', '=', creatorId).execute();
    expect(c).toMatchObject({ name: '青山工作室', disabled_at: null, verified_at: null, updated_at: null });
    expect(await auditSince(t, since)).toEqual([]);
  });

  it('edits the profile with the creator rules, audited; bad input is refused with nothing written', async () => {
    const { creatorId } = await approved();
    const avatar = await coverUrl(t, operator.token);
    const since = await lastAuditId(t);
    const bad = [
      [{ name: '' }, '1001'],
      [{ name: 'x'.repeat(41) }, '1001'],
      [{ intro: 'y'.repeat(501) }, '1001'],
      [{ avatar: 'https://evil.example.com/a.png' }, '1001'],
      [{ mediaLinks: [{ type: 'weibo', label: '微博', url: 'http://weibo.com/x' }] }, '1001'],
    ] as const;
    for (const [body, status] of bad) expect(await adminCall(t, AdminPaths.creatorUpdate, { id: creatorId, ...body }, operator.token), JSON.stringify(body)).toMatchObject({ status });
    expect(await auditSince(t, since)).toEqual([]);

    const links = [{ type: 'website', label: '官网', url: 'https://qingshan.example.com/studio' }];
    const r = await adminCall(t, AdminPaths.creatorUpdate, { id: creatorId, name: '青山画室', intro: '新的简介', avatar, mediaLinks: links }, operator.token);
    expect(r, r.message).toMatchObject({ status: '000000', message: 'creator profile saved', data: { name: '青山画室', intro: '新的简介', avatar, mediaLinks: links } });
    const audit = await auditSince(t, since);
    expect(audit.map((x) => [x.action, x.target_type, x.target_id])).toEqual([['creator.update', 'creator', String(creatorId)]]);
    expect(JSON.parse(audit[0]!.summary)).toMatchObject({ changed: expect.arrayContaining(['name', 'intro', 'avatar', 'media_links']), before: { name: '青山工作室' }, after: { name: '青山画室' } });
    const page = await call(t, CatalogPaths.creatorQuery, { id: creatorId }, EN);
    expect(page.data).toMatchObject({ name: '青山画室', avatar, mediaLinks: links });
  });

  it('a disabled creator is hidden from the public list, page and search and gets no new release; enabling restores', async () => {
    const { creatorId, user } = await approved();
    const name = `停用测试${creatorId}`;
    await adminCall(t, AdminPaths.creatorUpdate, { id: creatorId, name }, operator.token);
    const listIds = async () => {
      const ids: number[] = [];
      for (let p = 1; ; p++) {
        const r = await call(t, CatalogPaths.creatorList, { pageNum: p, pageSize: 50 }, EN);
        ids.push(...r.data.list.map((x: { id: number }) => x.id));
        if (r.data.list.length < 50) return { ids, total: r.data.total as number };
      }
    };
    const search = async () => (await call(t, SearchPaths.queryFinal, { text: name, pageNum: 1, pageSize: 10, type: '2' }, EN)).data.creators;
    const shown = await listIds();
    expect(shown.ids).toContain(creatorId);
    expect((await search()).list.map((x: { id: number }) => x.id)).toEqual([creatorId]);

    // A release they already have (it stays on the site after the creator is disabled).
    const first = await adminCall(t, AdminPaths.releaseCreate, await releaseForm(t, operator.token, { creatorId, name: `既有发售${creatorId}` }), operator.token);
    expect(first, first.message).toMatchObject({ status: '000000' });
    const releaseId = first.data.id as number;

    const since = await lastAuditId(t);
    expect(await adminCall(t, AdminPaths.creatorDisable, { id: creatorId, reason: '' }, operator.token)).toMatchObject({ status: '1001' });
    const off = await adminCall(t, AdminPaths.creatorDisable, { id: creatorId, reason: '违规内容' }, operator.token);
    expect(off, off.message).toMatchObject({ status: '000000', message: 'creator disabled', data: { id: creatorId, disabledAt: t.clock.t } });
    expect(await adminCall(t, AdminPaths.creatorDisable, { id: creatorId, reason: '违规内容' }, operator.token)).toMatchObject({ status: '1073', message: 'the creator is already in that state' });
    const audit = await auditSince(t, since);
    expect(audit.map((x) => x.action)).toEqual(['creator.disable']);
    expect(JSON.parse(audit[0]!.summary)).toMatchObject({ before: { disabled: false }, after: { disabled: true }, reason: '违规内容' });

    const hidden = await listIds();
    expect(hidden.ids).not.toContain(creatorId);
    expect(hidden.total).toBe(shown.total - 1);
    expect(await call(t, CatalogPaths.creatorQuery, { id: creatorId }, EN)).toMatchObject({ status: '1404' });
    expect(await call(t, CatalogPaths.creatorQuery, { accountId: user.account_id }, EN)).toMatchObject({ status: '1404' });
    expect((await search())).toMatchObject({ total: 0, list: [] });
    // The console still lists them (filter: disabled).
    expect((await adminCall(t, AdminPaths.creatorsList, { q: name, disabled: true }, operator.token)).data.list.map((x: { id: number }) => x.id)).toEqual([creatorId]);

    // Their existing release stays public.
    const detail = await call(t, CatalogPaths.projectDetails, { id: releaseId }, EN);
    expect(detail, detail.message).toMatchObject({ status: '000000', data: { id: releaseId } });
    // No new release for them, and they are not offered in the release form.
    const form = await releaseForm(t, operator.token, { creatorId });
    const refused = await adminCall(t, AdminPaths.releaseCreate, form, operator.token);
    expect(refused).toMatchObject({ status: '1073', message: 'this creator is disabled: no release can be created for them or moved to them' });
    expect((await t.ctx.db.kysely.selectFrom('projects').select('id').where('creator_id', '=', creatorId).execute()).map((r) => Number(r.id))).toEqual([releaseId]);
    const opts = await adminCall(t, AdminPaths.releaseOptions, {}, operator.token);
    expect(opts.data.creators.map((x: { id: number }) => x.id)).not.toContain(creatorId);
    // Nor can another release be moved to them.
    const other = await createReleaseAs(t, operator.token);
    expect(await adminCall(t, AdminPaths.releaseUpdate, { id: other.id, creatorId }, operator.token)).toMatchObject({ status: '1073' });

    const on = await adminCall(t, AdminPaths.creatorEnable, { id: creatorId, reason: '已整改' }, operator.token);
    expect(on, on.message).toMatchObject({ status: '000000', message: 'creator enabled', data: { disabledAt: null } });
    expect(await call(t, CatalogPaths.creatorQuery, { id: creatorId }, EN)).toMatchObject({ status: '000000' });
    expect((await search()).list.map((x: { id: number }) => x.id)).toEqual([creatorId]);
    const created = await adminCall(t, AdminPaths.releaseCreate, form, operator.token);
    expect(created, created.message).toMatchObject({ status: '000000' });
  });

  it('the verified mark is in the public creator answer and cards', async () => {
    const { creatorId } = await approved();
    const since = await lastAuditId(t);
    const r = await adminCall(t, AdminPaths.creatorVerify, { id: creatorId, verified: true }, owner.token);
    expect(r, r.message).toMatchObject({ status: '000000', message: 'verified mark updated', data: { verifiedAt: t.clock.t } });
    expect(await adminCall(t, AdminPaths.creatorVerify, { id: creatorId, verified: true }, owner.token)).toMatchObject({ status: '1073' });
    expect((await auditSince(t, since)).map((x) => x.action)).toEqual(['creator.verify']);
    expect((await call(t, CatalogPaths.creatorQuery, { id: creatorId }, EN)).data).toMatchObject({ id: creatorId, verified: true });
    const cards: { id: number; verified: boolean }[] = [];
    for (let p = 1; ; p++) {
      const page = await call(t, CatalogPaths.creatorList, { pageNum: p, pageSize: 50 }, EN);
      cards.push(...page.data.list);
      if (page.data.list.length < 50) break;
    }
    expect(cards.find((x) => x.id === creatorId)).toMatchObject({ verified: true });
    expect(cards.filter((x) => x.id !== creatorId).every((x) => typeof x.verified === 'boolean')).toBe(true);
    const off = await adminCall(t, AdminPaths.creatorVerify, { id: creatorId, verified: false }, owner.token);
    expect(off.data).toMatchObject({ verifiedAt: null });
    expect((await call(t, CatalogPaths.creatorQuery, { id: creatorId }, EN)).data).toMatchObject({ verified: false });
  });

  it('a user who registers afresh is no creator and cannot be found in the console', async () => {
    const u = await register(t);
    const me = await userOf(u.mobile);
    expect((await adminCall(t, AdminPaths.creatorsList, { q: me.account_id }, operator.token)).data.total).toBe(0);
  });
});
