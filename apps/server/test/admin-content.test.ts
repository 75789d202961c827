import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import { ContentPaths } from '@cfx/contract/routes.ts';
import { adminCall, auditSince, lastAuditId, makeStaff, signIn, type Staff } from './admin-helpers.ts';
import { adminUpload, coverUrl, createReleaseAs } from './admin-catalog-helpers.ts';
import { API, call, makeApp, type TestApp } from './helpers.ts';

/**
 * The console's news, banner and recommend-list editors on a real database: what an operator
 * saves is what the public calls answer on the next request (list, hot, placed, detail;
 * POST /background/banner/list, indexBanner, newsBannerList; getRecommendList) — drafts and
 * scheduled items hidden, bodies sanitised on the server, banners inside their window only,
 * deletions cleaning up what pointed at the item; roles and audit rows.
 */
let t: TestApp;
let op: Staff;
let support: Staff;
let finance: Staff;
let image: string;

beforeAll(async () => {
  t = await makeApp();
  op = await makeStaff(t, ['operator']);
  support = await makeStaff(t, ['support']);
  finance = await makeStaff(t, ['finance']);
  image = await coverUrl(t, op.token, AdminPaths.contentUpload);
});
afterAll(async () => {
  await t?.close();
});

const adm = (path: string, body: unknown, s: Staff = op) => adminCall(t, path, body, s.token);
async function getPublic(path: string) {
  const res = await t.app.inject({ method: 'GET', url: API + path, headers: { lang: 'en' } });
  return res.json() as { status: string; code: number | string; data: any; message: string };
}
const publicList = async () => (await getPublic(`${ContentPaths.newsList}?pageNum=1&pageSize=50`)).data.list as { id: number; title: string }[];
const ids = (xs: { id: number }[]) => xs.map((x) => x.id);
/** Moves business time; staff sessions end after 30 idle minutes, so the staff sign in again. */
async function clockTo(at: number) {
  t.clock.t = at;
  for (const s of [op, support, finance]) s.token = await signIn(t, s);
}

