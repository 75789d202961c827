import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBase32Address } from '@cfx/protocol/address.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp, type App } from '../src/app.ts';
import { ledgerProblems } from '../src/modules/ledger/ledger.ts';
import { createDropRelease } from '../src/modules/drops/create-drop-release.ts';
import { call } from './helpers.ts';
import { insertTrader } from './fixtures/market-setup.ts';

/**
 * The primary sale on a real embedded @xcfx/node: a paid drop order is fulfilled, its collectibles
 * are minted to the buyer's linked wallet by the mint job (mintBatch through the operator queue)
 * and the order completes with the mint transaction hash; and the mint job's throughput on a
 * sell-out of 10,000 tokens (target: all minted within 60 s).
 */
async function start(dataDir: string, env: Record<string, string> = {}): Promise<App> {
  const config = loadConfig(
    { DEV_MODE: '1', CAPTCHA_PROVIDER: 'test', DEMO_DATA: '0', CHAIN_RECEIPT_INTERVAL_MS: '200', CHAIN_INDEXER_INTERVAL_MS: '100', ...env },
    { dataDir, serveWeb: false },
  );
  return buildApp(config, { logger: false });
}

async function waitFor<T>(f: () => Promise<T | undefined | false>, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('drops on the embedded chain', () => {
  let t: App;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-drops-chain-'));
  beforeAll(async () => {
    t = await start(dataDir);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a paid drop order is minted to the buyer’s wallet (ownerOf) and completed with the tx hash', async () => {
    const { ctx } = t;
    const { projectId } = await createDropRelease(ctx, null, { supply: 50, priceFen: 990, perIdentityLimit: 5, maxPerOrder: 5 });
    const buyer = await insertTrader(ctx);
    const order = await call(t, '/payment/nftOrder/V1/createOrder', { projectId, count: 3 }, buyer.h);
    expect(order.status, order.message).toBe('000000');
    const orderNo = order.data.orderNo as string;
    expect((await call(t, '/payment/sandbox/topup', { amount: 2970 }, buyer.h)).status).toBe('000000');
    expect((await call(t, '/payment/nftOrder/V1/pay', { orderNo, method: 'balance' }, buyer.h)).data.status).toBe('paid');
    const done = await waitFor(async () => {
      const d = await call(t, '/payment/nftOrder/V1/getNftOrderDetail', { orderNo }, buyer.h);
      return d.data.status === 'completed' && d.data;
    });
    expect(done.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(done.drop.items).toHaveLength(3);
    const chain = ctx.chain!;
    for (const item of done.drop.items) {
      expect(item.chainStatus).toBe('minted');
      expect(toBase32Address(await chain.contracts.collectible.ownerOf(BigInt(item.tokenId)), 1029)).toBe(buyer.address);
    }
    // one mintBatch transaction for the three tokens, and the order carries its hash
    const goods = await ctx.db.kysely.selectFrom('goods').select(['mint_tx_hash']).where('drop_order_no', '=', orderNo).execute();
    expect(new Set(goods.map((g) => g.mint_tx_hash))).toEqual(new Set([done.txHash]));
    const receipt = await chain.sdk.cfx.getTransactionReceipt(done.txHash);
    expect(receipt.outcomeStatus).toBe(0);
    expect(await ledgerProblems(ctx.db.kysely)).toEqual([]);
  });

  it('mints a sell-out of 10,000 tokens in mintBatch transactions within 60 s', async () => {
    const { ctx } = t;
    const supply = 10_000;
    const { projectId, tokenStart } = await createDropRelease(ctx, null, { supply, priceFen: 100 });
    // 200 buyers × 50: the collectibles as the fulfilment creates them (pending, owned by the buyer).
    const buyers = await Promise.all(Array.from({ length: 200 }, () => insertTrader(ctx)));
    const now = ctx.now();
    const rows = Array.from({ length: supply }, (_, i) => ({
      project_id: projectId, serial: i + 1, token_id: Number(tokenStart) + i, contract: ctx.chain!.collectible, chain_status: 'pending' as const,
      mint_tx_hash: null, minted_at: null, owner_user_id: buyers[i % 200]!.userId, name: `t #${i + 1}`, image: '', attributes: '[]', status: 'held' as const,
      sale_price_fen: null, listed_at: null, last_price_fen: 100, acquired_at: now, created_at: now, drop_order_no: null,
    }));
    const started = Date.now();
    for (let i = 0; i < rows.length; i += 1000) await ctx.db.kysely.insertInto('goods').values(rows.slice(i, i + 1000)).execute();
    const { wakeMinting } = await import('../src/modules/drops/mint-batches.ts');
    wakeMinting(ctx);
    await waitFor(async () => {
      const r = await ctx.db.kysely.selectFrom('goods').select((e) => e.fn.countAll<number>().as('n')).where('project_id', '=', projectId).where('chain_status', '=', 'pending').executeTakeFirstOrThrow();
      return Number(r.n) === 0;
    }, 180_000);
    const seconds = (Date.now() - started) / 1000;
    console.log(`minted ${supply} tokens in ${seconds.toFixed(1)} s`);
    const txs = await ctx.db.kysely.selectFrom('chain_txs').select((e) => e.fn.countAll<number>().as('n')).where('idempotency_key', 'like', 'mint:batch:%').executeTakeFirstOrThrow();
    expect(Number(txs.n)).toBeLessThanOrEqual(supply / 50 + 5);
    // spot checks on chain
    for (const i of [0, 4999, 9999]) {
      expect(toBase32Address(await ctx.chain!.contracts.collectible.ownerOf(BigInt(Number(tokenStart) + i)), 1029)).toBe(buyers[i % 200]!.address);
    }
    expect(seconds).toBeLessThan(60);
  }, 240_000);
});
