import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Conflux } from 'js-conflux-sdk';
import { drawLotteryWinners, verifyLotteryProof } from '@cfx/protocol/lottery-draw.ts';
import { toHexAddress } from '@cfx/protocol/address.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp, type App } from '../src/app.ts';
import { ownerKey } from '../src/chain/chain-service.ts';
import { createRpc } from '../src/chain/rpc.ts';
import { createBoxRelease } from '../src/modules/boxes/create-box-release.ts';
import { createDropRelease } from '../src/modules/drops/create-drop-release.ts';
import { setDropPhases } from '../src/modules/drops/phases.ts';
import { epochTiming } from '../src/modules/drops/lottery-beacon.ts';
import { API, call } from './helpers.ts';
import { insertTrader } from './fixtures/market-setup.ts';

/**
 * The embedded chain keeps its pace on a plain start (TEST_CHAIN=1, docs/chain.md "Pace"): with the
 * defaults (no CHAIN_BLOCK_INTERVAL_MS, CHAIN_PACE_MS 500) the chain advances with no transaction of
 * the app or of anyone else — only the pace keeper's heartbeats — so a lottery's draw epoch and a
 * blind box's reveal epoch that lie ahead arrive and are drawn / revealed without any other
 * activity; a transaction's receipt still comes at once, and a burst of transactions does not hang
 * the node (the node's own block timer next to packing at once did). The block each proof depends on is fetched through the server (GET /chain/v1/block) and has
 * the hash the draw used. No DEV_MODE: the dev wallet's RPC proxy (which can send transactions) is
 * not served.
 */
