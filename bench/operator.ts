// Sustained operator throughput on the embedded node in block-interval mode: N mints enqueued at
// once into the durable queue, measured until every one is confirmed.
// Run: cd bench && node --import tsx operator.ts   (BENCH_TXS, CHAIN_BLOCK_INTERVAL_MS to vary)
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { format, sign } from 'js-conflux-sdk';
import { loadConfig } from '../apps/server/src/config.ts';
import { buildApp } from '../apps/server/src/app.ts';

const N = Number(process.env.BENCH_TXS ?? 3000);
const blockMs = process.env.CHAIN_BLOCK_INTERVAL_MS ?? '20';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-bench-op-'));
const config = loadConfig({ DEV_MODE: '1', CAPTCHA_PROVIDER: 'test', CHAIN_BLOCK_INTERVAL_MS: blockMs, CHAIN_RECEIPT_INTERVAL_MS: '100', CHAIN_RECEIPT_TRIES: '50', CHAIN_INDEXER_INTERVAL_MS: '500' }, { dataDir, serveWeb: false });
const { ctx, close } = await buildApp(config, { logger: false });
try {
  const chain = ctx.chain!;
  const to = format.address(sign.privateKeyToAddress(crypto.randomBytes(32)), 1029);
  // warm-up
  await chain.queue.waitFor(await chain.queue.enqueue({ key: 'warm', kind: 'mint', to: chain.collectible, data: chain.contracts.collectible.mint(to, 1n).data }));
  const t0 = Date.now();
  const ids: number[] = [];
  for (let i = 0; i < N; i++) {
    ids.push(await chain.queue.enqueue({ key: `m${i}`, kind: 'mint', to: chain.collectible, data: chain.contracts.collectible.mint(to, BigInt(10 + i)).data }));
  }
  const tEnq = Date.now();
  for (const id of ids) await chain.queue.waitFor(id, 600_000);
  const t1 = Date.now();
  const rows = await ctx.db.kysely.selectFrom('chain_txs').select(['status', 'created_at', 'sent_at', 'done_at']).where('idempotency_key', '!=', 'warm').execute();
  const ok = rows.filter((r) => r.status === 'confirmed').length;
  const q = (xs: number[], p: number) => xs.sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)]!;
  const sendToReceipt = rows.map((r) => Number(r.done_at) - Number(r.sent_at));
  const enqToDone = rows.map((r) => Number(r.done_at) - Number(r.created_at));
  console.log(`block interval ${blockMs} ms, ${N} mints: ${ok} confirmed, ${rows.length - ok} failed`);
  console.log(`enqueue ${tEnq - t0} ms; all confirmed after ${t1 - t0} ms → ${(N / ((t1 - t0) / 1000)).toFixed(0)} tx/s sustained`);
  console.log(`sent→receipt p50 ${q(sendToReceipt, 0.5)} ms, p99 ${q(sendToReceipt, 0.99)} ms; enqueue→confirmed p50 ${q(enqToDone, 0.5)} ms`);
  console.log(`on chain: balanceOf = ${await chain.contracts.collectible.balanceOf(to)}`);
} finally {
  await close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
