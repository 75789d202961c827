import crypto from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { listUnmintedGoods, markMinted, type UnmintedGoods } from '../catalog/mint-queue.ts';
import { completeMintedDropOrders } from './complete-drop-order.ts';

/**
 * Minting pending collectibles in batches. Everything the mint job needs from the chain is
 * `Minter`; the real one (chain/mint-job.ts) enqueues `Collectible.mintBatch(to[], ids[])` on the
 * operator's durable queue, API tests plug a test double in.
 *
 * A pass takes up to `limit` pending collectibles whose owner has a wallet, sorted by owner then id,
 * and cuts them into batches of MINT_BATCH_SIZE (default 50) — one transaction per batch with one
 * idempotency key (`mint:batch:<hash of the goods ids>`; a single collectible uses
 * `mint:goods:<id>` and `mint(to, id)`). Confirmed → the goods are marked minted with the tx hash.
 * A failed batch falls back to single mints: a token the chain already has is marked minted
 * (an earlier attempt got through), the others are minted one by one. The contract refuses an
 * existing token id, so nothing can ever be minted twice. Then the drop orders whose collectibles
 * are now all minted are completed.
 */
export interface MintOutcome {
  state: 'pending' | 'confirmed' | 'failed';
  txHash: string | null;
  error: string | null;
}

export interface Minter {
  /** The asset contract (recorded on minted goods). */
  readonly contract: string;
  /** Enqueues the mint of `tokenIds[i]` to `to[i]` (idempotent by `key`); returns a transaction handle. */
  submit(key: string, to: string[], tokenIds: string[]): Promise<number>;
  /** Waits (up to `timeoutMs`) until these transactions are done; returns their outcomes. */
  outcomes(txIds: number[], timeoutMs: number): Promise<Map<number, MintOutcome>>;
  /** Whether the token exists on chain. */
  exists(tokenId: string): Promise<boolean>;
}

/** Cuts pending goods into batches: by owner, then id, at most `size` per batch. */
export function mintBatches(goods: UnmintedGoods[], size: number): UnmintedGoods[][] {
  const sorted = goods.filter((g) => g.ownerWallet).sort((a, b) => a.ownerUserId - b.ownerUserId || a.id - b.id);
  const out: UnmintedGoods[][] = [];
  for (let i = 0; i < sorted.length; i += size) out.push(sorted.slice(i, i + size));
  return out;
}

export const batchKey = (batch: UnmintedGoods[]) =>
  batch.length === 1 ? `mint:goods:${batch[0]!.id}` : `mint:batch:${crypto.createHash('sha256').update(batch.map((g) => g.id).join(',')).digest('hex').slice(0, 40)}`;

/** One pass; returns how many collectibles it marked minted. */
export async function mintPendingGoods(ctx: AppContext, minter: Minter, opts: { limit?: number; waitMs?: number; log?: (msg: string, extra?: unknown) => void } = {}): Promise<number> {
  const log = opts.log ?? (() => {});
  const waitMs = opts.waitMs ?? 600_000;
  const pending = await listUnmintedGoods(ctx, opts.limit ?? 5000);
  const batches = mintBatches(pending, ctx.config.drops.mintBatchSize);
  if (!batches.length) return 0;
  const submitted = await Promise.all(batches.map(async (b) => ({ batch: b, txId: await minter.submit(batchKey(b), b.map((g) => g.ownerWallet!), b.map((g) => g.tokenId)) })));
  const outcomes = await minter.outcomes(submitted.map((s) => s.txId), waitMs);
  const minted: number[] = [];
  const retry: UnmintedGoods[] = [];
  for (const s of submitted) {
    const out = outcomes.get(s.txId);
    if (out?.state === 'confirmed') {
      await markMinted(ctx, s.batch.map((g) => g.id), { contract: minter.contract, txHash: out.txHash ?? undefined });
      minted.push(...s.batch.map((g) => g.id));
    } else if (out?.state === 'failed') {
      if (s.batch.length > 1) log('mint batch failed, minting one by one', { goods: s.batch.length, error: out.error });
      else log('mint failed', { goodsId: s.batch[0]!.id, error: out.error });
      retry.push(...s.batch);
    }
    // still pending: a later pass waits for it again (same key → same transaction)
  }
  // Fallback: what the chain already has is minted; the rest one by one. A collectible whose own
  // single mint failed is retried under a key of the current minute (at most one retry a minute).
  const singles: { g: UnmintedGoods; txId: number }[] = [];
  for (const g of retry) {
    if (await minter.exists(g.tokenId).catch(() => false)) {
      await markMinted(ctx, [g.id], { contract: minter.contract });
      minted.push(g.id);
      continue;
    }
    const alone = submitted.some((x) => x.batch.length === 1 && x.batch[0]!.id === g.id);
    const key = alone ? `mint:goods:${g.id}:${Math.floor(Date.now() / 60_000)}` : `mint:goods:${g.id}`;
    singles.push({ g, txId: await minter.submit(key, [g.ownerWallet!], [g.tokenId]) });
  }
  if (singles.length) {
    const single = await minter.outcomes(singles.map((s) => s.txId), waitMs);
    for (const s of singles) {
      const out = single.get(s.txId);
      if (out?.state === 'confirmed') {
        await markMinted(ctx, [s.g.id], { contract: minter.contract, txHash: out.txHash ?? undefined });
        minted.push(s.g.id);
      } else if (out?.state === 'failed') {
        log('mint failed', { goodsId: s.g.id, error: out.error });
      }
    }
  }
  if (minted.length) await completeOrdersOf(ctx, minted);
  return minted.length;
}

async function completeOrdersOf(ctx: AppContext, goodsIds: number[]) {
  const orderNos = new Set<string>();
  for (let i = 0; i < goodsIds.length; i += 500) {
    const rows = await ctx.db.kysely.selectFrom('goods').select('drop_order_no').where('id', 'in', goodsIds.slice(i, i + 500)).where('drop_order_no', 'is not', null).execute();
    for (const r of rows) orderNos.add(r.drop_order_no!);
  }
  if (orderNos.size) await completeMintedDropOrders(ctx, [...orderNos]);
}

/** The running mint loop of this process registers its wake-up here (fulfilment calls it after creating collectibles). */
const wakers = new WeakMap<object, () => void>();
export function onMintWanted(ctx: AppContext, wake: () => void) {
  wakers.set(ctx.db, wake);
}
export function wakeMinting(ctx: AppContext) {
  wakers.get(ctx.db)?.();
}
