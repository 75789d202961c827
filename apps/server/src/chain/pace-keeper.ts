import crypto from 'node:crypto';
import { Conflux } from 'js-conflux-sdk';
import { createRpc } from './rpc.ts';

type Log = (msg: string, extra?: unknown) => void;

/** Blocks the embedded node makes for one transaction packed at once: its own plus the deferred-execution epochs. */
export const EPOCHS_PER_PACKED_TX = 5;

/**
 * Keeps the embedded dev chain moving at about one epoch per `paceMs` when nothing else happens
 * (docs/chain.md "Pace"). The node packs each transaction at once (fast receipts) but makes no block
 * without one, and its own block timer (devBlockIntervalMs) cannot be combined with packing at
 * once: a transaction's RPC call waits until its generated block is the best block, which a
 * concurrent timer block can prevent forever — the node stops answering (measured: a batch of 20
 * transactions hung it within 3 rounds). So, every EPOCHS_PER_PACKED_TX × paceMs, when the chain has
 * not advanced that far by itself, the keeper sends a zero-value self-transfer from its own key
 * (derived from the owner key, funded by it once with 10 CFX): the same code path as every other
 * transaction. It never touches the operator's nonce or queue.
 */
export async function startPaceKeeper(o: { rpcUrl: string; networkId: number; funderKey: string; paceMs: number; log: Log }): Promise<{ address: string; stop(): Promise<void> }> {
  const sdk = new Conflux({ url: o.rpcUrl, networkId: o.networkId, timeout: 30_000 });
  const key = `0x${crypto.createHash('sha256').update(`cfx-pace-keeper:${o.funderKey.toLowerCase()}`).digest('hex')}`;
  const me = sdk.wallet.addPrivateKey(key).address;
  const rpc = createRpc(o.rpcUrl, 30_000);
  const need = 10n ** 18n; // 1 CFX pays for ≈ 47 000 heartbeats at the dev chain's 1 GDrip gas price
  if (BigInt(await sdk.cfx.getBalance(me)) < need) {
    const funder = sdk.wallet.addPrivateKey(o.funderKey).address;
    await sdk.cfx.sendTransaction({ from: funder, to: me, value: 10n * need }).executed({ delta: 100, timeout: 60_000 });
  }
  const mined = async () => Number(BigInt(await rpc.call<string>('cfx_epochNumber', ['latest_mined'])));
  let last = await mined();
  let stopped = false;
  let running: Promise<void> | undefined;
  let failures = 0;
  const tick = async () => {
    const now = await mined();
    if (now - last >= EPOCHS_PER_PACKED_TX) {
      last = now; // the chain moved by itself (other transactions): nothing to do
      return;
    }
    await sdk.cfx.sendTransaction({ from: me, to: me, value: 0 });
    last = await mined();
  };
  const timer = setInterval(() => {
    if (stopped || running) return;
    running = tick()
      .then(() => void (failures = 0))
      .catch((err: unknown) => {
        // Logged once per run of failures (the node restarting, a full pool): the next tick tries again.
        if (failures++ === 0) o.log(`pace keeper: heartbeat failed: ${String((err as Error)?.message ?? err).slice(0, 200)}`);
      })
      .finally(() => void (running = undefined));
  }, EPOCHS_PER_PACKED_TX * o.paceMs);
  timer.unref();
  return {
    address: me,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
