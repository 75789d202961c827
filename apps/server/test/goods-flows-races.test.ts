import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API } from './helpers.ts';
import { call, makeBoxRelease, makeFlowsApp, makeRule, reveal, type FlowsApp } from './consume-helpers.ts';
import { makeTrader, signTyped, type Trader } from './market-helpers.ts';

/**
 * Blind boxes, compose and transfers under races and random input (SQLite; PostgreSQL with
 * TEST_PG_URL, where the transactions really overlap): a listing and a flow never both win one
 * collectible, two flows never hold it together, and no body ever gets a 5xx.
 */
describe('goods flows under races', () => {
  let t: FlowsApp;
  let alice: Trader;
  beforeEach(async () => {
    t = await makeFlowsApp();
    alice = await makeTrader(t);
  });
  afterEach(async () => {
    await t.close();
  });

  it('openSale and a compose selection of the same fragment: never both', async () => {
    const rule = await makeRule(t, alice, { count: 1, grant: 6 });
    let listed = 0;
    let selected = 0;
    for (const g of rule.goods) {
      const pre = await call(t, '/goods/v1/preOpenSale', { goodsId: g.goodsId, price: 1000 }, alice.h);
      t.chain.approve(pre.data.tokenId, alice.address);
      const signature = signTyped(alice, pre.data);
      const [open, sel] = await Promise.all([
        call(t, '/goods/v1/openSale', { goodsId: g.goodsId, price: 1000, sellerOrderId: pre.data.sellerOrderId, signature }, alice.h),
        call(t, '/api/compose/v1/selectfragment', { ruleId: rule.ruleId, goodsIds: [g.goodsId] }, alice.h),
      ]);
      expect(open.status === '000000' && sel.status === '000000', `${open.status} ${sel.status}`).toBe(false);
      expect([open.status, sel.status].some((s) => s === '000000')).toBe(true);
      if (open.status === '000000') listed++;
      if (sel.status === '000000') selected++;
      const row = await t.ctx.db.kysely.selectFrom('goods').select('status').where('id', '=', g.goodsId).executeTakeFirstOrThrow();
      const holds = await t.ctx.db.kysely.selectFrom('goods_holds').select('goods_id').where('goods_id', '=', g.goodsId).execute();
      // Listed and not held, or held by the compose and not listed.
      expect([row.status, holds.length]).toEqual(open.status === '000000' ? ['on_sale', 0] : ['held', 1]);
    }
    expect(listed + selected).toBe(rule.goods.length);
  });

  it('a box opening, a gift and a compose of one collectible at once: one flow holds it', async () => {
    const bob = await makeTrader(t);
    const r = await makeBoxRelease(t, alice);
    await reveal(t, r.revealEpoch);
    const bobId = (await t.ctx.db.kysely.selectFrom('users').select('account_id').where('id', '=', bob.userId).executeTakeFirstOrThrow()).account_id;
    for (const box of r.goods) {
      const [open, gift] = await Promise.all([
        t.app.inject({ method: 'GET', url: `${API}/goods/v1/openBox/?goodsId=${box.goodsId}`, headers: { channel: 'pc', ...alice.h } }).then((x) => x.json()),
        call(t, '/goods/v1/gift', { goodsId: box.goodsId, accountId: bobId }, alice.h),
      ]);
      expect([open.status, gift.status].filter((s) => s === '000000')).toHaveLength(1);
      const holds = await t.ctx.db.kysely.selectFrom('goods_holds').selectAll().where('goods_id', '=', box.goodsId).execute();
      expect(holds).toHaveLength(1);
      expect(holds[0]!.kind).toBe(open.status === '000000' ? 'box' : 'transfer');
    }
  });

  it('random bodies on every flow call answer the envelope, never a 5xx', async () => {
    const rule = await makeRule(t, alice, { count: 2, grant: 2 });
    const ids = rule.goods.map((g) => g.goodsId);
    const value = fc.oneof(fc.integer(), fc.constantFrom(...ids, rule.ruleId, 0, -1, 2 ** 53), fc.string({ maxLength: 30 }), fc.constant(null), fc.boolean(), fc.array(fc.oneof(fc.integer(), fc.constantFrom(...ids), fc.string({ maxLength: 5 })), { maxLength: 60 }), fc.string({ minLength: 300, maxLength: 2000 }));
    const body = fc.dictionary(fc.constantFrom('goodsId', 'ruleId', 'goodsIds', 'composeNo', 'signature', 'toAddress', 'mobile', 'accountId', 'transferNo', 'txHash', 'projectId', 'pageNum', 'pageSize', 'kind', 'retry'), value);
    const posts = ['/goods/v1/openBox/confirm', '/goods/v1/chip', '/goods/v1/chipAll', '/api/compose/v1/composerule', '/api/compose/v1/getfragmentlist', '/api/compose/v1/selectfragment', '/api/compose/v1/confirmcompose', '/api/compose/v1/submitcompose', '/api/compose/v1/composerecord', '/goods/v1/shift', '/goods/v1/gift', '/goods/v1/gift/receiver', '/goods/v1/shift/notify', '/goods/v1/shift/record'];
    const gets = ['/goods/v1/openBox/', '/goods/v1/queryShiftStatus/', '/goods/v1/box/info/'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...posts, ...gets), body, fc.boolean(), async (path, b, auth) => {
        const headers = { channel: 'pc', 'content-type': 'application/json', ...(auth ? alice.h : {}) };
        const res = gets.includes(path)
          ? await t.app.inject({ method: 'GET', url: `${API}${path}?${new URLSearchParams(Object.entries(b).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString()}`, headers })
          : await t.app.inject({ method: 'POST', url: API + path, headers, payload: JSON.stringify(b) });
        expect(res.statusCode, `${path} ${JSON.stringify(b).slice(0, 200)} → ${res.body.slice(0, 200)}`).toBeLessThan(500);
        const env = res.json();
        expect(typeof env.status).toBe('string');
      }),
      { numRuns: 300 },
    );
  });
});
