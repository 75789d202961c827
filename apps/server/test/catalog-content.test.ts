import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, call, makeApp, type TestApp } from './helpers.ts';
import { parseImageId, renderArtwork } from '../src/modules/content/artwork.ts';
import { sanitizeRichText } from '../src/util/rich-text.ts';

/** News, banners, recommend lists and generated images on the seeded demo catalogue. */
let t: TestApp;
const EN = { lang: 'en' };

async function get(p: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url: API + p, headers: { channel: 'pc', ...headers } });
  return { http: res.statusCode, ...(res.json() as { status: string; code: string | number; data: any; message: string; msg: string }) };
}

beforeAll(async () => {
  t = await makeApp({}, { DEMO_DATA: '1' });
});
afterAll(async () => { await t?.close(); });

describe(`content on ${process.env.TEST_PG_URL ? 'PostgreSQL' : 'SQLite'}`, () => {
  it('official/news/list answers code 200 with status kept, newest first, paged and by category', async () => {
    const r = await get('/official/news/list?pageNum=1&pageSize=10');
    expect(r).toMatchObject({ http: 200, status: '000000', code: 200 });
    expect(r.data.total).toBe(30);
    expect(r.data.list).toHaveLength(10);
    const times = r.data.list.map((n: any) => n.publishedAt);
    expect(times).toEqual([...times].sort((a: number, b: number) => b - a));
    expect(times[0]).toBeLessThanOrEqual(t.clock.t);
    const p3 = await get('/official/news/list?pageNum=3&pageSize=10');
    expect(p3.data.list).toHaveLength(10);
    expect((await get('/official/news/list?pageNum=4&pageSize=10')).data.list).toEqual([]);
    expect((await get('/official/news/list?pageSize=99')).data.list).toHaveLength(30);
    expect((await get('/official/news/list?pageSize=99')).data.pageSize).toBe(50);
    const guides = await get(`/official/news/list?category=${encodeURIComponent('新手指南')}`);
    expect(guides.data.total).toBe(4);
    expect(guides.data.list.every((n: any) => n.category === '新手指南')).toBe(true);
    const bad = await get('/official/news/list?pageNum=0');
    expect(bad).toMatchObject({ http: 400, status: '1001', code: '1001' });
  });

  it('official/news/{id}: sanitised content, neighbours, a view; unknown or malformed ids 1404 with code ≠ 200', async () => {
    const list = await get('/official/news/list?pageSize=3');
    const [newest, second] = list.data.list;
    const d = await get(`/official/news/${second.id}`);
    expect(d).toMatchObject({ status: '000000', code: 200 });
    expect(d.data).toMatchObject({ id: second.id, title: second.title, next: { id: newest.id, title: newest.title } });
    expect(d.data.prev).toMatchObject({ id: list.data.list[2].id });
    expect(d.data.contentHtml.length).toBeGreaterThan(50);
    expect(d.data.contentHtml).not.toMatch(/<script|onerror|javascript:/i);
    expect(d.data.views).toBe(second.views + 1);
    expect((await get(`/official/news/${second.id}`)).data.views).toBe(second.views + 2);
    expect((await get(`/official/news/${newest.id}`)).data.next).toBeNull();

    for (const id of ['999999', 'abc', '0', '1e3']) {
      const r = await get(`/official/news/${id}`, EN);
      expect(r, id).toMatchObject({ http: 404, status: '1404', code: '1404', message: 'news item not found', data: null });
    }
  });

  it('release announcements link to the release page by its id', async () => {
    const r = await get(`/official/news/list?category=${encodeURIComponent('发售日历')}&pageSize=50`);
    expect(r.data.total).toBe(12);
    const d = await get(`/official/news/${r.data.list[0].id}`);
    const m = /href="\/projects\/detail\/(\d+)"/.exec(d.data.contentHtml);
    expect(m).not.toBeNull();
    expect((await call(t, '/goods/v1/project/details', { id: Number(m![1]) })).status).toBe('000000');
    expect(d.data.contentHtml).toContain('rel="noopener noreferrer nofollow"');
  });

  it('newsHostList (hot), newsPlaceList (pinned, in order) and newsBannerList answer code 200', async () => {
    const hot = await get('/official/news/v2/newsHostList');
    expect(hot.code).toBe(200);
    expect(hot.data.length).toBeGreaterThan(3);
    expect(hot.data.every((n: any) => n.isHot)).toBe(true);
    const place = await get('/official/news/v2/newsPlaceList');
    expect(place.code).toBe(200);
    expect(place.data.map((n: any) => n.title)).toEqual(['关于数字藏品平台正式上线的公告', '寄售市场交易规则（试行）', '关于防范诈骗及场外交易风险的提示']);
    const banners = await get('/official/news/newsBannerList');
    expect(banners.code).toBe(200);
    expect(banners.data).toHaveLength(3);
    for (const b of banners.data) {
      expect(b).toMatchObject({ position: 'news', linkType: 'news', url: `/news/${b.linkId}` });
      expect((await get(`/official/news/${b.linkId}`)).status).toBe('000000');
    }
  });

  it('home banners (indexBanner, status semantics) and background/banner/list by position (code 200)', async () => {
    const home = await get('/goods/v1/list/indexBanner');
    expect(home).toMatchObject({ status: '000000', code: '000000' });
    expect(home.data).toHaveLength(4);
    expect(home.data[0]).toMatchObject({ position: 'home', linkType: 'project', url: `/projects/detail/${home.data[0].linkId}` });
    expect(home.data[0].image).toMatch(/^\/mvapi\/public\/official\/image\/\?id=b-/);
    const list = await call(t, '/background/banner/list', {});
    expect(list).toMatchObject({ status: '000000', code: 200 });
    expect(list.data).toEqual(home.data);
    const market = await call(t, '/background/banner/list', { position: 'market' });
    expect(market.data.map((b: any) => b.linkType)).toEqual(['project', 'creator']);
    expect(market.data[1].url).toMatch(/^\/creator\/\d{10}$/);
    expect((await call(t, '/background/banner/list', { position: 'moon' })).status).toBe('1001');
  });

  it('background/getRecommendList resolves items to cards (all lists, or one by code)', async () => {
    const all = await call(t, '/background/getRecommendList', {});
    expect(all).toMatchObject({ status: '000000', code: 200 });
    expect(all.data.map((l: any) => l.code)).toEqual(['home_recommend', 'home_hot', 'home_creators', 'market_featured']);
    const rec = all.data[0];
    expect(rec.items).toHaveLength(5);
    expect(rec.items[0]).toMatchObject({ type: 'project', project: { id: rec.items[0].id } });
    const hot = all.data[1];
    expect(hot.items.length).toBeGreaterThan(0);
    expect(hot.items.every((i: any) => i.type === 'goods' && i.goods.status === 'on_sale')).toBe(true);
    expect(all.data[2].items.every((i: any) => i.creator.accountId.length === 10)).toBe(true);
    const one = await call(t, '/background/getRecommendList', { code: 'home_creators' });
    expect(one.data).toHaveLength(1);
    expect(one.data[0].items).toHaveLength(6);
    expect((await call(t, '/background/getRecommendList', { code: 'nope' })).data).toEqual([]);
  });

  it('official/image/ serves generated SVG with immutable caching, an ETag and w= thumbnails', async () => {
    const proj = (await call(t, '/goods/v1/project/details', { id: 1 })).data;
    const url = proj.cover as string;
    const full = await t.app.inject({ method: 'GET', url });
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(full.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(full.body).toMatch(/^<svg [^>]*width="800" height="800"/);
    const thumb = await t.app.inject({ method: 'GET', url: `${url}&w=120` });
    expect(thumb.body).toMatch(/^<svg [^>]*width="120" height="120"/);
    expect(thumb.body.length).toBeLessThanOrEqual(full.body.length);
    expect(thumb.headers.etag).not.toBe(full.headers.etag);
    const again = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': String(full.headers.etag) } });
    expect(again.statusCode).toBe(304);
    // Deterministic: the same id draws the same picture.
    const id = new URL(url, 'http://x').searchParams.get('id')!;
    expect(renderArtwork(id)).toBe(full.body);
    const wide = await t.app.inject({ method: 'GET', url: `${API}/official/image/?id=cb-3-77&w=600` });
    expect(wide.body).toMatch(/width="600" height="200"/);

    for (const bad of ['x', 'g-99-1', 'r-1-99999999999', '../etc/passwd', 'r-1-1-1-1-1']) {
      const r = await t.app.inject({ method: 'GET', url: `${API}/official/image/?id=${encodeURIComponent(bad)}`, headers: EN });
      expect(r.statusCode, bad).toBe(404);
      expect(r.json()).toMatchObject({ status: '1404', message: 'image not found' });
    }
    expect((await t.app.inject({ method: 'GET', url: `${API}/official/image/` })).json().status).toBe('1001');
    expect(parseImageId('g-3-12-2-40')).toEqual({ kind: 'g', style: 3, seed: 12, variant: 2, serial: 40 });
  });

  it('official/image/ fmt=png rasterises the artwork for link previews (1200 wide by default, ≤ 1200)', async () => {
    const size = (b: Buffer) => ({ w: b.readUInt32BE(16), h: b.readUInt32BE(20) });
    const PNG_SIGNATURE = '89504e470d0a1a0a';
    const og = await t.app.inject({ method: 'GET', url: `${API}/official/image/?id=n-2-77&fmt=png` });
    expect(og.statusCode).toBe(200);
    expect(og.headers['content-type']).toBe('image/png');
    expect(og.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(og.rawPayload.subarray(0, 8).toString('hex')).toBe(PNG_SIGNATURE);
    expect(size(og.rawPayload)).toEqual({ w: 1200, h: 675 }); // a news cover is 16:9
    const small = await t.app.inject({ method: 'GET', url: `${API}/official/image/?id=g-0-43550909-3-5&fmt=png&w=300` });
    expect(size(small.rawPayload)).toEqual({ w: 300, h: 300 });
    const capped = await t.app.inject({ method: 'GET', url: `${API}/official/image/?id=g-0-43550909-3-5&fmt=png&w=4000` });
    expect(size(capped.rawPayload).w).toBe(1200);
    // Not all one colour: the picture was really drawn (the PNG of a flat image would be tiny).
    expect(small.rawPayload.length).toBeGreaterThan(5_000);
    const again = await t.app.inject({ method: 'GET', url: `${API}/official/image/?id=n-2-77&fmt=png`, headers: { 'if-none-match': String(og.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(og.headers.etag).not.toBe((await t.app.inject({ method: 'GET', url: `${API}/official/image/?id=n-2-77` })).headers.etag);
    const bad = await t.app.inject({ method: 'GET', url: `${API}/official/image/?id=g-99-1&fmt=png`, headers: EN });
    expect(bad.statusCode).toBe(404);
    expect(bad.json()).toMatchObject({ status: '1404', message: 'image not found' });
    expect((await t.app.inject({ method: 'GET', url: `${API}/official/image/?id=n-2-77&fmt=gif` })).json().status).toBe('1001');
  });

  it('official/image/ fmt=png: a flood of distinct renders is partly refused with 503 9999, never a 500, and recovers', async () => {
    const flood = await Promise.all(
      Array.from({ length: 60 }, (_, i) => t.app.inject({ method: 'GET', url: `${API}/official/image/?id=r-1-4242&fmt=png&w=${1000 + i}`, headers: EN })),
    );
    const codes = flood.map((r) => r.statusCode);
    expect(codes.every((c) => c === 200 || c === 503)).toBe(true);
    expect(codes.filter((c) => c === 200).length).toBeGreaterThanOrEqual(2 + 32);
    const refused = flood.find((r) => r.statusCode === 503);
    expect(refused?.json()).toEqual({ status: '9999', code: '9999', data: null, message: 'service busy, please try again later', msg: 'service busy, please try again later' });
    const after = await t.app.inject({ method: 'GET', url: `${API}/official/image/?id=r-1-4242&fmt=png&w=64` });
    expect(after.statusCode).toBe(200);
  });

  it('the rich-text sanitiser keeps formatting and drops scripts, handlers and bad URLs', () => {
    const dirty = `<h3>标题</h3><p onclick="x()">正文<strong>加粗</strong><script>alert(1)</script></p>
<a href="javascript:alert(1)">坏链接</a><a href="https://example.com/">好链接</a>
<img src="x" onerror="alert(1)"><img src="http://insecure.example/a.png"><img src="/mvapi/public/official/image/?id=r-1-2">
<iframe src="https://evil.example"></iframe><style>body{}</style><div style="color:red">块</div>`;
    const clean = sanitizeRichText(dirty);
    expect(clean).toContain('<h3>标题</h3>');
    expect(clean).toContain('<strong>加粗</strong>');
    expect(clean).toContain('<a href="https://example.com/" target="_blank" rel="noopener noreferrer nofollow">好链接</a>');
    expect(clean).toContain('<img src="/mvapi/public/official/image/?id=r-1-2" />');
    expect(clean).not.toMatch(/script|onclick|onerror|javascript:|iframe|<style|style=|insecure/);
    expect(clean).toContain('块');
  });
});
