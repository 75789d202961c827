// The embedded node's pace and receipt latency per block mode (docs/chain.md "Pace").
// Run: cd bench && node --import tsx chain-pace.ts [modes…]   modes: pack (blocks only for transactions: what the
// server runs, its pace keeper adding heartbeats when idle), timer:<ms> (pack at once + the node's own block timer:
// NOT used by the server, it hangs the node under bursts of transactions), interval:<ms> (a block every <ms>, nothing
// packed at once: CHAIN_BLOCK_INTERVAL_MS). Default: pack timer:500 interval:500.
// For each mode: the idle epoch rate over 5 s with no transactions, then 10 sequential self-transfers, each timed from
// cfx_sendRawTransaction to the first non-null cfx_getTransactionReceipt.
import crypto from 'node:crypto';
import { Conflux } from 'js-conflux-sdk';
import { rpcCall, startEmbeddedNode, type EmbeddedNodeOptions } from '@cfx/contracts/src/embedded-node.ts';

const modes = process.argv.slice(2).length ? process.argv.slice(2) : ['pack', 'timer:500', 'interval:500'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const mode of modes) {
  const [kind, ms] = mode.split(':');
  const key = `0x${crypto.randomBytes(32).toString('hex')}`;
  const opts: EmbeddedNodeOptions = { genesisSecrets: [key] };
  if (kind === 'pack') opts.devPackTxImmediately = true;
  else if (kind === 'timer') Object.assign(opts, { devPackTxImmediately: true, devBlockIntervalMs: Number(ms) });
  else if (kind === 'interval') Object.assign(opts, { devPackTxImmediately: false, devBlockIntervalMs: Number(ms) });
  else throw new Error(`unknown mode ${mode}`);
  const node = await startEmbeddedNode(opts);
  const epoch = async () => Number(BigInt(await rpcCall<string>(node.rpcUrl, 'cfx_epochNumber', ['latest_mined'])));
  try {
    const e0 = await epoch();
    const t0 = Date.now();
    await sleep(5000);
    const rate = ((await epoch()) - e0) / ((Date.now() - t0) / 1000);
    const sdk = new Conflux({ url: node.rpcUrl, networkId: 1029 });
    const from = sdk.wallet.addPrivateKey(key).address;
    const lat: number[] = [];
    for (let i = 0; i < 10; i++) {
      const s = Date.now();
      const hash = await sdk.cfx.sendTransaction({ from, to: from, value: 1 });
      while (!(await rpcCall(node.rpcUrl, 'cfx_getTransactionReceipt', [hash]))) await sleep(5);
      lat.push(Date.now() - s);
    }
    lat.sort((a, b) => a - b);
    console.log(`${mode.padEnd(13)} idle ${rate.toFixed(2)} epochs/s; receipt median ${lat[5]} ms (min ${lat[0]}, max ${lat[9]})`);
  } finally {
    await node.stop();
  }
}