async function waitFor<T>(f: () => Promise<T | undefined | false | null>, ms = 120_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('the embedded chain on an idle server', () => {
  let t: App;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-pace-chain-'));
  beforeAll(async () => {
    // The defaults of `npm start` for the chain: no block interval or pace set here.
    const config = loadConfig({ DEMO_DATA: '0', DEV_MODE: '0' }, { dataDir, serveWeb: false });
    expect(config.chain.blockIntervalMs).toBeUndefined();
    expect(config.chain.paceMs).toBe(500);
    t = await buildApp(config, { logger: false });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const rpc = () => createRpc(t.ctx.chain!.rpcUrl);
  const epochOf = async (tag = 'latest_mined') => Number(BigInt(await rpc().call<string>('cfx_epochNumber', [tag])));
  const txCount = async () => Number((await t.ctx.db.kysely.selectFrom('chain_txs').select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  /** Transactions in the pivot blocks of epochs from…to other than the pace keeper's heartbeats. */
  const txsIn = async (from: number, to: number) => {
    const epochs = Array.from({ length: to - from + 1 }, (_, i) => from + i);
    const blocks = (await rpc().batch(epochs.map((e) => ({ method: 'cfx_getBlockByEpochNumber', params: [`0x${e.toString(16)}`, true] })))) as { transactions: { from: string }[] }[];
    const keeper = paceKeeperAddress();
    return blocks.reduce((n, b) => n + b.transactions.filter((tx) => toHexAddress(tx.from).toLowerCase() !== keeper).length, 0);
  };
  const paceKeeperAddress = () => {
    const key = `0x${crypto.createHash('sha256').update(`cfx-pace-keeper:${ownerKey(t.ctx.config).toLowerCase()}`).digest('hex')}`;
    return toHexAddress(new Conflux({ url: t.ctx.chain!.rpcUrl, networkId: 1029 }).wallet.addPrivateKey(key).address).toLowerCase();
  };
  const getBlock = (epoch: number | string, ip = '10.9.0.1') => t.app.inject({ method: 'GET', url: `${API}/chain/v1/block?epoch=${epoch}`, headers: { lang: 'en' }, remoteAddress: ip });

  it('advances its epoch number with no transactions, at about 2 epochs a second', async () => {
    const txs = await txCount();
    const e0 = await epochOf();
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, 8000));
    const e1 = await epochOf();
    // heartbeats of 5 epochs every 2.5 s
    const perSecond = (e1 - e0) / ((Date.now() - t0) / 1000);
    expect(perSecond).toBeGreaterThan(1.2);
    expect(perSecond).toBeLessThan(3);
    expect(await txCount()).toBe(txs);
    expect(await txsIn(e0 + 1, e1)).toBe(0);
    // The console's pace for choosing a draw epoch: measured, and at most the configured pace — never
    // from the genesis block's timestamp 0 (this young chain has fewer than 200 epochs after the
    // deployment's transactions, each of which adds blocks, so the measure is faster than the pace).
    const timing = await epochTiming(t.ctx, 1000);
    expect(timing).toMatchObject({ epoch: expect.any(Number), measured: true });
    expect(timing.msPerEpoch).toBeGreaterThan(0);
    expect(timing.msPerEpoch).toBeLessThanOrEqual(500);
  }, 60_000);

  it('draws a lottery whose epoch lies ahead without any other activity, and serves the block it used', async () => {
    const { ctx } = t;
    const { projectId } = await createDropRelease(ctx, null, { supply: 4, priceFen: 500, perIdentityLimit: 1, maxPerOrder: 1 });
    const head = await epochOf();
    const drawEpoch = head + 16; // ≈ 8 s of empty blocks ahead
    const start = Date.now() + 500;
    await setDropPhases(ctx, projectId, [{ kind: 'lottery_signup', startAt: start, endAt: start + 2500 }, { kind: 'lottery_rights', priceFen: 400 }, { kind: 'public', startAt: start + 2500 }], {
      drawEpoch,
      winners: 1,
      winQuota: 1,
      rightsMinutes: 5,
    });
    const users = await Promise.all([insertTrader(ctx), insertTrader(ctx)]);
    for (const u of users) {
      await waitFor(async () => {
        const r = await call(t, '/api/user/mint/v1/lottery/enter', { projectId }, u.h);
        if (r.status === '1026' && /not opened/.test(r.message)) return null;
        expect(r.status, r.message).toBe('000000');
        return r;
      }, 20_000);
    }
    const txs = await txCount();
    expect(await epochOf()).toBeLessThan(drawEpoch);

    const row = await waitFor(async () => {
      const l = await ctx.db.kysely.selectFrom('drop_lotteries').selectAll().where('project_id', '=', projectId).executeTakeFirstOrThrow();
      return l.status === 'drawn' && l;
    });
    // nothing but the pace moved the chain there
    expect(await txCount()).toBe(txs);
    expect(await txsIn(head + 1, drawEpoch)).toBe(0);

    // the block the proof depends on, through the server: the hash the draw used
    const res = await getBlock(drawEpoch);
    expect(res.statusCode).toBe(200);
    const block = res.json();
    expect(block).toMatchObject({ status: '000000', data: { epochNumber: drawEpoch, hash: row.block_hash, confirmed: true, embedded: true, networkId: 1029, explorerUrl: null } });
    expect(res.headers['cache-control']).toContain('max-age');
    const direct = await rpc().call<{ hash: string }>('cfx_getBlockByEpochNumber', [`0x${drawEpoch.toString(16)}`, false]);
    expect(block.data.hash).toBe(direct.hash.toLowerCase());
    expect(row.winners_list).toBe(drawLotteryWinners(block.data.hash, 2, 1).join(','));
    const proof = (await t.app.inject({ method: 'GET', url: `${API}/official/lottery/proof/?projectId=${projectId}` })).json().data;
    expect(proof.blockHash).toBe(block.data.hash);
    expect(verifyLotteryProof({ ...proof, blockHash: block.data.hash })).toMatchObject({ entriesOk: true, winnersOk: true });
    // no public explorer knows the embedded chain: no dead link
    expect(proof.blockUrl).toBeNull();
  }, 180_000);

  it('reveals a blind box whose epoch lies ahead without any other activity', async () => {
    const { ctx } = t;
    // Nothing sold, the sale window already over: due as soon as the chain reaches the reveal epoch.
    const head = await epochOf('latest_state');
    const r = await createBoxRelease(ctx, null, { kinds: [{ name: '隐藏', rarity: '隐藏', count: 1 }, { name: '普通', rarity: '普通', count: 3 }], revealEpoch: head + 12, endInMs: 0 });
    const txs = await txCount();
    expect((await t.app.inject({ method: 'GET', url: `${API}/goods/v1/box/info/?projectId=${r.projectId}` })).json().data.status).toBe('committed');
    const info = await waitFor(async () => {
      const i = (await t.app.inject({ method: 'GET', url: `${API}/goods/v1/box/info/?projectId=${r.projectId}` })).json().data;
      return i.status === 'revealed' && i;
    }, 90_000);
    expect(await txCount()).toBe(txs);
    const block = (await getBlock(info.revealEpoch)).json();
    expect(block.status).toBe('000000');
    expect(info.reveal.blockHash).toBe(block.data.hash);
  }, 120_000);

  it('answers an epoch the chain has not reached with 1404, and serves no RPC proxy without DEV_MODE', async () => {
    const res = await getBlock((await epochOf()) + 100_000);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ status: '1404', data: null, message: expect.stringContaining('no block at epoch') });
    const raw = await call(t, '/chain/v1/rpc', { jsonrpc: '2.0', id: 1, method: 'cfx_sendRawTransaction', params: ['0x00'] });
    expect(raw).toMatchObject({ http: 404, status: '1404' });
    const info = (await t.app.inject({ method: 'GET', url: `${API}/chain/v1/info` })).json().data;
    expect(info).toMatchObject({ devWallet: false, rpcPath: '' });
  });

  it('survives bursts: 5 batches of 20 transactions sent at once all get receipts', async () => {
    const sdk = new Conflux({ url: t.ctx.chain!.rpcUrl, networkId: 1029 });
    const owner = sdk.wallet.addPrivateKey(ownerKey(t.ctx.config));
    for (let round = 0; round < 5; round++) {
      let nonce = Number(await sdk.cfx.getNextNonce(owner.address));
      const epochHeight = await epochOf();
      const raws = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const tx = await owner.signTransaction({ from: owner.address, to: owner.address, value: 1, nonce: nonce++, gas: 21000, gasPrice: 1_000_000_000, storageLimit: 0, epochHeight, chainId: 1029 } as never);
          return `0x${Buffer.from(tx.encode(true) as Uint8Array).toString('hex')}`;
        }),
      );
      const sent = (await rpc().batch(raws.map((r) => ({ method: 'cfx_sendRawTransaction', params: [r] })))) as string[];
      for (const hash of sent) {
        expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
        await waitFor(async () => (await rpc().call('cfx_getTransactionReceipt', [hash])) ?? null, 15_000);
      }
    }
    const before = await epochOf();
    await waitFor(async () => (await epochOf()) > before, 10_000); // still moving
  }, 120_000);

  it('still packs a transaction at once: its receipt comes well within one pace interval', async () => {
    const cc = t.ctx.config;
    const sdk = new Conflux({ url: t.ctx.chain!.rpcUrl, networkId: 1029 });
    const owner = sdk.wallet.addPrivateKey(ownerKey(cc));
    const latencies: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = Date.now();
      const hash = await sdk.cfx.sendTransaction({ from: owner.address, to: owner.address, value: 1 });
      await waitFor(async () => (await rpc().call('cfx_getTransactionReceipt', [hash])) ?? null, 10_000);
      latencies.push(Date.now() - started);
    }
    latencies.sort((a, b) => a - b);
    // interval-only mode would take ≥ 4 blocks of 500 ms (≈ 2.5 s); packed at once it is tens of ms
    expect(latencies[2]).toBeLessThan(400);
  }, 60_000);
});
