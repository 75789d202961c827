import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery } from 'kysely';
import { dbKind, makeApp, type TestApp } from './helpers.ts';
import { completedOrders } from '../src/modules/orders/complete-market-orders.ts';

/**
 * The consignment market's indexes of `orders` are partial (migration 0039: only orders with a
 * listing, a collectible or a settlement transaction). A query may use a partial index only when its
 * own conditions imply the index's `is not null`; these are the shapes the market's queries take
 * (equality, `in`, a join, a correlated `exists`), and each must still be answered through its index. On PostgreSQL sequential scans are disabled for the check: the test tables are
 * small enough that a scan would win on cost alone.
 */
let t: TestApp;
beforeAll(async () => {
  t = await makeApp();
});
afterAll(async () => {
  await t?.close();
});

async function plan(q: { compile(): CompiledQuery }): Promise<string> {
  const c = q.compile();
  const db = t.ctx.db.kysely;
  if (dbKind === 'postgres') {
    return db.transaction().execute(async (trx) => {
      await trx.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
      const r = await trx.executeQuery(CompiledQuery.raw(`explain ${c.sql}`, [...c.parameters]));
      return (r.rows as { 'QUERY PLAN': string }[]).map((x) => x['QUERY PLAN']).join('\n');
    });
  }
  const r = await db.executeQuery(CompiledQuery.raw(`explain query plan ${c.sql}`, [...c.parameters]));
  return (r.rows as { detail: string }[]).map((x) => x.detail).join('\n');
}

describe(`orders' market indexes hold only market orders and still serve the market's queries (${dbKind})`, () => {
  it('are partial: not null on their first column', async () => {
    const db = t.ctx.db.kysely;
    const defs =
      dbKind === 'postgres'
        ? (await db.executeQuery<{ name: string; def: string }>(CompiledQuery.raw(`select indexname as name, indexdef as def from pg_indexes where tablename = 'orders' and indexname in ('orders_listing', 'orders_goods', 'orders_chain_tx') order by 1`))).rows
        : (await db.executeQuery<{ name: string; def: string }>(CompiledQuery.raw(`select name, sql as def from sqlite_master where type = 'index' and tbl_name = 'orders' and name in ('orders_listing', 'orders_goods', 'orders_chain_tx') order by 1`))).rows;
    expect(defs.map((d) => d.name)).toEqual(['orders_chain_tx', 'orders_goods', 'orders_listing']);
    expect(defs.find((d) => d.name === 'orders_chain_tx')!.def).toMatch(/where\s*\(?"?chain_tx_id"? is not null\)?/i);
    expect(defs.find((d) => d.name === 'orders_goods')!.def).toMatch(/where\s*\(?"?goods_id"? is not null\)?/i);
    expect(defs.find((d) => d.name === 'orders_listing')!.def).toMatch(/where\s*\(?"?listing_id"? is not null\)?/i);
  });

  it('equality, in, a join and a correlated exists use them', async () => {
    const db = t.ctx.db.kysely;
    expect(await plan(db.selectFrom('orders').select('id').where('goods_id', '=', 7).where('status', 'in', ['paid', 'settling']))).toMatch(/orders_goods/);
    expect(await plan(db.selectFrom('orders').select(['listing_id', 'order_no']).where('listing_id', 'in', [1, 2, 3]))).toMatch(/orders_listing/);
    expect(await plan(db.selectFrom('orders').select('order_no').where('chain_tx_id', '=', 5))).toMatch(/orders_chain_tx/);
    expect(await plan(db.selectFrom('goods').innerJoin('orders', 'orders.goods_id', 'goods.id').select('orders.order_no').where('goods.id', '=', 3))).toMatch(/orders_goods/);
    // A correlated exists (market/watch-chain.ts). PostgreSQL chooses by cost between it and a hashed
    // subplan over the status index on tables this small, so the plan is checked on SQLite only.
    if (dbKind === 'sqlite') {
      expect(
        await plan(
          db
            .selectFrom('goods')
            .select((eb) => ['goods.id', eb.exists(eb.selectFrom('orders').select('orders.id').whereRef('orders.goods_id', '=', 'goods.id').where('orders.status', 'in', ['paid', 'settling'])).as('busy')])
            .where('goods.id', 'in', [1, 2]),
        ),
      ).toMatch(/orders_goods/);
    }
  });

  it("the completion of settled sales is answered by the order numbers, not a market index", async () => {
    const p = await plan(completedOrders(t.ctx, t.ctx.db.kysely, ['MO1', 'MO2', 'MO3'], '0xabc', 1));
    expect(p).not.toMatch(/orders_goods|orders_listing|orders_status/);
    if (dbKind === 'sqlite') expect(p).toMatch(/USING INDEX sqlite_autoindex_orders|USING INDEX orders_order_no|USING INTEGER PRIMARY KEY|order_no=\?/);
    else expect(p).toMatch(/orders_order_no_key|order_no/);
  });
});
