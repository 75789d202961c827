import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, call, makeApp, register, type TestApp } from './helpers.ts';
import { getSearchIndex, invalidateSearchIndex, KindIndex, normalize, searchIndexSettled } from '../src/modules/search/search-index.ts';

/** Search suggestions, the results page and per-user history on the seeded demo catalogue. */
let t: TestApp;
const EN = { lang: 'en' };

async function get(p: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url: API + p, headers: { channel: 'pc', ...headers } });
  return { http: res.statusCode, ...(res.json() as { status: string; code: string | number; data: any; message: string; msg: string }) };
}
const suggest = async (text: string) => (await call(t, '/search/v1/query', { text })).data;

beforeAll(async () => {
  t = await makeApp({}, { DEMO_DATA: '1' });
  t.cacheClock.freeze(); // the index refreshes only when a test moves the cache clock
});
afterAll(async () => { await t?.close(); });

describe('the substring index', () => {
  it('ranks exact, then prefix, then infix matches; id order within a tier; stops at the limit', () => {
    const ix = new KindIndex();
    ix.add(['飞龙在天', '龙门', '应龙', '龙', '龙', '青龙·龙纹', 'abc'].map((name, i) => ({ id: i + 1, name })));
    const order = (term: string, limit?: number) => ix.search(normalize(term), limit).map((h) => `${ix.names[h.idx]}:${h.tier}`);
    expect(order('龙')).toEqual(['龙:0', '龙:0', '龙门:1', '飞龙在天:2', '应龙:2', '青龙·龙纹:2']);
    expect(order('龙', 3)).toEqual(['龙:0', '龙:0', '龙门:1']);
    expect(order('龙门')).toEqual(['龙门:0']);
    expect(order('龙在天')).toEqual(['飞龙在天:2']);
    expect(order('ABC')).toEqual(['abc:0']);
    expect(order('ｂ')).toEqual(['abc:2']);
    expect(order('虎')).toEqual([]);
    expect(order('')).toEqual([]);
  });
});

