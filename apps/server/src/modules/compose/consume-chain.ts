import { loadArtifact } from '@cfx/contracts/src/artifacts.ts';
import { errorSelectors, simulateCall } from '@cfx/contracts/src/revert.ts';
import { toBase32Address, toHexAddress } from '@cfx/protocol/address.ts';
import type { Cip23Domain } from '@cfx/protocol/cip23.ts';
import { collectibleDomain, consumeMessage, type Consume } from '@cfx/protocol/consume.ts';
import type { Chain } from '../../chain/chain-service.ts';
import { RpcError } from '../../chain/rpc.ts';
import type { AppContext } from '../../context.ts';
import type { CheckResult, TxOutcome } from '../market/index.ts';

/**
 * Everything blind boxes and compose need from the chain, behind one small interface (like the
 * market's SettlementChain): the Collectible's CIP-23 domain for the holder's consent, a dry run
 * and the operator's `consumeAndMint(c, signature)` on the durable queue (idempotent by key), the
 * outcome, token reads, and the epoch and block hash the blind-box reveal mixes into its seed.
 * The real one (chainConsume) uses ctx.chain; API tests attach a test double
 * (test/consume-helpers.ts FakeConsumeChain, which checks the signature, the holder and single
 * use like the contract); *.chain.test.ts covers the real one on an embedded node.
 */
export interface ConsumeChain {
  readonly networkId: number;
  /** base32 and hex of the Collectible. */
  readonly collectible: string;
  readonly collectibleHex: string;
  readonly explorerUrl: string;
  /** The Collectible's own CIP-23 domain (name "Collectible"): what the holder signs under. */
  domain(): Cip23Domain;
  /** Dry run of consumeAndMint: ok, or the revert name (permanent unless the node is unreachable). */
  check(c: Consume, signature: string): Promise<CheckResult>;
  /** Enqueues the operator's consumeAndMint (idempotent by key); returns its queue id. */
  submit(key: string, c: Consume, signature: string): Promise<number>;
  outcome(txId: number): Promise<TxOutcome>;
  /** The token's holder (base32), null when it does not exist (never minted or burnt). Throws when the node is unreachable. */
  ownerOf(tokenId: string): Promise<string | null>;
  /** The latest executed epoch. */
  currentEpoch(): Promise<number>;
  /** The pivot block hash of `epoch` (0x…), null while the chain has not reached it. */
  blockHash(epoch: number): Promise<string | null>;
  onTxDone(listener: (txId: number) => void): () => void;
}

/** Reverts after which this consent can never succeed (the flow fails and its collectibles are released). */
export const PERMANENT_CONSUME_REVERTS = new Set([
  'InvalidConsume',
  'EmptyConsume',
  'InvalidSigner',
  'InvalidSignatureS',
  'InvalidSignatureV',
  'InvalidSignatureLength',
  'NotTokenOwner',
  'ERC721InvalidSender',
  'ERC721NonexistentToken',
  'FlowIdUsed',
]);

/** The ABI argument of consumeAndMint's tuple. */
function consumeArg(c: Consume) {
  const m = consumeMessage(c);
  return { owner: m.owner, burnIds: m.burnIds.map((id) => BigInt(id)), mintIds: m.mintIds.map((id) => BigInt(id)), flowId: m.flowId };
}

export async function chainConsume(chain: Chain): Promise<ConsumeChain> {
  const art = await loadArtifact('Collectible');
  const selectors = errorSelectors(art.abi);
  const rpc = chain.queue.rpc;
  const collectible = chain.contracts.collectible;
  const domain = collectibleDomain(chain.networkId, chain.collectibleHex);
  const data = (c: Consume, signature: string) => collectible.consumeAndMint(consumeArg(c), signature).data as string;
  return {
    networkId: chain.networkId,
    collectible: chain.collectible,
    collectibleHex: chain.collectibleHex,
    explorerUrl: chain.explorerUrl,
    domain: () => domain,
    async check(c, signature) {
      try {
        const out = await simulateCall(rpc.url, { from: chain.operatorAddress, to: chain.collectible, data: data(c, signature) }, selectors);
        if (out.ok) return { ok: true };
        const name = out.revert.name;
        return { ok: false, permanent: PERMANENT_CONSUME_REVERTS.has(name), reason: name === 'Unknown' ? `reverted ${out.revert.selector}` : name };
      } catch (err) {
        return { ok: false, permanent: false, reason: `chain unreachable: ${String((err as Error).message ?? err)}`.slice(0, 200) };
      }
    },
    submit: (key, c, signature) => chain.queue.enqueue({ key, kind: 'consume', to: chain.collectible, data: data(c, signature) }),
    async outcome(txId) {
      const row = await chain.queue.get(txId);
      if (!row) return { state: 'failed', txHash: null, error: 'unknown transaction' };
      return { state: row.status === 'confirmed' ? 'confirmed' : row.status === 'failed' ? 'failed' : 'pending', txHash: row.tx_hash, error: row.error };
    },
    async ownerOf(tokenId) {
      const r = await rpc.call<string>('cfx_call', [{ to: chain.collectible, data: collectible.ownerOf(BigInt(tokenId)).data }, 'latest_state']).catch((err: unknown) => err);
      if (r instanceof RpcError && r.code === -32015) return null; // ERC721NonexistentToken
      if (r instanceof Error) throw r;
      const hex = `0x${String(r).slice(-40)}`;
      return /^0x0{40}$/.test(hex) ? null : toBase32Address(hex, chain.networkId);
    },
    async currentEpoch() {
      return Number(BigInt(await rpc.call<string>('cfx_epochNumber', ['latest_state'])));
    },
    async blockHash(epoch) {
      const head = Number(BigInt(await rpc.call<string>('cfx_epochNumber', ['latest_state'])));
      if (epoch > head) return null;
      const block = await rpc.call<{ hash?: string } | null>('cfx_getBlockByEpochNumber', [`0x${epoch.toString(16)}`, false]);
      return block?.hash ?? null;
    },
    onTxDone(listener) {
      const off = chain.queue.onDone((row) => listener(Number(row.id)));
      return () => void off();
    },
  };
}

const attached = new WeakMap<object, ConsumeChain | undefined>();

/** Plugs the chain side in (the real one at start, a test double in tests); undefined detaches it. */
export function attachConsumeChain(ctx: AppContext, c: ConsumeChain | undefined) {
  attached.set(ctx.db, c);
}

export function consumeChainOf(ctx: AppContext): ConsumeChain | undefined {
  return attached.get(ctx.db);
}

/** Resolves when transaction `txId` is done (or after `timeoutMs`). */
export function waitConsumeTx(c: ConsumeChain, txId: number, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const off = c.onTxDone((id) => {
      if (id === txId) done();
    });
    const timer = setTimeout(done, timeoutMs);
    function done() {
      clearTimeout(timer);
      off();
      resolve();
    }
  });
}

/** The holder's Consume: owner hex, ids as decimal strings. */
export function consumeOf(owner: string, burnIds: string[], mintIds: string[], flowId: string): Consume {
  return { owner: toHexAddress(owner), burnIds, mintIds, flowId };
}