describe('news', () => {
  it('a draft is hidden; publishing shows it in the list, detail, hot and placed lists; the body is sanitised; unpublishing hides it again', async () => {
    const before = await lastAuditId(t);
    const saved = await adm(AdminPaths.newsSave, {
      title: '平台升级公告', category: '平台公告', cover: image, summary: '',
      contentHtml: `<h2>升级说明</h2><p onclick="steal()">本次升级<script>alert(1)</script>优化了体验。<a href="javascript:alert(1)">点我</a><img src="${image}" alt="图"></p><iframe src="https://evil.example"></iframe>`,
      author: '运营部', isHot: true, isPlace: true, placeSort: 1, draft: true,
    });
    expect(saved, saved.message).toMatchObject({ status: '000000', data: { state: 'draft', title: '平台升级公告', isHot: true, isPlace: true, summary: '升级说明本次升级优化了体验。点我' } });
    const id = saved.data.id as number;
    const html = saved.data.contentHtml as string;
    expect(html).not.toMatch(/script|onclick|javascript:|iframe|steal/);
    expect(html).toContain(`<img src="${image}" alt="图" />`);
    expect(html).toContain('<h2>升级说明</h2>');
    expect(ids(await publicList())).not.toContain(id);
    expect(await getPublic(`/official/news/${id}`)).toMatchObject({ status: '1404' });
    expect(ids((await getPublic(ContentPaths.newsHot)).data)).not.toContain(id);

    expect(await adm(AdminPaths.newsPublish, { id, publish: true })).toMatchObject({ status: '000000', data: { state: 'published' } });
    expect(ids(await publicList())[0]).toBe(id);
    const detail = await getPublic(`/official/news/${id}`);
    expect(detail).toMatchObject({ status: '000000', code: 200, data: { title: '平台升级公告', author: '运营部', contentHtml: html } });
    expect(ids((await getPublic(ContentPaths.newsHot)).data)).toContain(id);
    expect(ids((await getPublic(ContentPaths.newsPlace)).data)).toContain(id);

    // An edit shows on the next request.
    const edited = await adm(AdminPaths.newsSave, { id, title: '平台升级公告（更新）', category: '平台公告', cover: image, contentHtml: html, isHot: false, isPlace: true });
    expect(edited.data).toMatchObject({ state: 'published', isHot: false });
    expect((await getPublic(`/official/news/${id}`)).data.title).toBe('平台升级公告（更新）');
    expect(ids((await getPublic(ContentPaths.newsHot)).data)).not.toContain(id);

    expect(await adm(AdminPaths.newsPublish, { id, publish: false })).toMatchObject({ status: '000000', data: { state: 'draft' } });
    expect(ids(await publicList())).not.toContain(id);
    expect(ids((await getPublic(ContentPaths.newsPlace)).data)).not.toContain(id);
    expect((await auditSince(t, before)).map((r) => r.action)).toEqual(['news.create', 'news.publish', 'news.update', 'news.unpublish']);
    // The console still lists it, as a draft.
    expect((await adm(AdminPaths.newsList, { state: 'draft' })).data.list.map((n: { id: number }) => n.id)).toContain(id);
  });

  it('a scheduled item appears when its time comes; preview sanitises; bad values are refused', async () => {
    const at = t.clock.t + 3600_000;
    const r = await adm(AdminPaths.newsSave, { title: '预告', category: '新手指南', cover: image, contentHtml: '<p>稍后发布</p>', publishedAt: at });
    expect(r.data).toMatchObject({ state: 'scheduled', publishedAt: at });
    expect(ids(await publicList())).not.toContain(r.data.id);
    await clockTo(at + 1000);
    expect(ids(await publicList())).toContain(r.data.id);
    expect((await adm(AdminPaths.newsDetail, { id: r.data.id })).data.state).toBe('published');

    expect(await adm(AdminPaths.newsPreview, { contentHtml: '<p>ok<script>x</script><img src="http://insecure.example/a.png"></p>' })).toMatchObject({ status: '000000', data: { contentHtml: '<p>ok</p>' } });
    expect(await adm(AdminPaths.newsSave, { title: '', category: 'x', cover: image, contentHtml: '<p>x</p>' })).toMatchObject({ status: '1001', message: 'the title must be 1-80 characters on one line' });
    expect(await adm(AdminPaths.newsSave, { title: 't', category: 'x', cover: image, contentHtml: '<script>only</script>' })).toMatchObject({ status: '1001', message: 'please write the body (at most 100000 characters)' });
    expect(await adm(AdminPaths.newsSave, { title: 't', category: 'x', cover: 'https://evil.example/c.png', contentHtml: '<p>x</p>' })).toMatchObject({ status: '1001' });
    expect(await adm(AdminPaths.newsSave, { id: 999999, title: 't', category: 'x', cover: image, contentHtml: '<p>x</p>' })).toMatchObject({ status: '1404', message: 'news item not found' });
  });

  it('deleting an item removes it from recommend lists and switches off banners pointing at it', async () => {
    const n = await adm(AdminPaths.newsSave, { title: '将删除', category: '平台公告', cover: image, contentHtml: '<p>x</p>' });
    const id = n.data.id as number;
    const b = await adm(AdminPaths.bannerSave, { position: 'news', title: '资讯横幅', image, linkType: 'news', linkTarget: String(id) });
    const l = await adm(AdminPaths.recommendSave, { code: 'news_pick', title: '精选', items: [{ type: 'news', id }] });
    expect((await getPublic(ContentPaths.newsBanners)).data.map((x: { id: number }) => x.id)).toContain(b.data.id);
    expect(await adm(AdminPaths.newsDelete, { id })).toMatchObject({ status: '000000', message: 'news item deleted' });
    expect(await getPublic(`/official/news/${id}`)).toMatchObject({ status: '1404' });
    expect((await getPublic(ContentPaths.newsBanners)).data.map((x: { id: number }) => x.id)).not.toContain(b.data.id);
    expect((await adm(AdminPaths.bannersList, { position: 'news' })).data.find((x: { id: number }) => x.id === b.data.id)).toMatchObject({ active: false, live: false });
    expect((await adm(AdminPaths.recommendList, {})).data.find((x: { id: number }) => x.id === l.data.id).items).toEqual([]);
    expect(await adm(AdminPaths.newsDelete, { id })).toMatchObject({ status: '1404' });
  });
});

