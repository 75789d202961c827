import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawLotteryWinners, verifyLotteryProof } from '@cfx/protocol/lottery-draw.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp, type App } from '../src/app.ts';
import { createDropRelease } from '../src/modules/drops/create-drop-release.ts';
import { latestEpoch } from '../src/modules/drops/lottery-beacon.ts';
import { setDropPhases } from '../src/modules/drops/phases.ts';
import { createRpc } from '../src/chain/rpc.ts';
import { API, call } from './helpers.ts';
import { insertTrader } from './fixtures/market-setup.ts';

/**
 * The fair drop on a real embedded @xcfx/node (TEST_CHAIN=1, docs/drops.md "Lottery"): the draw
 * epoch is published ahead of the chain, entries come in while its block does not exist, the job
 * worker's sweep freezes the list and — once the epoch is confirmed — draws from the pivot block
 * hash that cfx_getBlockByEpochNumber returns; the stored winners recompute from the stored inputs
 * and a winner buys in the rights window.
 */
async function waitFor<T>(f: () => Promise<T | undefined | false | null>, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('the lottery on the embedded chain', () => {
  let t: App;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-lottery-chain-'));
  beforeAll(async () => {
    // A block every 100 ms, so epochs advance without transactions.
    const config = loadConfig({ DEV_MODE: '1', CAPTCHA_PROVIDER: 'test', DEMO_DATA: '0', CHAIN_BLOCK_INTERVAL_MS: '100', CHAIN_RECEIPT_INTERVAL_MS: '200' }, { dataDir, serveWeb: false });
    t = await buildApp(config, { logger: false });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('draws from the real pivot block hash of the published epoch', async () => {
    const { ctx } = t;
    const { projectId } = await createDropRelease(ctx, null, { supply: 6, priceFen: 500, perIdentityLimit: 2, maxPerOrder: 2 });
    const head = (await latestEpoch(ctx, 'latest_mined'))!;
    expect(head).toBeGreaterThan(0);
    const drawEpoch = head + 80; // ≈ 8 s of blocks ahead
    const start = Date.now() + 1500;
    await setDropPhases(ctx, projectId, [{ kind: 'lottery_signup', startAt: start, endAt: start + 3000 }, { kind: 'lottery_rights', priceFen: 400 }, { kind: 'public', startAt: start + 3000 }], {
      drawEpoch,
      winners: 2,
      winQuota: 2,
      rightsMinutes: 5,
    });
    const users = await Promise.all(Array.from({ length: 4 }, () => insertTrader(ctx)));
    // sign-up opens by the server clock: enter as soon as it does
    for (const u of users) {
      await waitFor(async () => {
        const r = await call(t, '/api/user/mint/v1/lottery/enter', { projectId }, u.h);
        if (r.status === '1026' && /not opened/.test(r.message)) return null;
        expect(r.status, r.message).toBe('000000');
        return r;
      }, 20_000);
    }
    const rpc = createRpc(ctx.chain!.rpcUrl);
    expect(Number(BigInt(await rpc.call<string>('cfx_epochNumber', ['latest_mined'])))).toBeLessThan(drawEpoch); // the seed did not exist while entering

    const row = await waitFor(async () => {
      const l = await ctx.db.kysely.selectFrom('drop_lotteries').selectAll().where('project_id', '=', projectId).executeTakeFirstOrThrow();
      return l.status === 'drawn' && l;
    }, 90_000);
    const block = await rpc.call<{ hash: string }>('cfx_getBlockByEpochNumber', [`0x${drawEpoch.toString(16)}`, false]);
    expect(row.block_hash).toBe(block.hash.toLowerCase());
    expect(Number(row.closed_epoch)).toBeLessThan(drawEpoch);
    const winners = drawLotteryWinners(block.hash, 4, 2);
    expect(row.winners_list).toBe(winners.join(','));

    const proof = (await t.app.inject({ method: 'GET', url: `${API}/official/lottery/proof/?projectId=${projectId}` })).json().data;
    expect(verifyLotteryProof(proof)).toMatchObject({ entriesOk: true, winnersOk: true });
    expect(proof.blockUrl).toBeNull(); // the embedded chain: no explorer knows it (the page shows GET /chain/v1/block instead)

    // a winner buys in the rights window; a loser cannot
    const winner = users[winners[0]! - 1]!;
    const loser = users.find((_, i) => !winners.includes(i + 1))!;
    const o = await call(t, '/payment/nftOrder/V1/createOrder', { projectId, count: 2 }, winner.h);
    expect(o, o.message).toMatchObject({ status: '000000', data: { drop: { unitPriceFen: 400, quantity: 2 } } });
    expect((await call(t, '/payment/nftOrder/V1/createOrder', { projectId, count: 1 }, loser.h)).status).toBe('1025');
    const events = await ctx.db.kysely.selectFrom('drop_events').select('user_id').where('project_id', '=', projectId).execute();
    expect(events).toHaveLength(4);
  }, 150_000);
});
