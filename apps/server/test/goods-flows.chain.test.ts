import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signConsume } from '@cfx/contracts/src/consume-signature.ts';
import { toBase32Address } from '@cfx/protocol/address.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp, type App } from '../src/app.ts';
import { createBoxRelease } from '../src/modules/boxes/create-box-release.ts';
import { createDevComposeRule } from '../src/modules/compose/create-compose-rule.ts';
import { grantUnits } from '../src/modules/compose/releases.ts';
import { inTx } from '../src/db/tx.ts';
import { API, call } from './helpers.ts';
import { insertTrader } from './fixtures/market-setup.ts';
import { createDropRelease } from '../src/modules/drops/create-drop-release.ts';
import { walletOf } from './fixtures/market-chain-flow.ts';

/**
 * Blind boxes, compose and gifts on a real embedded @xcfx/node (TEST_CHAIN=1): the holder's
 * CIP-23 consent, the operator's consumeAndMint through the durable queue (one transaction burning
 * and minting), the reveal from a real epoch's block hash, and a gift sent from the holder's wallet
 * recorded from the indexed Transfer.
 */
async function start(dataDir: string): Promise<App> {
  const config = loadConfig(
    { DEV_MODE: '1', CAPTCHA_PROVIDER: 'test', DEMO_DATA: '0', CHAIN_RECEIPT_INTERVAL_MS: '200', CHAIN_INDEXER_INTERVAL_MS: '100', MARKET_JOB_INTERVAL_MS: '100' },
    { dataDir, serveWeb: false },
  );
  return buildApp(config, { logger: false });
}

