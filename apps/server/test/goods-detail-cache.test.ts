import path from 'node:path';
import pgModule from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, makeApp, type TestApp } from './helpers.ts';
import { clearGoodsDetailCache, goodsDetailCacheStats } from '../src/modules/catalog/goods-detail-cache.ts';
import { invalidateProjectInfo, projectInfoSettled } from '../src/modules/catalog/project-info.ts';
import { openSqliteFile } from '../src/db/sqlite-driver.ts';

/**
 * goods/v1/details/ answers from a response cache (catalog/goods-detail-cache.ts). These tests
 * change what a collectible page shows through every kind of writer and check that the next
 * answer shows it: on SQLite at once, on PostgreSQL within CATALOG_CACHE_MS (200 ms here). The
 * app's cache clock is frozen: a test moves it past CATALOG_CACHE_MS (settle) instead of sleeping.
 */
let t: TestApp;
const pg = !!process.env.TEST_PG_URL;
const CACHE_MS = 200;
const HOUR = 3_600_000;
/** The next details call refreshes from the change log (PostgreSQL; SQLite sees every commit at once anyway). */
const settle = () => t.cacheClock.advance(CACHE_MS);
const stats = () => goodsDetailCacheStats(t.ctx);

async function details(id: number, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url: `${API}/goods/v1/details/?id=${id}`, headers: { channel: 'pc', ...headers } });
  return { http: res.statusCode, type: String(res.headers['content-type']), raw: res.body, ...(res.json() as { status: string; code: string; data: any; message: string; msg: string }) };
}

async function someGoods(n = 1) {
  const rows = await t.ctx.db.kysely.selectFrom('goods').select(['id', 'owner_user_id', 'project_id']).orderBy('id').limit(n).execute();
  return rows.map((r) => ({ id: Number(r.id), owner: Number(r.owner_user_id), project: Number(r.project_id) }));
}

beforeAll(async () => {
  t = await makeApp({}, { DEMO_DATA: '1', DEMO_GOODS: '1500', CATALOG_CACHE_MS: String(CACHE_MS) });
  t.cacheClock.freeze();
});
afterAll(async () => {
  await t?.close();
});