describe(`search on ${process.env.TEST_PG_URL ? 'PostgreSQL' : 'SQLite'}`, () => {
  it('suggests collectibles for a 1-character Chinese term, with the match in <em>', async () => {
    const r = await call(t, '/search/v1/query', { text: '龙' });
    expect(r.status).toBe('000000');
    expect(r.data.goods.length).toBe(10);
    for (const s of r.data.goods) {
      expect(s.type).toBe('1');
      expect(s.plainText).toContain('龙');
      expect(s.text).toBe(s.plainText.replace('龙', '<em>龙</em>'));
    }
    const d = await get(`/goods/v1/details/?id=${r.data.goods[0].id}`);
    expect(d.data.name).toBe(r.data.goods[0].plainText);
    // a 1-character term that only a release has
    const cat = await suggest('猫');
    expect(cat.projects).toEqual([{ text: '星野·像素<em>猫</em>咖', plainText: '星野·像素猫咖', type: '0', id: expect.any(Number) }]);
  });

  it('2-character terms: releases, collectibles and creators; prefix matches before infix ones', async () => {
    const r = await suggest('节气');
    expect(r.projects.map((s: any) => s.plainText).sort()).toEqual(['二十四节气·夏', '二十四节气·春']);
    expect(r.goods.length).toBeGreaterThan(0);
    expect(r.goods.every((s: any) => s.plainText.startsWith('节气春·'))).toBe(true);
    expect(r.creators).toEqual([{ text: '<em>节气</em>研究所', plainText: '节气研究所', type: '2', id: expect.any(Number) }]);
    // 像素长城 (prefix) ranks before the newer 星野·像素猫咖 (infix).
    const px = await suggest('像素');
    expect(px.projects.map((s: any) => s.plainText)).toEqual(['像素长城', '星野·像素猫咖']);
    expect(px.creators.map((s: any) => s.plainText)).toEqual(['星野像素']);
  });

  it('longer terms (3, 4 characters and mixed) match as substrings', async () => {
    expect((await suggest('十二生肖')).projects.map((s: any) => s.plainText)).toEqual(['水墨十二生肖']);
    const four = await suggest('飞天壁画');
    expect(four.goods.length).toBe(10);
    expect(four.goods.every((s: any) => s.plainText.startsWith('飞天壁画·') && s.text.startsWith('<em>飞天壁画</em>·'))).toBe(true);
    const three = await suggest('九尾狐');
    expect(three.goods.every((s: any) => s.plainText.includes('九尾狐'))).toBe(true);
    expect(three.goods.length).toBeGreaterThan(0);
    // case- and width-insensitive; digits
    const city = await suggest('２０７７');
    expect(city.projects.map((s: any) => s.plainText)).toEqual(['未来城市2077']);
    expect(city.projects[0].text).toBe('未来城市<em>2077</em>');
    expect(await suggest('不存在的藏品名称')).toEqual({ projects: [], goods: [], creators: [] });
    expect(await suggest('   ')).toEqual({ projects: [], goods: [], creators: [] });
    expect((await call(t, '/search/v1/query', {})).data).toEqual({ projects: [], goods: [], creators: [] });
  });

  it('input is at most 20 characters', async () => {
    expect((await call(t, '/search/v1/query', { text: '龙'.repeat(20) })).status).toBe('000000');
    expect((await call(t, '/search/v1/query', { text: '𠀀'.repeat(20) })).status).toBe('000000');
    const long = await call(t, '/search/v1/query', { text: '龙'.repeat(21) }, EN);
    expect(long).toMatchObject({ status: '1001', message: 'search text is limited to 20 characters' });
    expect((await call(t, '/search/v1/queryFinal', { text: 'x'.repeat(21) })).status).toBe('1001');
    expect((await call(t, '/search/v1/query', { text: 'x'.repeat(201) })).status).toBe('1001');
  });

  it('escapes names in the highlighted text; new releases become searchable', async () => {
    const creator = await t.ctx.db.kysely.selectFrom('creators').select('id').limit(1).executeTakeFirstOrThrow();
    await getSearchIndex(t.ctx);
    const now = t.clock.t;
    await t.ctx.db.kysely
      .insertInto('projects')
      .values({
        creator_id: Number(creator.id), name: '测试<b>&"系列', cover: '/x', category: '测试', description_html: '', supply: 1, sold: 0, price_fen: 100,
        sale_start_at: now, sale_end_at: null, contract_address: null, token_start: null, token_end: null, holding_days: 0, sort: 0, created_at: now,
      })
      .execute();
    // Without invalidation the index picks the row up on its background refresh, a second (of cache time) after the last one.
    expect((await suggest('测试')).projects).toEqual([]);
    t.cacheClock.advance(1001);
    await suggest('测试'); // starts the refresh
    await searchIndexSettled(t.ctx);
    const found = (await suggest('测试')).projects;
    expect(found).toEqual([{ text: '<em>测试</em>&lt;b&gt;&amp;&quot;系列', plainText: '测试<b>&"系列', type: '0', id: expect.any(Number) }]);
    await t.ctx.db.kysely.deleteFrom('projects').where('name', '=', '测试<b>&"系列').execute();
    invalidateSearchIndex(t.ctx);
    expect((await suggest('测试')).projects).toEqual([]);
  });

  it('queryFinal: ranked cards with totals, paged, one list selected by type', async () => {
    const r = await call(t, '/search/v1/queryFinal', { text: '龙', pageSize: 10 });
    expect(r.status).toBe('000000');
    expect(r.data.text).toBe('龙');
    const total = r.data.goods.total;
    expect(total).toBeGreaterThan(20);
    expect(r.data.goods.list).toHaveLength(10);
    expect(r.data.goods.list[0]).toMatchObject({ name: expect.stringContaining('龙'), image: expect.any(String), status: expect.stringMatching(/^(held|on_sale)$/) });
    const p2 = await call(t, '/search/v1/queryFinal', { text: '龙', pageSize: 10, pageNum: 2 });
    expect(p2.data.goods.list[0].id).not.toBe(r.data.goods.list[0].id);
    const last = await call(t, '/search/v1/queryFinal', { text: '龙', pageSize: 50, pageNum: Math.ceil(total / 50) });
    expect(last.data.goods.list).toHaveLength(total % 50 || 50);
    const ids = new Set<number>();
    for (let p = 1; p <= Math.ceil(total / 50); p++) {
      for (const g of (await call(t, '/search/v1/queryFinal', { text: '龙', pageSize: 50, pageNum: p, type: '1' })).data.goods.list) ids.add(g.id);
    }
    expect(ids.size).toBe(total);

    const projects = await call(t, '/search/v1/queryFinal', { text: '节气', type: '0' });
    expect(projects.data.projects.list.map((p: any) => p.name).sort()).toEqual(['二十四节气·夏', '二十四节气·春']);
    expect(projects.data.goods.list).toEqual([]);
    expect(projects.data.goods.total).toBeGreaterThan(0);
    expect(projects.data.creators.total).toBe(1);
    const creators = await call(t, '/search/v1/queryFinal', { text: '节气', type: '2' });
    expect(creators.data.creators.list[0]).toMatchObject({ name: '节气研究所', accountId: expect.stringMatching(/^\d{10}$/) });
    const none = await call(t, '/search/v1/queryFinal', { text: '' });
    expect(none.data.goods).toMatchObject({ list: [], total: 0 });
    expect((await call(t, '/search/v1/queryFinal', { text: '龙', pageSize: 0 })).status).toBe('1001');
  });

  it('a burned collectible leaves the suggestions, the results and its creator\'s counts', async () => {
    await getSearchIndex(t.ctx);
    const before = (await call(t, '/search/v1/queryFinal', { text: '龙', pageSize: 50, type: '1' })).data.goods;
    const victim = before.list[0] as { id: number; name: string };
    const owner = await t.ctx.db.kysely
      .selectFrom('goods')
      .innerJoin('projects', 'projects.id', 'goods.project_id')
      .innerJoin('creators', 'creators.id', 'projects.creator_id')
      .select(['creators.id as creatorId'])
      .where('goods.id', '=', victim.id)
      .executeTakeFirstOrThrow();
    const counted = async () => (await call(t, '/api/creator/v1/query', { id: Number(owner.creatorId) })).data.goodsCount as number;
    const countBefore = await counted();
    expect((await suggest(victim.name)).goods.map((s: any) => s.id)).toContain(victim.id);
    // Burned, as an opened box or a composed fragment is.
    await t.ctx.db.kysely.updateTable('goods').set({ status: 'burned' }).where('id', '=', victim.id).execute();
    expect(await counted()).toBe(countBefore - 1);
    t.cacheClock.advance(1001);
    await suggest('龙'); // starts the refresh
    await searchIndexSettled(t.ctx);
    const after = (await call(t, '/search/v1/queryFinal', { text: '龙', pageSize: 50, type: '1' })).data.goods;
    expect(after.total).toBe(before.total - 1);
    expect(after.list.map((g: any) => g.id)).not.toContain(victim.id);
    expect((await suggest(victim.name)).goods.map((s: any) => s.id)).not.toContain(victim.id);
    await t.ctx.db.kysely.updateTable('goods').set({ status: 'held' }).where('id', '=', victim.id).execute();
    invalidateSearchIndex(t.ctx);
  });

  it('history: recorded by queryFinal for a signed-in user, newest first, at most 10, deletable', async () => {
    const u = await register(t);
    const tok = { token: u.token };
    expect((await get('/search/v1/searchHistory', tok)).data).toEqual([]);
    await call(t, '/search/v1/query', { text: '凤' }, tok); // suggestions are not recorded
    for (const kw of ['龙', '节气', '  像素 ']) {
      t.clock.t += 1000;
      expect((await call(t, '/search/v1/queryFinal', { text: kw }, tok)).status).toBe('000000');
    }
    t.clock.t += 1000;
    await call(t, '/search/v1/queryFinal', { text: '龙' }, tok);
    expect((await get('/search/v1/searchHistory', tok)).data).toEqual(['龙', '像素', '节气']);

    for (let i = 0; i < 12; i++) {
      t.clock.t += 1000;
      await call(t, '/search/v1/queryFinal', { text: `词${i}` }, tok);
    }
    const h = (await get('/search/v1/searchHistory', tok)).data;
    expect(h).toHaveLength(10);
    expect(h[0]).toBe('词11');
    expect(h.at(-1)).toBe('词2');

    expect((await call(t, '/search/v1/delHistory/', { kw: '词11' }, tok)).status).toBe('000000');
    expect((await get('/search/v1/searchHistory', tok)).data[0]).toBe('词10');
    expect((await call(t, '/search/v1/delHistory/', { kw: '没有这个词' }, tok)).status).toBe('000000');
    expect((await call(t, '/search/v1/delHistory/', {}, tok)).status).toBe('1001');
    expect((await call(t, '/search/v1/delHistory/', { all: true }, tok)).status).toBe('000000');
    expect((await get('/search/v1/searchHistory', tok)).data).toEqual([]);

    // another user's history is separate
    const other = await register(t);
    await call(t, '/search/v1/queryFinal', { text: '锦鲤' }, { token: other.token });
    expect((await get('/search/v1/searchHistory', tok)).data).toEqual([]);
    expect((await get('/search/v1/searchHistory', { token: other.token })).data).toEqual(['锦鲤']);
  });

  it('history without a session: visitors get [] and may search; a stale token is 1100 on history calls', async () => {
    expect(await get('/search/v1/searchHistory')).toMatchObject({ status: '000000', data: [] });
    expect((await get('/search/v1/searchHistory', { token: 'stale' })).status).toBe('1100');
    expect((await call(t, '/search/v1/delHistory/', { kw: '龙' })).status).toBe('1100');
    const r = await call(t, '/search/v1/queryFinal', { text: '龙' }, { token: 'stale' });
    expect(r.status).toBe('000000');
    const rows = await t.ctx.db.kysely.selectFrom('search_history').select('kw').where('kw', '=', '龙').execute();
    expect(rows).toHaveLength(0);
  });
});
