import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBase32Address } from '@cfx/protocol/address.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp, type App } from '../src/app.ts';
import { createDropRelease } from '../src/modules/drops/create-drop-release.ts';
import { syncReleaseRoyalty } from '../src/modules/drops/sync-release-royalty.ts';

/**
 * A release's royalty reaches the Collectible on a real embedded @xcfx/node: syncReleaseRoyalty
 * enqueues the operator's setRangeRoyalty for the release's token range, and EIP-2981 royaltyInfo
 * then answers the creator's wallet and the release's rate (its own, else ROYALTY_PERMILLE) for
 * every token of the range, and nothing next to it.
 */
async function waitFor<T>(f: () => Promise<T | undefined | false>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('release royalties on the embedded chain', () => {
  let t: App;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-royalty-chain-'));
  beforeAll(async () => {
    const config = loadConfig(
      { DEV_MODE: '1', CAPTCHA_PROVIDER: 'test', DEMO_DATA: '0', CHAIN_RECEIPT_INTERVAL_MS: '200', CHAIN_INDEXER_INTERVAL_MS: '100', ROYALTY_PERMILLE: '30' },
      { dataDir, serveWeb: false },
    );
    t = await buildApp(config, { logger: false });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  }, 240_000);
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function confirmed(txId: number | null) {
    expect(txId).not.toBeNull();
    const row = await waitFor(async () => {
      const r = await t.ctx.db.kysely.selectFrom('chain_txs').select(['status', 'kind', 'error']).where('id', '=', txId!).executeTakeFirstOrThrow();
      return (r.status === 'confirmed' || r.status === 'failed') && r;
    });
    expect(row).toMatchObject({ status: 'confirmed', kind: 'royalty' });
  }
  const royaltyInfo = async (tokenId: number, price: number) => {
    const [receiver, amount] = (await t.ctx.chain!.contracts.collectible.royaltyInfo(BigInt(tokenId), BigInt(price))) as [string, bigint];
    return { receiver: toBase32Address(receiver, 1029), amount: Number(amount) };
  };

  it('the release’s own 5 % to the creator’s wallet, then the default 3 % after it is cleared; neighbours unaffected', async () => {
    const { ctx } = t;
    const first = await createDropRelease(ctx, null, { supply: 20 });
    const second = await createDropRelease(ctx, null, { supply: 5 });
    const wallet = toBase32Address(`0x1${'ab'.repeat(19)}c`, 1029);
    const creator = await ctx.db.kysely.selectFrom('projects').innerJoin('creators', 'creators.id', 'projects.creator_id').select('creators.user_id').where('projects.id', '=', first.projectId).executeTakeFirstOrThrow();
    await ctx.db.kysely.updateTable('users').set({ wallet_address: wallet }).where('id', '=', Number(creator.user_id)).execute();
    await ctx.db.kysely.updateTable('projects').set({ royalty_permille: 50 }).where('id', '=', first.projectId).execute();

    // The later release first: the earlier range is then added before it.
    await confirmed(await syncReleaseRoyalty(ctx, second.projectId));
    await confirmed(await syncReleaseRoyalty(ctx, first.projectId));
    const start = Number(first.tokenStart);
    const end = start + 19;
    expect(await royaltyInfo(start, 10_000)).toEqual({ receiver: wallet, amount: 500 });
    expect(await royaltyInfo(end, 1999)).toEqual({ receiver: wallet, amount: 99 });
    expect((await royaltyInfo(Number(second.tokenStart), 10_000)).amount).toBe(300);
    expect((await royaltyInfo(start - 1, 10_000)).amount).toBe(0);

    await ctx.db.kysely.updateTable('projects').set({ royalty_permille: null }).where('id', '=', first.projectId).execute();
    await confirmed(await syncReleaseRoyalty(ctx, first.projectId));
    expect(await royaltyInfo(start + 3, 10_000)).toEqual({ receiver: wallet, amount: 300 });
  });
});
