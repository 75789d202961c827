import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, makeApp, register, type TestApp } from './helpers.ts';

/**
 * Property: the catalog, content and search calls answer the envelope and never a 5xx, whatever
 * their own parameters hold (the shared fuzz test only varies the account calls' fields).
 */
let t: TestApp;
let token = '';
beforeAll(async () => {
  t = await makeApp({}, { DEMO_DATA: '1', DEMO_GOODS: '200' });
  token = (await register(t)).token;
});
afterAll(async () => { await t?.close(); });

const POSTS = [
  '/goods/v1/project/index', '/goods/v1/project/details', '/goods/v1/project/detailsTitle/', '/goods/v1/project/queryCreatorProjectAccountId',
  '/goods/v1/list/index', '/goods/v1/list/head', '/background/banner/list', '/background/getRecommendList', '/search/v1/query',
  '/search/v1/queryFinal', '/search/v1/delHistory/', '/api/creator/v1/query', '/api/creator/v1/list',
];
const GETS = [
  '/goods/v1/project/subSale/', '/goods/v1/findAll/', '/goods/v1/list/indexBanner', '/goods/v1/details/', '/goods/v1/commonInfo/',
  '/goods/v1/list/historyPrice/', '/goods/v1/list/historyAction/', '/official/news/list', '/official/news/v2/newsHostList',
  '/official/news/newsBannerList', '/official/news/v2/newsPlaceList', '/background/nftMarket/v1/getFilterRelatedMetaInfo',
  '/search/v1/searchHistory', '/official/image/', '/official/news/',
];
const KEYS = ['id', 'pageNum', 'pageSize', 'status', 'sort', 'category', 'creatorId', 'projectId', 'minPriceFen', 'maxPriceFen', 'accountId', 'text', 'kw', 'all', 'type', 'code', 'position', 'limit', 'w'];
const value = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('\u0000', '1\u0000', '%00', '-1', '0', '1', '2', '99999999999999999999', '1e3', '龙', '节气', 'on_sale', 'all', 'priceAsc', "1' or '1'='1", '<script>'),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
);
const params = fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 5 });

describe('catalog fuzz', () => {
  it('random parameters never produce a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 10_000 }), params, fc.boolean(), async (i, p, withToken) => {
        const all = [...POSTS.map((u) => ['POST', u]), ...GETS.map((u) => ['GET', u])] as const;
        const [method, path] = all[i % all.length]!;
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (withToken) headers.token = token;
        let url = API + path;
        if (method === 'GET') {
          const q = new URLSearchParams(Object.entries(p).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v) ?? '']));
          url += path === '/official/news/' ? encodeURIComponent(String(p.id ?? 'x')) : `?${q}`;
        }
        const res = await t.app.inject({ method, url, headers, payload: method === 'POST' ? JSON.stringify(p) : undefined });
        expect(res.statusCode, `${method} ${url} ${JSON.stringify(p)}`).toBeLessThan(500);
        if (res.headers['content-type']?.toString().startsWith('application/json')) {
          const b = res.json();
          expect(typeof b.status).toBe('string');
          expect(b).toHaveProperty('code');
        }
      }),
      { numRuns: 500 },
    );
  });
});