describe(`collectible details response cache on ${pg ? 'PostgreSQL' : 'SQLite'}`, () => {
  it('a repeated call is a cache hit with the same content, a fresh serverTime and the caller’s language', async () => {
    const [g] = await someGoods();
    const a = await details(g!.id);
    expect(a).toMatchObject({ http: 200, status: '000000', code: '000000', message: '成功', msg: '成功' });
    expect(a.type).toBe('application/json; charset=utf-8');
    expect(a.data.serverTime).toBe(t.clock.t);
    const before = goodsDetailCacheStats(t.ctx).entries;
    expect(before).toBeGreaterThan(0);
    t.clock.t += 5_000;
    const b = await details(g!.id, { lang: 'en' });
    expect(goodsDetailCacheStats(t.ctx).entries).toBe(before);
    expect(b).toMatchObject({ status: '000000', message: 'success', msg: 'success' });
    expect(b.data.serverTime).toBe(t.clock.t);
    expect({ ...b.data, serverTime: 0 }).toEqual({ ...a.data, serverTime: 0 });
  });

  it('a change of the goods row by any writer shows in the next answer', async () => {
    const [, g] = await someGoods(2);
    const a = await details(g!.id);
    await details(g!.id); // cached now
    await t.ctx.db.kysely.updateTable('goods').set({ status: 'on_sale', sale_price_fen: 123_456, listed_at: t.clock.t }).where('id', '=', g!.id).execute();
    await settle();
    const b = await details(g!.id);
    expect(b.data).toMatchObject({ status: 'on_sale', salePriceFen: 123_456, listedAt: t.clock.t });
    await t.ctx.db.kysely.updateTable('goods').set({ status: 'held', sale_price_fen: null, listed_at: null, name: '改名之后' }).where('id', '=', g!.id).execute();
    await settle();
    const c = await details(g!.id);
    expect(c.data).toMatchObject({ status: 'held', salePriceFen: null, listedAt: null, name: '改名之后' });
    expect(c.data.owner).toEqual(a.data.owner);
  });

  it('a new owner nickname, avatar choice or avatar picture shows in the next answer', async () => {
    const [, , g] = await someGoods(3);
    await details(g!.id);
    await t.ctx.db.kysely.updateTable('users').set({ nickname: '新昵称' }).where('id', '=', g!.owner).execute();
    await settle();
    expect((await details(g!.id)).data.owner.nickname).toBe('新昵称');
    await t.ctx.db.kysely.updateTable('users').set({ profpic_id: '3' }).where('id', '=', g!.owner).execute();
    await settle();
    expect((await details(g!.id)).data.owner.avatar).toBe('/media/avatars/3.svg');
    await t.ctx.db.kysely.updateTable('profpics').set({ url: '/media/avatars/3-new.svg' }).where('id', '=', '3').execute();
    await settle();
    expect((await details(g!.id)).data.owner.avatar).toBe('/media/avatars/3-new.svg');
  });

  it('a release rename shows once the release map reloads (about a second)', async () => {
    const [g] = await someGoods();
    const before = (await details(g!.id)).data.project.name;
    await t.ctx.db.kysely.updateTable('projects').set({ name: `${before}·新版` }).where('id', '=', g!.project).execute();
    expect((await details(g!.id)).data.project.name).toBe(before);
    t.cacheClock.advance(1001);
    await details(g!.id); // starts the background reload of the release map
    await projectInfoSettled(t.ctx);
    const after = await details(g!.id);
    expect(after.data.project.name).toBe(`${before}·新版`);
    expect(after.data.projectName).toBe(`${before}·新版`);
  });

  it('the release status follows the clock across the sale start without any write', async () => {
    const [g] = await someGoods();
    await t.ctx.db.kysely.updateTable('projects').set({ sale_start_at: t.clock.t + HOUR, sale_end_at: null, sold: 0 }).where('id', '=', g!.project).execute();
    invalidateProjectInfo(t.ctx);
    expect((await details(g!.id)).data.project.status).toBe('upcoming');
    expect((await details(g!.id)).data.project.status).toBe('upcoming');
    t.clock.t += 2 * HOUR;
    expect((await details(g!.id)).data.project.status).toBe('on_sale');
  });

  it.skipIf(pg)('SQLite: a commit by another process on the same file shows within 100 ms', async () => {
    const [, , , g] = await someGoods(4);
    await details(g!.id);
    await details(g!.id);
    const other = openSqliteFile(path.join(t.ctx.config.dataDir, 'marketplace.sqlite'));
    try {
      other.exec('PRAGMA busy_timeout = 5000');
      other.prepare('update goods set name = ? where id = ?').run('另一进程改的', g!.id);
    } finally {
      other.close();
    }
    t.cacheClock.advance(100); // the file's data_version is read at most every 100 ms
    expect((await details(g!.id)).data.name).toBe('另一进程改的');
  });

  it('concurrent first requests of one collectible leave one entry and an exact byte count', async () => {
    const [, , , , g] = await someGoods(5);
    clearGoodsDetailCache(t.ctx);
    await details(g!.id);
    const { entries, bytes } = goodsDetailCacheStats(t.ctx);
    clearGoodsDetailCache(t.ctx);
    const answers = await Promise.all(Array.from({ length: 12 }, () => details(g!.id)));
    expect(new Set(answers.map((a) => a.data.name)).size).toBe(1);
    expect(goodsDetailCacheStats(t.ctx)).toMatchObject({ entries, bytes });
  });

  it('a change for every collectible flushes the cache once: later refreshes neither flush again nor miss', async () => {
    const [, , , , , g] = await someGoods(6);
    await details(g!.id);
    // Any user's new nickname logs a change-log row without a goods id ("any collectible may show it").
    const other = await t.ctx.db.kysely.selectFrom('users').select('id').where('id', '!=', g!.owner).orderBy('id').limit(1).executeTakeFirstOrThrow();
    await t.ctx.db.kysely.updateTable('users').set({ nickname: '路人甲' }).where('id', '=', other.id).execute();
    settle();
    const before = stats();
    await details(g!.id);
    const applied = stats();
    expect(applied.flushes - before.flushes).toBe(1);
    expect(applied.misses - before.misses).toBe(1);
    for (let i = 0; i < 5; i++) {
      settle(); // each of these calls refreshes from the change log again
      await details(g!.id);
    }
    expect(stats()).toMatchObject({ flushes: applied.flushes, misses: applied.misses, hits: applied.hits + 5 });
  });

  it('a change of one collectible drops its entry once: later refreshes leave it cached', async () => {
    const [, , , , , , g] = await someGoods(7);
    await details(g!.id);
    await t.ctx.db.kysely.updateTable('goods').set({ name: '只改一次' }).where('id', '=', g!.id).execute();
    settle();
    const before = stats();
    expect((await details(g!.id)).data.name).toBe('只改一次');
    const applied = stats();
    expect(applied.misses - before.misses).toBe(1);
    for (let i = 0; i < 5; i++) {
      settle();
      expect((await details(g!.id)).data.name).toBe('只改一次');
    }
    expect(stats()).toMatchObject({ flushes: applied.flushes, misses: applied.misses, hits: applied.hits + 5 });
  });

  it.skipIf(!pg)('PostgreSQL: a change that commits after a later change is applied when it commits, and only then', async () => {
    const [, , , , , , , a, b] = await someGoods(9);
    const nameA = (await details(a!.id)).data.name;
    await details(b!.id);
    const slow = new pgModule.Client({ connectionString: t.ctx.config.databaseUrl });
    await slow.connect();
    try {
      await slow.query('begin');
      // Takes the smaller change-log seq, but commits last.
      await slow.query('update goods set name = $1 where id = $2', ['后提交的改名', a!.id]);
      await t.ctx.db.kysely.updateTable('goods').set({ name: '先提交的改名' }).where('id', '=', b!.id).execute();
      settle();
      expect((await details(b!.id)).data.name).toBe('先提交的改名');
      expect((await details(a!.id)).data.name).toBe(nameA);
      settle();
      expect((await details(a!.id)).data.name).toBe(nameA);
      await slow.query('commit');
      settle();
      expect((await details(a!.id)).data.name).toBe('后提交的改名');
      const applied = stats();
      for (let i = 0; i < 3; i++) {
        settle();
        expect((await details(a!.id)).data.name).toBe('后提交的改名');
        expect((await details(b!.id)).data.name).toBe('先提交的改名');
      }
      expect(stats()).toMatchObject({ flushes: applied.flushes, misses: applied.misses, hits: applied.hits + 6 });
    } finally {
      await slow.end();
    }
  });

  it.skipIf(!pg)('PostgreSQL: a change in flight while the cache starts over is applied when it commits', async () => {
    const [, , , , , , , , , a, b] = await someGoods(11);
    const nameA = (await details(a!.id)).data.name;
    const slow = new pgModule.Client({ connectionString: t.ctx.config.databaseUrl });
    await slow.connect();
    try {
      await slow.query('begin');
      await slow.query('update goods set name = $1 where id = $2', ['启动时未提交', a!.id]);
      await t.ctx.db.kysely.updateTable('goods').set({ name: '启动时已提交' }).where('id', '=', b!.id).execute();
      // Idle longer than half the change log's retention: the next call starts over at the log's end.
      t.cacheClock.advance(5 * 60_000 + 1);
      const before = stats();
      expect((await details(b!.id)).data.name).toBe('启动时已提交');
      expect(stats().flushes).toBe(before.flushes + 1);
      expect((await details(a!.id)).data.name).toBe(nameA);
      expect((await details(a!.id)).data.name).toBe(nameA);
      await slow.query('commit');
      settle();
      expect((await details(a!.id)).data.name).toBe('启动时未提交');
    } finally {
      await slow.end();
    }
  });

  it('unknown and invalid ids still answer the spec envelope, and are not cached', async () => {
    const entries = goodsDetailCacheStats(t.ctx).entries;
    const unknown = await details(987_654_321, { lang: 'en' });
    expect(unknown).toMatchObject({ http: 404, status: '1404', message: 'collectible not found', data: null });
    expect((await details(0)).status).toBe('1001');
    expect(goodsDetailCacheStats(t.ctx).entries).toBe(entries);
  });
});