describe('banners', () => {
  it('what is saved is what POST /background/banner/list answers next: position, order, link, active window', async () => {
    const release = await createReleaseAs(t, op.token, { supply: 5 });
    const home = async () => (await call(t, ContentPaths.bannerList, { position: 'home' })).data as { id: number; title: string; url: string; image: string }[];
    const before = await lastAuditId(t);
    const a = await adm(AdminPaths.bannerSave, { position: 'home', title: '新品首发', subtitle: '山河', image, linkType: 'project', linkTarget: String(release.id), sort: 2 });
    expect(a, a.message).toMatchObject({ status: '000000', data: { live: true, linkLabel: '山河·数字藏品' } });
    const b = await adm(AdminPaths.bannerSave, { position: 'home', title: '活动', image, linkType: 'url', linkTarget: '/projects', sort: 1 });
    const list = await home();
    const mine = list.filter((x) => [a.data.id, b.data.id].includes(x.id));
    expect(mine.map((x) => x.title)).toEqual(['活动', '新品首发']);
    expect(mine[1]).toMatchObject({ url: `/projects/detail/${release.id}`, image });
    const index = await getPublic(ContentPaths.indexBanner);
    expect(index.data.map((x: { id: number }) => x.id)).toContain(a.data.id);

    // A window in the future hides it until its time; switching off hides it at once.
    const later = t.clock.t + 3600_000;
    expect((await adm(AdminPaths.bannerSave, { id: b.data.id, position: 'home', title: '活动', image, linkType: 'url', linkTarget: '/projects', sort: 1, startAt: later, endAt: later + 3600_000 })).data).toMatchObject({ live: false });
    expect(ids(await home())).not.toContain(b.data.id);
    await clockTo(later + 1);
    expect(ids(await home())).toContain(b.data.id);
    await clockTo(later + 3600_000);
    expect(ids(await home())).not.toContain(b.data.id);
    await adm(AdminPaths.bannerSave, { id: a.data.id, position: 'home', title: '新品首发', image, linkType: 'project', linkTarget: String(release.id), active: false });
    expect(ids(await home())).not.toContain(a.data.id);
    expect(await adm(AdminPaths.bannerDelete, { id: a.data.id })).toMatchObject({ status: '000000', message: 'banner deleted' });
    expect((await auditSince(t, before)).map((r) => r.action).filter((a) => !a.startsWith('auth.'))).toEqual(['banner.create', 'banner.create', 'banner.update', 'banner.update', 'banner.delete']);

    // Links must be safe and point at something.
    for (const linkTarget of ['//evil.example/x', '/\\evil.example', 'javascript:alert(1)', 'ftp://x.example/a']) {
      expect(await adm(AdminPaths.bannerSave, { position: 'home', title: 'x', image, linkType: 'url', linkTarget })).toMatchObject({ status: '1001', message: 'the link target does not exist or the URL is not valid' });
    }
    expect(await adm(AdminPaths.bannerSave, { position: 'home', title: 'x', image, linkType: 'project', linkTarget: '999999' })).toMatchObject({ status: '1001' });
    expect(await adm(AdminPaths.bannerSave, { position: 'home', title: 'x', image, linkType: 'url', linkTarget: '/x', startAt: 10, endAt: 5 })).toMatchObject({ status: '1001', message: 'the end must be after the start' });
    expect(await adm(AdminPaths.bannerSave, { position: 'home', title: 'x', image: 'https://evil.example/b.png', linkType: 'url', linkTarget: '/x' })).toMatchObject({ status: '1001' });
  });
});