async function waitFor<T>(f: () => Promise<T | undefined | false | null>, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('blind boxes, compose and gifts on the embedded chain', () => {
  let t: App;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-flows-chain-'));
  beforeAll(async () => {
    t = await start(dataDir);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const get = async (p: string, h: Record<string, string>) => (await t.app.inject({ method: 'GET', url: API + p, headers: { channel: 'pc', ...h } })).json();
  const minted = (ids: number[]) =>
    waitFor(async () => (await t.ctx.db.kysely.selectFrom('goods').select('chain_status').where('id', 'in', ids).execute()).every((g) => g.chain_status === 'minted'));
  const exists = async (tokenId: string) => Boolean(await t.ctx.chain!.contracts.collectible.exists(BigInt(tokenId)));
  const ownerOf = async (tokenId: string) => toBase32Address(await t.ctx.chain!.contracts.collectible.ownerOf(BigInt(tokenId)), 1029);

  it('opens a box: consumeAndMint burns the box (exists false) and mints the drawn item to the holder', async () => {
    const { ctx } = t;
    const holder = await insertTrader(ctx);
    const r = await createBoxRelease(ctx, null, { kinds: [{ name: '隐藏', rarity: '隐藏', count: 1 }, { name: '普通', rarity: '普通', count: 2 }], revealInEpochs: 1, grantTo: { userId: holder.userId, count: 3 } });
    await minted(r.goods.map((g) => g.goodsId));
    // The mint transactions moved the chain past the reveal epoch and the sale is sold out: revealed by the sweep.
    const info = await waitFor(async () => {
      const i = await get(`/goods/v1/box/info/?projectId=${r.projectId}`, {});
      return i.data.status === 'revealed' && i.data;
    });
    const block = await ctx.chain!.sdk.cfx.getBlockByEpochNumber(info.revealEpoch, false);
    expect(info.reveal.blockHash).toBe(block.hash.toLowerCase());

    const box = r.goods[0]!;
    const open = await get(`/goods/v1/openBox/?goodsId=${box.goodsId}`, holder.h);
    expect(open.status, open.message).toBe('000000');
    expect(open.data.typedData.domain.verifyingContract).toBe(ctx.chain!.collectibleHex);
    const signature = signConsume(holder.key, open.data.typedData.message, open.data.typedData.domain);
    const confirm = await call(t, '/goods/v1/openBox/confirm', { goodsId: box.goodsId, signature }, holder.h);
    expect(confirm.status, confirm.message).toBe('000000');
    const done = await waitFor(async () => {
      const o = await get(`/goods/v1/openBox/?goodsId=${box.goodsId}`, holder.h);
      return o.data.status === 'completed' && o.data;
    });
    expect(await exists(box.tokenId)).toBe(false);
    expect(await ownerOf(done.item.tokenId)).toBe(holder.address);
    const receipt = await ctx.chain!.sdk.cfx.getTransactionReceipt(done.txHash);
    expect(receipt.outcomeStatus).toBe(0);
    const row = await ctx.db.kysely.selectFrom('goods').select(['status']).where('id', '=', box.goodsId).executeTakeFirstOrThrow();
    expect(row.status).toBe('burned');
    // A replay of the same consent on chain is refused by the contract (FlowIdUsed).
    const again = await call(t, '/goods/v1/openBox/confirm', { goodsId: box.goodsId, signature }, holder.h);
    expect(again.data.status).toBe('completed');
  }, 180_000);

  it('composes 3 fragments into 1 in one transaction', async () => {
    const { ctx } = t;
    const holder = await insertTrader(ctx);
    const dev = await createDevComposeRule(ctx, holder.userId, { count: 3, maxTimes: 5 });
    await minted(dev.goods.map((g) => g.goodsId));
    const ids = dev.goods.map((g) => g.goodsId);
    const sel = await call(t, '/api/compose/v1/selectfragment', { ruleId: dev.ruleId, goodsIds: ids }, holder.h);
    expect(sel.status, sel.message).toBe('000000');
    const consent = await call(t, '/api/compose/v1/confirmcompose', { composeNo: sel.data.composeNo }, holder.h);
    expect(consent.status, consent.message).toBe('000000');
    const signature = signConsume(holder.key, consent.data.typedData.message, consent.data.typedData.domain);
    expect((await call(t, '/api/compose/v1/submitcompose', { composeNo: sel.data.composeNo, signature }, holder.h)).status).toBe('000000');
    const rec = await waitFor(async () => {
      const r = await call(t, '/api/compose/v1/composerecord', { composeNo: sel.data.composeNo, pageNum: 1, pageSize: 1 }, holder.h);
      return r.data.list[0].status === 'completed' && r.data.list[0];
    });
    for (const g of dev.goods) expect(await exists(g.tokenId)).toBe(false);
    expect(await ownerOf(rec.result.tokenId)).toBe(holder.address);
    // One transaction: three burns and one mint in its logs.
    const receipt = await ctx.chain!.sdk.cfx.getTransactionReceipt(rec.txHash);
    expect(receipt.outcomeStatus).toBe(0);
    const transferTopic = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
    expect(receipt.logs.filter((l: any) => l.topics[0] === transferTopic)).toHaveLength(4);
    const hashes = await ctx.db.kysely.selectFrom('goods_history_actions').select('tx_hash').where('goods_id', 'in', ids).where('action', '=', 'burn').execute();
    expect(new Set(hashes.map((h) => h.tx_hash))).toEqual(new Set([rec.txHash]));
  }, 180_000);

  it('a gift sent from the holder’s wallet is indexed and the collectible moves to the receiver', async () => {
    const { ctx } = t;
    const sender = await insertTrader(ctx);
    const receiver = await insertTrader(ctx);
    const { projectId } = await createDropRelease(ctx, null, { supply: 10 });
    const [g] = await inTx(ctx, (trx) => grantUnits(trx, ctx, projectId, sender.userId, 1, ctx.now()));
    await minted([g!.goodsId]);
    const accountId = (await ctx.db.kysely.selectFrom('users').select('account_id').where('id', '=', receiver.userId).executeTakeFirstOrThrow()).account_id;
    const intent = await call(t, '/goods/v1/gift', { goodsId: g!.goodsId, accountId }, sender.h);
    expect(intent.status, intent.message).toBe('000000');
    const wallet = await walletOf(t, sender);
    await wallet.transfer(Number(g!.tokenId), intent.data.toAddress); // sponsored: the sender holds 0 CFX
    expect(await wallet.balanceCfx()).toBe(0n);
    // No notify: the indexer's Transfer alone records the gift.
    await waitFor(async () => Number((await ctx.db.kysely.selectFrom('goods').select('owner_user_id').where('id', '=', g!.goodsId).executeTakeFirstOrThrow()).owner_user_id) === receiver.userId);
    const history = await get(`/goods/v1/list/historyAction/?id=${g!.goodsId}`, {});
    expect(history.data.list[0]).toMatchObject({ action: 'gift' });
    const rec = await call(t, '/goods/v1/shift/record', { pageNum: 1, pageSize: 5 }, receiver.h);
    expect(rec.data.list[0]).toMatchObject({ kind: 'gift', direction: 'in', status: 'done' });
  }, 180_000);
});