describe('collectible details cache memory bound', () => {
  it('DETAILS_CACHE_MB bounds the bytes held; 0 turns it off with the same answers', async () => {
    const small = await makeApp({}, { DEMO_DATA: '1', DEMO_GOODS: '1500', DETAILS_CACHE_MB: '1' });
    const off = await makeApp({}, { DEMO_DATA: '1', DEMO_GOODS: '1500', DETAILS_CACHE_MB: '0' });
    try {
      const ids = (await small.ctx.db.kysely.selectFrom('goods').select('id').orderBy('id').execute()).map((r) => Number(r.id));
      expect(ids.length).toBeGreaterThan(1200);
      for (const id of ids) {
        const res = await small.app.inject({ method: 'GET', url: `${API}/goods/v1/details/?id=${id}` });
        expect(res.statusCode).toBe(200);
      }
      const stats = goodsDetailCacheStats(small.ctx);
      expect(stats.bytes).toBeLessThanOrEqual(1024 * 1024);
      expect(stats.entries).toBeGreaterThan(100);
      expect(stats.entries).toBeLessThan(ids.length);

      off.clock.t = small.clock.t;
      for (const id of [ids[0]!, ids[ids.length - 1]!]) {
        const a = await small.app.inject({ method: 'GET', url: `${API}/goods/v1/details/?id=${id}` });
        const b = await off.app.inject({ method: 'GET', url: `${API}/goods/v1/details/?id=${id}` });
        const x = JSON.parse(a.body);
        const y = JSON.parse(b.body);
        expect(Object.keys(y)).toEqual(Object.keys(x));
        expect(Object.keys(y.data)).toEqual(Object.keys(x.data));
        expect([y.status, y.data.name, y.data.attributes]).toEqual([x.status, x.data.name, x.data.attributes]);
      }
      expect(goodsDetailCacheStats(off.ctx).entries).toBe(0);
    } finally {
      await small.close();
      await off.close();
    }
  });
});
