// The server's embedded chain on its defaults (docs/chain.md "Pace"): the idle epoch rate over 20 s with the pace
// keeper (CHAIN_PACE_MS, default 500) and the receipt latency of 10 sequential self-transfers of the owner key.
// Run: cd bench && node --import tsx chain-pace-server.ts   (CHAIN_PACE_MS to vary; 0 = blocks only for transactions)
import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path';
import { Conflux } from 'js-conflux-sdk';
import { loadConfig } from '../apps/server/src/config.ts';
import { buildApp } from '../apps/server/src/app.ts';
import { ownerKey } from '../apps/server/src/chain/chain-service.ts';
import { createRpc } from '../apps/server/src/chain/rpc.ts';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-keeper-'));
const t = await buildApp(loadConfig({ DEMO_DATA: '0', DEV_MODE: '0', ...(process.env.CHAIN_PACE_MS ? { CHAIN_PACE_MS: process.env.CHAIN_PACE_MS } : {}) }, { dataDir, serveWeb: false }), { logger: false });
try {
  const rpc = createRpc(t.ctx.chain!.rpcUrl);
  const ep = async () => Number(BigInt(await rpc.call<string>('cfx_epochNumber', ['latest_mined'])));
  const e0 = await ep(); const t0 = Date.now();
  await new Promise((r) => setTimeout(r, 20_000));
  console.log(`idle: ${(((await ep()) - e0) / ((Date.now() - t0) / 1000)).toFixed(2)} epochs/s over 20 s`);
  const sdk = new Conflux({ url: t.ctx.chain!.rpcUrl, networkId: 1029 });
  const owner = sdk.wallet.addPrivateKey(ownerKey(t.ctx.config));
  const lat: number[] = [];
  for (let i = 0; i < 10; i++) { const s = Date.now(); const h = await sdk.cfx.sendTransaction({ from: owner.address, to: owner.address, value: 1 }); while (!(await rpc.call('cfx_getTransactionReceipt', [h]))) await new Promise((r) => setTimeout(r, 5)); lat.push(Date.now() - s); }
  lat.sort((a, b) => a - b);
  console.log(`receipt median ${lat[5]} ms (min ${lat[0]}, max ${lat[9]})`);
} finally { await t.close(); fs.rmSync(dataDir, { recursive: true, force: true }); }
