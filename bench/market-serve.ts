// The server under the createOrder benchmark: the real app (SQLite unless DATABASE_URL is set; no
// chain is needed to reserve listings) seeded with BENCH_LISTINGS on-sale listings (rows written
// directly: the listing checks are covered by the tests), one contended listing, and BENCH_BUYERS
// buyers with sessions. Sends {port, tokens, goodsIds, contendedGoodsId} to the parent.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../apps/server/src/config.ts';
import { buildApp } from '../apps/server/src/app.ts';
import { insertGoods, insertRelease, insertTrader } from '../apps/server/test/fixtures/market-setup.ts';

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 40_000);
const BUYERS = Number(process.env.BENCH_BUYERS ?? 500);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-bench-market-'));
const config = loadConfig(
  { CHAIN: 'off', DEMO_DATA: '0', ...process.env, DEV_MODE: '1', CAPTCHA_PROVIDER: 'test', MARKET_JOBS: '0', MAX_UNPAID_ORDERS: '1000000', PAYMENT_WINDOW_SECONDS: '3600' },
  { dataDir, serveWeb: false },
);
const { app, ctx } = await buildApp(config, { logger: false });
const release = await insertRelease(ctx);
const sellers = await Promise.all(Array.from({ length: 20 }, () => insertTrader(ctx)));
const tokens: string[] = [];
for (let i = 0; i < BUYERS; i++) tokens.push((await insertTrader(ctx)).token);
const goodsIds: number[] = [];
const now = Date.now();
for (let i = 0; i <= LISTINGS; i += 1000) {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: { ...ctx.db, kysely: trx } };
    for (let k = i; k < Math.min(i + 1000, LISTINGS + 1); k++) {
      const seller = sellers[k % sellers.length]!;
      const goodsId = await insertGoods(tctx, release, seller.userId, 1_000_000 + k);
      await trx.insertInto('listings').values({
        goods_id: goodsId, seller_user_id: seller.userId, seller_address: seller.address, nft_token: 'cfx:bench', token_id: String(1_000_000 + k), price_fen: 10_000,
        seller_order_id: `SObench${k}`, signature: '0x', kind: 'market', bid_id: null, status: 'on_sale', reserved_order_no: null, close_reason: null,
        draft_expires_at: 0, created_at: now, listed_at: now, closed_at: null,
      }).execute();
      await trx.updateTable('goods').set({ status: 'on_sale', sale_price_fen: 10_000, listed_at: now }).where('id', '=', goodsId).execute();
      goodsIds.push(goodsId);
    }
  });
}
const contendedGoodsId = goodsIds.pop()!;
app.get('/bench/orders', async (req) => {
  const goodsId = Number((req.query as { goodsId?: string }).goodsId ?? 0);
  let q = ctx.db.kysely.selectFrom('orders').select((e) => e.fn.countAll<number>().as('n'));
  if (goodsId) q = q.where('goods_id', '=', goodsId);
  return { n: Number((await q.executeTakeFirstOrThrow()).n) };
});
await app.listen({ port: 0, host: '127.0.0.1' });
const addr = app.server.address();
process.send?.({ port: typeof addr === 'object' && addr ? addr.port : 0, tokens, goodsIds, contendedGoodsId });
