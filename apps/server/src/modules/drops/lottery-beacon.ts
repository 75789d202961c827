import type { AppContext } from '../../context.ts';
import { createRpc, type Rpc } from '../../chain/rpc.ts';
import { TimedCache } from '../../util/timed-cache.ts';

/**
 * Where the lottery's seed comes from: the pivot block hash of a Conflux epoch fixed before sign-up
 * opens (docs/drops.md "Lottery"). Read through the configured chain (embedded node or
 * CHAIN_RPC_URL):
 *
 *   latestEpoch('latest_mined')     cfx_epochNumber("latest_mined")     — has epoch E a block yet (is the seed known)?
 *   latestEpoch('latest_confirmed') cfx_epochNumber("latest_confirmed") — is E final enough to draw from?
 *   epochBlockHash(E)               cfx_getBlockByEpochNumber(E, false).hash
 *
 * Without a chain (CHAIN=off) there is no seed and no lottery is ever drawn — except in tests,
 * which install their own beacon with setTestBeacon (epochs and hashes they choose). That is the
 * only fallback, and it is never used by a running server.
 */
export interface EpochBeacon {
  latestEpoch(tag: 'latest_mined' | 'latest_confirmed'): Promise<number>;
  /** The pivot block hash of `epoch` (0x + 64 hex), or null when the node has no such epoch yet. */
  epochBlockHash(epoch: number): Promise<string | null>;
}

const testBeacons = new WeakMap<object, EpochBeacon>();
const rpcs = new WeakMap<object, Rpc>();
const heads = new WeakMap<object, TimedCache<string, number>>();

/** Tests only: the beacon of an app without a chain. */
export function setTestBeacon(ctx: AppContext, beacon: EpochBeacon | undefined) {
  if (beacon) testBeacons.set(ctx.db, beacon);
  else testBeacons.delete(ctx.db);
  heads.delete(ctx.db);
}

export function beaconOf(ctx: AppContext): EpochBeacon | null {
  if (ctx.chain) {
    let rpc = rpcs.get(ctx.chain);
    if (!rpc) rpcs.set(ctx.chain, (rpc = createRpc(ctx.chain.rpcUrl, 10_000)));
    const r = rpc;
    return {
      async latestEpoch(tag) {
        return Number(BigInt(await r.call<string>('cfx_epochNumber', [tag])));
      },
      async epochBlockHash(epoch) {
        const b = await r.call<{ hash?: string } | null>('cfx_getBlockByEpochNumber', [`0x${epoch.toString(16)}`, false]).catch(() => null);
        return b?.hash && /^0x[0-9a-fA-F]{64}$/.test(b.hash) ? b.hash.toLowerCase() : null;
      },
    };
  }
  return testBeacons.get(ctx.db) ?? null;
}

/**
 * The chain's newest epoch by `tag`, at most half a second old (sign-up asks it for every entry);
 * null without a beacon or when the node does not answer.
 */
export async function latestEpoch(ctx: AppContext, tag: 'latest_mined' | 'latest_confirmed'): Promise<number | null> {
  const b = beaconOf(ctx);
  if (!b) return null;
  let c = heads.get(ctx.db);
  if (!c) heads.set(ctx.db, (c = new TimedCache(500, () => ctx.monotonicNow())));
  // One request to the node at a time: a sign-up flood's entries share it.
  return c.get(tag, () => b.latestEpoch(tag)).catch(() => null);
}

/** Forget the cached chain heads (tests after moving their beacon). */
export function forgetEpochHeads(ctx: AppContext) {
  heads.delete(ctx.db);
}

/**
 * The chain's newest epoch and its pace, for choosing a future draw epoch and showing its
 * estimated date (the console's lottery settings): milliseconds per epoch measured from the
 * timestamps of the pivot blocks of the newest epoch and of `span` epochs before it (embedded node
 * or CHAIN_RPC_URL). Without a chain (tests: the installed beacon) the pace is not measured and
 * `fallbackMs` is answered with `measured: false`.
 *
 * The genesis block (epoch 0, timestamp 0) is never a measuring point. On the embedded chain, which
 * makes a block at least every `chain.paceMs`, the answer is at most that pace: a window that spans
 * a stop of the server (its chain made no blocks meanwhile) would otherwise look far slower than the
 * chain runs, and a draw epoch chosen from it would come before the sign-up ends.
 */
export async function epochTiming(ctx: AppContext, fallbackMs: number, span = 200): Promise<{ epoch: number | null; msPerEpoch: number; measured: boolean }> {
  const epoch = await latestEpoch(ctx, 'latest_mined');
  if (epoch === null || !ctx.chain) return { epoch, msPerEpoch: fallbackMs, measured: false };
  let rpc = rpcs.get(ctx.chain);
  if (!rpc) rpcs.set(ctx.chain, (rpc = createRpc(ctx.chain.rpcUrl, 10_000)));
  const from = Math.max(1, epoch - span);
  const pace = ctx.chain.paceMs;
  if (from >= epoch) return pace ? { epoch, msPerEpoch: pace, measured: false } : { epoch, msPerEpoch: fallbackMs, measured: false };
  const block = (e: number) => rpc.call<{ timestamp?: string } | null>('cfx_getBlockByEpochNumber', [`0x${e.toString(16)}`, false]).catch(() => null);
  const [a, b] = await Promise.all([block(from), block(epoch)]);
  const ta = a?.timestamp ? Number(BigInt(a.timestamp)) : NaN;
  const tb = b?.timestamp ? Number(BigInt(b.timestamp)) : NaN;
  if (!Number.isFinite(ta) || !Number.isFinite(tb) || tb <= ta) return pace ? { epoch, msPerEpoch: pace, measured: false } : { epoch, msPerEpoch: fallbackMs, measured: false };
  const ms = Math.max(1, Math.round(((tb - ta) * 1000) / (epoch - from)));
  return { epoch, msPerEpoch: pace ? Math.min(ms, pace) : ms, measured: true };
}
