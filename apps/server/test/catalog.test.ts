import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, call, makeApp, register, type TestApp } from './helpers.ts';
import { invalidateGoodsLists } from '../src/modules/catalog/list-goods.ts';
import { listUnmintedGoods, markMinted } from '../src/modules/catalog/mint-queue.ts';
import { generateDemo } from '../src/modules/demo/generate-demo.ts';
import { seedDemoIfEmpty } from '../src/modules/demo/seed-demo.ts';

/** Releases, collectibles and creators on the seeded demo catalogue (2,000 collectibles). */
let t: TestApp;
const EN = { lang: 'en' };
const HOUR = 3_600_000;

async function get(p: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url: API + p, headers: { channel: 'pc', ...headers } });
  return { http: res.statusCode, ...(res.json() as { status: string; code: string | number; data: any; message: string; msg: string }) };
}

beforeAll(async () => {
  t = await makeApp({}, { DEMO_DATA: '1' });
});
afterAll(async () => { await t?.close(); });

describe(`catalog on ${process.env.TEST_PG_URL ? 'PostgreSQL' : 'SQLite'}`, () => {
  it('seeds the demo catalogue once: 12 releases in every state, ~2,000 collectibles, 6 creator accounts', async () => {
    const r = await call(t, '/goods/v1/project/index', { pageSize: 50 });
    expect(r).toMatchObject({ status: '000000', code: '000000' });
    expect(r.data.total).toBe(12);
    const statuses = r.data.list.map((p: any) => p.status);
    for (const s of ['on_sale', 'upcoming', 'sold_out', 'ended']) expect(statuses).toContain(s);
    // default order: on sale, upcoming (soonest first), then sold out / ended
    const ranks = statuses.map((s: string) => ({ on_sale: 0, upcoming: 1, sold_out: 2, ended: 2 })[s]);
    expect([...ranks].sort()).toEqual(ranks);
    const upcoming = r.data.list.filter((p: any) => p.status === 'upcoming');
    expect(upcoming[0].saleStartAt - t.clock.t).toBeLessThan(6 * HOUR);
    expect(upcoming[0].saleStartAt).toBeLessThan(upcoming[1].saleStartAt);

    const goods = await t.ctx.db.kysely.selectFrom('goods').select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(goods.n)).toBeGreaterThan(1800);
    expect(Number(goods.n)).toBeLessThan(2200);
    const creators = await t.ctx.db.kysely.selectFrom('creators').innerJoin('users', 'users.id', 'creators.user_id').select(['users.is_creator']).execute();
    expect(creators).toHaveLength(6);
    expect(creators.every((c) => Number(c.is_creator) === 1)).toBe(true);

    const again = await seedDemoIfEmpty(t.ctx);
    expect(again.seeded).toBe(false);
  });

  it('the generator is deterministic for the same clock and size', () => {
    const a = generateDemo(1_700_000_000_000, 500);
    const b = generateDemo(1_700_000_000_000, 500);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(a.news).toHaveLength(30);
    expect(a.creators).toHaveLength(6);
    expect(a.projects).toHaveLength(12);
    expect(a.goods.length).toBeGreaterThan(400);
  });

  it('project/index filters by status, category and creator, sorts, and pages within bounds', async () => {
    const sold = await call(t, '/goods/v1/project/index', { status: 'sold_out', pageSize: 50 });
    expect(sold.data.total).toBeGreaterThan(0);
    expect(sold.data.list.every((p: any) => p.status === 'sold_out' && p.sold === p.supply && p.remaining === 0)).toBe(true);
    const cat = await call(t, '/goods/v1/project/index', { category: '节气文化' });
    expect(cat.data.total).toBe(2);
    const byCreator = await call(t, '/goods/v1/project/index', { creatorId: cat.data.list[0].creator.id });
    expect(byCreator.data.list.every((p: any) => p.creator.id === cat.data.list[0].creator.id)).toBe(true);
    const cheap = await call(t, '/goods/v1/project/index', { sort: 'priceAsc', pageSize: 50 });
    const prices = cheap.data.list.map((p: any) => p.priceFen);
    expect(prices).toEqual([...prices].sort((a: number, b: number) => a - b));

    const p1 = await call(t, '/goods/v1/project/index', { pageNum: 1, pageSize: 5 });
    const p3 = await call(t, '/goods/v1/project/index', { pageNum: '3', pageSize: '5' });
    expect(p1.data).toMatchObject({ total: 12, pageNum: 1, pageSize: 5 });
    expect(p1.data.list).toHaveLength(5);
    expect(p3.data.list).toHaveLength(2);
    const beyond = await call(t, '/goods/v1/project/index', { pageNum: 99, pageSize: 5 });
    expect(beyond.data).toMatchObject({ list: [], total: 12 });
    const capped = await call(t, '/goods/v1/project/index', { pageSize: 1000 });
    expect(capped.data.pageSize).toBe(50);
    for (const bad of [{ pageNum: 0 }, { pageSize: 0 }, { pageNum: -1 }, { pageNum: 1.5 }, { pageSize: 'x' }, { status: 'nope' }]) {
      const r = await call(t, '/goods/v1/project/index', bad);
      expect(r.http, JSON.stringify(bad)).toBe(400);
      expect(r.status).toBe('1001');
    }
  });

  it('project details, detailsTitle and subSale; unknown ids answer 1404 and never a 500', async () => {
    const list = await call(t, '/goods/v1/project/index', { status: 'on_sale' });
    const id = list.data.list[0].id;
    const d = await call(t, '/goods/v1/project/details', { id });
    expect(d.status).toBe('000000');
    expect(d.data).toMatchObject({ id, status: 'on_sale', serverTime: t.clock.t });
    expect(d.data.descriptionHtml).toContain('<h3>发售信息</h3>');
    expect(d.data.descriptionHtml).not.toMatch(/<script|onerror|javascript:/i);
    expect(Number(d.data.tokenEnd) - Number(d.data.tokenStart) + 1).toBe(d.data.supply);

    const title = await call(t, '/goods/v1/project/detailsTitle/', { id: String(id) });
    expect(title.data).toMatchObject({ id, name: d.data.name, creator: d.data.creator });

    const sale = await get(`/goods/v1/project/subSale/?id=${id}`);
    expect(sale.data).toMatchObject({ id, status: 'on_sale', startsInMs: 0, serverTime: t.clock.t });
    expect(sale.data.endsInMs).toBeGreaterThan(0);

    for (const r of [
      await call(t, '/goods/v1/project/details', { id: 999999 }, EN),
      await call(t, '/goods/v1/project/detailsTitle/', { id: 999999 }, EN),
      await get('/goods/v1/project/subSale/?id=999999', EN),
    ]) {
      expect(r).toMatchObject({ http: 404, status: '1404', code: '1404', data: null, message: 'release not found' });
    }
    expect((await call(t, '/goods/v1/project/details', { id: 'abc' })).status).toBe('1001');
    expect((await get('/goods/v1/project/subSale/')).status).toBe('1001');
    expect((await get('/goods/v1/project/subSale/?id=12345678901234567890')).status).toBe('1001');
  });

  it('the release status follows the clock: the countdown release goes on sale at its start time', async () => {
    const list = await call(t, '/goods/v1/project/index', { status: 'upcoming', sort: 'startAsc' });
    const next = list.data.list[0];
    const before = await get(`/goods/v1/project/subSale/?id=${next.id}`);
    expect(before.data.status).toBe('upcoming');
    expect(before.data.startsInMs).toBe(next.saleStartAt - t.clock.t);
    const saved = t.clock.t;
    t.clock.t = next.saleStartAt;
    try {
      const after = await get(`/goods/v1/project/subSale/?id=${next.id}`);
      expect(after.data).toMatchObject({ status: 'on_sale', startsInMs: 0 });
    } finally {
      t.clock.t = saved;
    }
  });

  it('findAll lists every release; detailsTitle needs an id', async () => {
    const all = await get('/goods/v1/findAll/');
    expect(all.status).toBe('000000');
    expect(all.data).toHaveLength(12);
    expect(all.data[0]).toEqual({ id: expect.any(Number), name: expect.any(String), cover: expect.stringContaining('/official/image/?id='), category: expect.any(String), status: expect.any(String) });
    expect((await call(t, '/goods/v1/project/detailsTitle/', {})).status).toBe('1001');
  });

  it('list/index: the market by default (on sale, newest listing first), filters, price sort, paging', async () => {
    const m = await call(t, '/goods/v1/list/index', {});
    expect(m.status).toBe('000000');
    expect(m.data.total).toBeGreaterThan(50);
    expect(m.data.list).toHaveLength(10);
    expect(m.data.list.every((g: any) => g.status === 'on_sale' && g.salePriceFen > 0)).toBe(true);

    const asc = await call(t, '/goods/v1/list/index', { sort: 'priceAsc', pageSize: 50 });
    const ps = asc.data.list.map((g: any) => g.salePriceFen);
    expect(ps).toEqual([...ps].sort((a: number, b: number) => a - b));
    const desc = await call(t, '/goods/v1/list/index', { sort: 'priceDesc', pageSize: 5 });
    expect(desc.data.list[0].salePriceFen).toBeGreaterThanOrEqual(asc.data.list.at(-1).salePriceFen);

    const range = await call(t, '/goods/v1/list/index', { minPriceFen: 5000, maxPriceFen: 10000, pageSize: 50 });
    expect(range.data.list.every((g: any) => g.salePriceFen >= 5000 && g.salePriceFen <= 10000)).toBe(true);

    const projects = await call(t, '/goods/v1/project/index', { status: 'sold_out' });
    const pid = projects.data.list[0].id;
    const all = await call(t, '/goods/v1/list/index', { projectId: pid, status: 'all', sort: 'serialAsc', pageSize: 50 });
    expect(all.data.total).toBe(projects.data.list[0].supply);
    expect(all.data.list.map((g: any) => g.serial)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const last = await call(t, '/goods/v1/list/index', { projectId: pid, status: 'all', sort: 'serialAsc', pageSize: 50, pageNum: Math.ceil(all.data.total / 50) });
    expect(last.data.list.length).toBe(all.data.total % 50 || 50);
    const cat = await call(t, '/goods/v1/list/index', { category: '像素艺术', status: 'all', pageSize: 50 });
    expect(cat.data.list.every((g: any) => g.projectName.includes('像素'))).toBe(true);

    const held = await call(t, '/goods/v1/list/index', { status: 'held', pageSize: 3 });
    expect(held.data.list.every((g: any) => g.status === 'held' && g.salePriceFen === null)).toBe(true);
    const tooFar = await call(t, '/goods/v1/list/index', { pageNum: 10001 });
    expect(tooFar.status).toBe('1001');
    expect((await call(t, '/goods/v1/list/index', { pageSize: 500 })).data.list).toHaveLength(50);
    expect((await call(t, '/goods/v1/list/index', { projectId: 999999 })).data).toMatchObject({ list: [], total: 0 });
  });

  it('cached list pages never outlive a write on SQLite (and are dropped by invalidateGoodsLists)', async () => {
    const first = await call(t, '/goods/v1/list/index', { pageSize: 5 });
    const top = first.data.list[0];
    await t.ctx.db.kysely.updateTable('goods').set({ status: 'held', sale_price_fen: null, listed_at: null }).where('id', '=', top.id).execute();
    if (t.dbKind === 'postgres') invalidateGoodsLists(t.ctx);
    const second = await call(t, '/goods/v1/list/index', { pageSize: 5 });
    expect(second.data.list.map((g: any) => g.id)).not.toContain(top.id);
    expect(second.data.total).toBe(first.data.total - 1);
    await t.ctx.db.kysely.updateTable('goods').set({ status: 'on_sale', sale_price_fen: top.salePriceFen, listed_at: t.clock.t }).where('id', '=', top.id).execute();
    if (t.dbKind === 'postgres') invalidateGoodsLists(t.ctx);
    const third = await call(t, '/goods/v1/list/index', { pageSize: 5 });
    expect(third.data.list[0].id).toBe(top.id);
    expect(third.data.total).toBe(first.data.total);
  });

  it('details: one collectible with owner, creator, attributes, chain fields; unknown ids 1404', async () => {
    const m = await call(t, '/goods/v1/list/index', { pageSize: 1 });
    const id = m.data.list[0].id;
    const d = await get(`/goods/v1/details/?id=${id}`);
    expect(d.status).toBe('000000');
    expect(d.data).toMatchObject({ id, status: 'on_sale', chainStatus: 'pending', contract: null, mintedAt: null });
    expect(d.data.tokenId).toMatch(/^\d+$/);
    expect(d.data.attributes.map((a: any) => a.trait)).toEqual(['系列', '形象', '稀有度', '背景']);
    expect(d.data.owner.accountId).toMatch(/^\d{10}$/);
    expect(d.data.owner.avatar).toMatch(/^\/media\/avatars\/\d+\.svg$/);
    expect(d.data.creator.accountId).toMatch(/^\d{10}$/);
    expect(d.data.transferableAt).toBe(d.data.acquiredAt + d.data.holdingDays * 86_400_000);
    expect(d.data.listedAt).toBeGreaterThan(0);
    const unknown = await get('/goods/v1/details/?id=987654321', EN);
    expect(unknown).toMatchObject({ http: 404, status: '1404', message: 'collectible not found', data: null });
    expect((await get('/goods/v1/details/?id=0')).status).toBe('1001');
    expect((await get('/goods/v1/details/?id=-5')).status).toBe('1001');
    expect((await get('/goods/v1/details/')).http).toBe(400);
  });

  it('historyPrice and historyAction of a collectible; unknown ids 1404', async () => {
    // A collectible that was resold has a mint and at least one sale.
    const sale = await t.ctx.db.kysely.selectFrom('goods_history_actions').select('goods_id').where('action', '=', 'sale').limit(1).executeTakeFirstOrThrow();
    const id = Number(sale.goods_id);
    const prices = await get(`/goods/v1/list/historyPrice/?id=${id}`);
    expect(prices.status).toBe('000000');
    expect(prices.data.length).toBeGreaterThanOrEqual(2);
    const ats = prices.data.map((p: any) => p.at);
    expect(ats).toEqual([...ats].sort((a: number, b: number) => a - b));
    expect((await get(`/goods/v1/list/historyPrice/?id=${id}&limit=1`)).data).toEqual([prices.data.at(-1)]);

    const acts = await get(`/goods/v1/list/historyAction/?id=${id}&pageSize=2`);
    expect(acts.data.total).toBeGreaterThanOrEqual(3);
    expect(acts.data.list).toHaveLength(2);
    const allActs = await get(`/goods/v1/list/historyAction/?id=${id}&pageSize=50`);
    const kinds = allActs.data.list.map((a: any) => a.action);
    expect(kinds.at(-1)).toBe('mint');
    expect(kinds).toContain('sale');
    const mint = allActs.data.list.at(-1);
    expect(mint.from).toBeNull();
    expect(mint.to.accountId).toMatch(/^\d{10}$/);
    const s = allActs.data.list.find((a: any) => a.action === 'sale');
    expect(s.from.accountId).not.toBe(s.to.accountId);
    expect(s.priceFen).toBeGreaterThan(0);

    expect((await get('/goods/v1/list/historyPrice/?id=987654321')).status).toBe('1404');
    expect((await get('/goods/v1/list/historyAction/?id=987654321')).status).toBe('1404');
    expect((await get(`/goods/v1/list/historyAction/?id=${id}&pageNum=0`)).status).toBe('1001');
  });

  it('commonInfo: server time, chain id, commission, limits', async () => {
    const r = await get('/goods/v1/commonInfo/');
    expect(r.data).toEqual({ serverTime: t.clock.t, chainId: 1029, explorerUrl: expect.stringMatching(/^https:\/\//), commissionPermille: 50, currencySymbol: '￥', pageSizeMax: 50, searchMax: 20 });
  });

  it('list/head summarises the signed-in user\'s collection and needs a session', async () => {
    const anon = await call(t, '/goods/v1/list/head');
    expect(anon.status).toBe('1100');
    const u = await register(t);
    const empty = await call(t, '/goods/v1/list/head', {}, { token: u.token });
    expect(empty.data).toEqual({ total: 0, held: 0, onSale: 0, series: 0, valuationFen: 0 });
    // A demo collector's summary agrees with the rows.
    const owner = await t.ctx.db.kysely.selectFrom('goods').select('owner_user_id').limit(1).executeTakeFirstOrThrow();
    const rows = await t.ctx.db.kysely.selectFrom('goods').select(['status', 'project_id', 'last_price_fen']).where('owner_user_id', '=', Number(owner.owner_user_id)).execute();
    const { getListHead } = await import('../src/modules/catalog/get-list-head.ts');
    const head = await getListHead(t.ctx, Number(owner.owner_user_id));
    expect(head).toEqual({
      total: rows.length,
      onSale: rows.filter((r) => r.status === 'on_sale').length,
      held: rows.filter((r) => r.status !== 'on_sale').length,
      series: new Set(rows.map((r) => Number(r.project_id))).size,
      valuationFen: rows.reduce((s, r) => s + Number(r.last_price_fen ?? 0), 0),
    });
  });

  it('getFilterRelatedMetaInfo answers code 200 with the market filters in the asked language', async () => {
    const zh = await get('/background/nftMarket/v1/getFilterRelatedMetaInfo');
    expect(zh).toMatchObject({ status: '000000', code: 200 });
    expect(zh.data.projects).toHaveLength(12);
    expect(zh.data.categories.map((c: any) => c.value)).toContain('国风水墨');
    expect(zh.data.sorts[1]).toEqual({ value: 'priceAsc', label: '价格从低到高' });
    const en = await get('/background/nftMarket/v1/getFilterRelatedMetaInfo', EN);
    expect(en.data.sorts[1].label).toBe('Price: low to high');
    expect(en.data.priceRanges.at(-1)).toMatchObject({ minFen: 200_000, maxFen: null });
  });

  it('creators: query by account id or id, their releases, the directory; unknown 1404', async () => {
    const dir = await call(t, '/api/creator/v1/list', { pageSize: 50 });
    expect(dir.data.total).toBe(6);
    const c = dir.data.list[0];
    expect(c.projectCount).toBeGreaterThan(0);
    const byAccount = await call(t, '/api/creator/v1/query', { accountId: c.accountId });
    expect(byAccount.status).toBe('000000');
    expect(byAccount.data).toMatchObject({ id: c.id, name: c.name, accountId: c.accountId });
    expect(byAccount.data.mediaLinks.length).toBeGreaterThan(0);
    expect(byAccount.data.goodsCount).toBeGreaterThan(0);
    expect(byAccount.data.holderCount).toBeGreaterThan(0);
    expect((await call(t, '/api/creator/v1/query', { id: c.id })).data.accountId).toBe(c.accountId);
    // The creator's account is flagged in the user profile sense too.
    const user = await t.ctx.db.kysely.selectFrom('users').select('is_creator').where('account_id', '=', c.accountId).executeTakeFirstOrThrow();
    expect(Number(user.is_creator)).toBe(1);

    const projects = await call(t, '/goods/v1/project/queryCreatorProjectAccountId', { accountId: c.accountId });
    expect(projects.data.total).toBe(c.projectCount);
    expect(projects.data.list.every((p: any) => p.creator.accountId === c.accountId)).toBe(true);

    expect(await call(t, '/api/creator/v1/query', { accountId: '1000000000' }, EN)).toMatchObject({ status: '1404', message: 'creator not found' });
    expect((await call(t, '/api/creator/v1/query', { id: 999999 })).status).toBe('1404');
    expect((await call(t, '/api/creator/v1/query', {})).status).toBe('1001');
    expect((await call(t, '/goods/v1/project/queryCreatorProjectAccountId', { accountId: 'nobody' })).status).toBe('1404');
  });

  it('the chain service\'s mint queue: pending collectibles with token ids, marked minted idempotently', async () => {
    const batch = await listUnmintedGoods(t.ctx, 5);
    expect(batch).toHaveLength(5);
    expect(batch[0]).toMatchObject({ tokenId: expect.stringMatching(/^\d+$/), contract: null, ownerWallet: null });
    const ids = batch.map((g) => g.id);
    expect(await markMinted(t.ctx, ids, { contract: 'cfx:acc7uawf5ubtnmezvhu9dhc6sghea0403y2dgpyfjp', txHash: '0xabc' })).toBe(5);
    expect(await markMinted(t.ctx, ids)).toBe(0);
    const next = await listUnmintedGoods(t.ctx, 5);
    expect(next.map((g) => g.id).some((id) => ids.includes(id))).toBe(false);
    const d = await get(`/goods/v1/details/?id=${ids[0]}`);
    expect(d.data).toMatchObject({ chainStatus: 'minted', contract: 'cfx:acc7uawf5ubtnmezvhu9dhc6sghea0403y2dgpyfjp', mintedAt: t.clock.t });
  });
});
