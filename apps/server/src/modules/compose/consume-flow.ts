import type { Consume } from '@cfx/protocol/consume.ts';
import type { AppContext } from '../../context.ts';
import type { JobResult } from '../../jobs/runner.ts';
import { defineJob } from '../../jobs/define-job.ts';
import { consumeChainOf, waitConsumeTx } from './consume-chain.ts';

/**
 * The durable job `consume:<flow>:<id>:<attempt>` of a submitted box opening (`flow: 'box'`, the
 * goods id) or compose (`flow: 'compose'`, the compose number), inserted with the submission. Its
 * handler (flows/goods-flows.ts) runs the flow's consume on chain; a payload it does not know is done.
 */
export interface ConsumePayload extends Record<string, unknown> {
  flow: string;
  goodsId?: number;
  composeNo?: string;
  attempt?: number;
}
export const consumeJob = defineJob<'consume', ConsumePayload>('consume', {
  key: (p) => `consume:${p.flow}:${p.flow === 'box' ? p.goodsId : p.composeNo}:${p.attempt}`,
  read: (job) => job.payload as ConsumePayload,
});

/**
 * Drives one submitted consent (box opening or compose) to its end, as the durable job `consume`
 * (inserted in the transaction that accepted the signature, so a crash never loses it):
 *
 *   1. enqueue `consumeAndMint(c, signature)` on the operator's queue under the flow's key
 *      (`box:<goodsId>` / `compose:<composeNo>`, `…:<attempt>` for a resubmission) — the queue is
 *      idempotent by key, so a rerun finds the same transaction;
 *   2. wait for its outcome; confirmed → `complete` (one database transaction: burn, mint, history);
 *   3. failed → dry run: the contract says the consent can never succeed (NotTokenOwner: a token
 *      moved; InvalidSigner; FlowIdUsed …) → `fail` (the collectibles are released and the user is
 *      told); it would succeed now (a lost transaction) → resubmit under the next attempt's key (at
 *      most 3); the node is unreachable → later.
 *
 * The contract runs each (holder, flowId) at most once and burns/mints all ids or none, so a
 * resubmission can never burn or mint twice; `complete` and `fail` are conditional moves of the
 * flow's row, so only one of them ever applies.
 */
export interface ConsumeFlow {
  /** Base idempotency key of the operator transaction. */
  key: string;
  attempt: number;
  chainTxId: number | null;
  consume: Consume;
  signature: string;
  /** The queue id is known (persist it so a rerun does not look it up again). */
  onSubmitted(txId: number): Promise<void>;
  /** Confirmed on chain: apply the result (idempotent). */
  complete(txHash: string | null): Promise<void>;
  /** Refused for good: release (idempotent). */
  fail(reason: string): Promise<void>;
  /** A lost transaction: persist attempt + 1 and forget the queue id. */
  retry(nextAttempt: number): Promise<void>;
}

const MAX_ATTEMPTS = 3;
const WAIT_MS = 15_000;

export const attemptKey = (key: string, attempt: number) => (attempt === 0 ? key : `${key}:${attempt}`);

export async function driveConsume(ctx: AppContext, f: ConsumeFlow): Promise<JobResult> {
  const chain = consumeChainOf(ctx);
  if (!chain) return { retryAt: Date.now() + 5000 };
  let txId = f.chainTxId;
  if (txId === null) {
    txId = await chain.submit(attemptKey(f.key, f.attempt), f.consume, f.signature);
    await f.onSubmitted(txId);
  }
  let out = await chain.outcome(txId);
  if (out.state === 'pending') {
    await waitConsumeTx(chain, txId, WAIT_MS);
    out = await chain.outcome(txId);
  }
  if (out.state === 'pending') return { retryAt: Date.now() + 1000 };
  if (out.state === 'confirmed') {
    await f.complete(out.txHash);
    return { done: true };
  }
  const verdict = await chain.check(f.consume, f.signature);
  if (verdict.ok) {
    if (f.attempt + 1 >= MAX_ATTEMPTS) {
      await f.fail(out.error ?? 'no receipt');
      return { done: true };
    }
    await f.retry(f.attempt + 1);
    return { retryAt: Date.now() };
  }
  if (verdict.reason === 'FlowIdUsed' && (await mintedToOwner(ctx, f.consume))) {
    // An earlier attempt of this very consent went through (its receipt was lost): done.
    await f.complete(out.txHash);
    return { done: true };
  }
  if (!verdict.permanent) return { retryAt: Date.now() + 5000 };
  await f.fail(verdict.reason);
  return { done: true };
}

/** Whether every mint id of the consent exists and is held by its owner (it ran). */
async function mintedToOwner(ctx: AppContext, c: Consume): Promise<boolean> {
  const chain = consumeChainOf(ctx)!;
  for (const id of c.mintIds) {
    const owner = await chain.ownerOf(String(id)).catch(() => null);
    if (!owner) return false;
  }
  return true;
}