describe('recommend lists', () => {
  it('getRecommendList answers the saved items in the saved order; codes unique; items must exist', async () => {
    const [r1, r2] = [await createReleaseAs(t, op.token, { supply: 3, name: '甲' }), await createReleaseAs(t, op.token, { supply: 3, name: '乙' })];
    const pub = async (code: string) => (await call(t, ContentPaths.recommendList, { code })).data as { code: string; items: { type: string; id: number }[] }[];
    const saved = await adm(AdminPaths.recommendSave, { code: 'home_recommend', title: '为你推荐', items: [{ type: 'project', id: r1.id }, { type: 'project', id: r2.id }] });
    expect(saved, saved.message).toMatchObject({ status: '000000', data: { code: 'home_recommend', items: [{ id: r1.id, label: '甲' }, { id: r2.id, label: '乙' }] } });
    expect((await pub('home_recommend'))[0]!.items.map((i) => i.id)).toEqual([r1.id, r2.id]);
    await adm(AdminPaths.recommendSave, { id: saved.data.id, code: 'home_recommend', title: '为你推荐', items: [{ type: 'project', id: r2.id }, { type: 'project', id: r1.id }] });
    expect((await pub('home_recommend'))[0]!.items.map((i) => i.id)).toEqual([r2.id, r1.id]);
    expect(await adm(AdminPaths.recommendSave, { code: 'home_recommend', title: '重复', items: [] })).toMatchObject({ status: '1001', message: 'the code home_recommend is used by another list' });
    expect(await adm(AdminPaths.recommendSave, { code: 'Bad Code', title: 'x', items: [] })).toMatchObject({ status: '1001' });
    expect(await adm(AdminPaths.recommendSave, { code: 'x_list', title: 'x', items: [{ type: 'goods', id: 999999 }] })).toMatchObject({ status: '1001', message: 'item 1 does not exist or is repeated' });
    expect(await adm(AdminPaths.recommendSave, { code: 'x_list', title: 'x', items: [{ type: 'project', id: r1.id }, { type: 'project', id: r1.id }] })).toMatchObject({ status: '1001', message: 'item 2 does not exist or is repeated' });
    // The pickers find targets by name or id.
    expect((await adm(AdminPaths.contentTargets, { type: 'project', q: '乙' })).data.map((x: { id: number }) => x.id)).toContain(r2.id);
    expect((await adm(AdminPaths.contentTargets, { type: 'project', q: String(r1.id) })).data.map((x: { id: number }) => x.id)).toContain(r1.id);
    expect(await adm(AdminPaths.recommendDelete, { id: saved.data.id })).toMatchObject({ status: '000000' });
    expect(await pub('home_recommend')).toEqual([]);
  });
});

describe('roles', () => {
  it('support and finance cannot edit content (1071), nor upload; nothing is written', async () => {
    const before = await lastAuditId(t);
    for (const s of [support, finance]) {
      expect(await adm(AdminPaths.newsSave, { title: 't', category: 'x', cover: image, contentHtml: '<p>x</p>' }, s)).toMatchObject({ status: '1071' });
      expect(await adm(AdminPaths.newsPublish, { id: 1, publish: true }, s)).toMatchObject({ status: '1071' });
      expect(await adm(AdminPaths.bannerSave, { position: 'home', title: 'x', image, linkType: 'url', linkTarget: '/' }, s)).toMatchObject({ status: '1071' });
      expect(await adm(AdminPaths.recommendSave, { code: 'abc', title: 'x', items: [] }, s)).toMatchObject({ status: '1071' });
      expect(await adm(AdminPaths.newsList, {}, s)).toMatchObject({ status: '1071' });
      expect((await adminUpload(t, AdminPaths.contentUpload, s.token)).status).toBe('1071');
    }
    expect(await auditSince(t, before)).toEqual([]);
  });
});
