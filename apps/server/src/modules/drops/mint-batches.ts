import crypto from 'node:crypto';
import { sql } from 'kysely';
import { keyList } from '../../db/key-list.ts';
import { sameAddress } from '@cfx/protocol/address.ts';
import type { AppContext } from '../../context.ts';
import { listUnmintedGoods, markMinted, type UnmintedGoods } from '../catalog/index.ts';
import { completeMintedDropOrders } from './complete-drop-order.ts';
import { refundUndeliverableUnits } from './refund-undeliverable.ts';

/**
 * Minting pending collectibles in batches. Everything the mint job needs from the chain is
 * `Minter`; the real one (chain/mint-job.ts) enqueues `Collectible.mintBatch(to[], ids[])` on the
 * operator's durable queue, API tests plug a test double in.
 *
 * A pass takes up to `limit` pending collectibles whose owner has a wallet, sorted by owner then id,
 * and cuts them into batches of MINT_BATCH_SIZE (default 50) — one transaction per batch with one
 * idempotency key (`mint:batch:<hash of the goods ids>`; a single collectible uses
 * `mint:goods:<id>` and `mint(to, id)`). Confirmed → the goods are marked minted with the tx hash.
 * A failed batch falls back to single mints: a token the chain already has at the owner's wallet
 * is marked minted (an earlier attempt got through), the others are minted one by one. The
 * contract refuses an existing token id, so nothing can ever be minted twice. Then the drop orders
 * whose collectibles are now all minted are completed.
 *
 * A drop unit that can never be minted is refunded instead (refund-undeliverable.ts): its token id
 * exists on chain at another address, or its single mint failed DROP_MINT_MAX_FAILURES times
 * (`goods.mint_failures`, one retry a minute, MINT_RETRY_MS). Other pending collectibles (demo data, compose and
 * box results) are not paid orders: they keep being retried.
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
  /** The token's owner on chain (any address form), or null when the token does not exist. */
  ownerOf(tokenId: string): Promise<string | null>;
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
  // Goods whose single mint failed before are not batched again: they are retried alone, a minute apart.
  const batches = mintBatches(pending.filter((g) => g.mintFailures === 0), ctx.config.drops.mintBatchSize);
  const now = ctx.now();
  const again = pending.filter((g) => g.mintFailures > 0 && g.ownerWallet && (g.mintFailedAt ?? 0) + MINT_RETRY_MS <= now);
  if (!batches.length && !again.length) return 0;
  const submitted = await Promise.all(batches.map(async (b) => ({ batch: b, txId: await minter.submit(batchKey(b), b.map((g) => g.ownerWallet!), b.map((g) => g.tokenId)) })));
  const outcomes = await minter.outcomes(submitted.map((s) => s.txId), waitMs);
  const minted: number[] = [];
  const retry: UnmintedGoods[] = [...again];
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
  // Fallback: what the chain already has at the owner's wallet is minted, a token id at another
  // address is refused for good; the rest one by one. A single mint that fails is counted
  // (goods.mint_failures) and retried under a new key (`…:r<failures>`) a minute later.
  const singles: { g: UnmintedGoods; txId: number }[] = [];
  const refusals: { g: UnmintedGoods; reason: string }[] = [];
  for (const g of retry) {
    const owner = await minter.ownerOf(g.tokenId).catch(() => null);
    if (owner !== null) {
      if (g.ownerWallet && sameAddress(owner, g.ownerWallet)) {
        await markMinted(ctx, [g.id], { contract: minter.contract });
        minted.push(g.id);
      } else {
        log('mint refused for good: the token id exists at another address', { goodsId: g.id, tokenId: g.tokenId });
        refusals.push({ g, reason: `token ${g.tokenId} already exists on chain at another address` });
      }
      continue;
    }
    // The first single try of a collectible minted alone is its batch's own transaction (same key).
    const key = g.mintFailures === 0 ? `mint:goods:${g.id}` : `mint:goods:${g.id}:r${g.mintFailures}`;
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
        const failures = await countMintFailure(ctx, s.g);
        if (failures >= ctx.config.drops.mintMaxFailures) refusals.push({ g: s.g, reason: `minting failed ${failures} times (${out.error ?? 'reverted'})` });
      }
    }
  }
  if (refusals.length) await refundRefused(ctx, refusals, log);
  if (minted.length) await completeOrdersOf(ctx, minted);
  return minted.length;
}

/** How long a collectible whose single mint failed waits before the next try (business time). */
export const MINT_RETRY_MS = 60_000;

/** One more failed single mint of a pending collectible (counted once per try, whatever passes run at once); returns the count. */
async function countMintFailure(ctx: AppContext, g: UnmintedGoods): Promise<number> {
  const row = await ctx.db.kysely
    .updateTable('goods')
    .set({ mint_failures: sql`mint_failures + 1`, mint_failed_at: ctx.now() })
    .where('id', '=', g.id)
    .where('chain_status', '=', 'pending')
    .where('mint_failures', '=', g.mintFailures)
    .returning('mint_failures')
    .executeTakeFirst();
  return Number(row?.mint_failures ?? 0);
}

/** Drop units that can never be minted are refunded, one transaction per order; other goods stay pending. */
async function refundRefused(ctx: AppContext, refusals: { g: UnmintedGoods; reason: string }[], log: (msg: string, extra?: unknown) => void) {
  const ids = refusals.map((r) => r.g.id);
  const orderOf = new Map<number, string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await ctx.db.kysely.selectFrom('goods').select(['id', 'drop_order_no']).where('id', 'in', ids.slice(i, i + 500)).where('drop_order_no', 'is not', null).execute();
    for (const r of rows) orderOf.set(Number(r.id), r.drop_order_no!);
  }
  const byOrder = new Map<string, { ids: number[]; reason: string }>();
  for (const r of refusals) {
    const orderNo = orderOf.get(r.g.id);
    if (!orderNo) continue;
    const e = byOrder.get(orderNo) ?? { ids: [], reason: r.reason };
    e.ids.push(r.g.id);
    byOrder.set(orderNo, e);
  }
  for (const [orderNo, e] of byOrder) {
    try {
      const n = await refundUndeliverableUnits(ctx, orderNo, e.ids, e.reason);
      if (n) log('drop units refunded instead of minted', { orderNo, units: n, reason: e.reason });
    } catch (err) {
      log('refund of undeliverable drop units failed', { orderNo, err: String(err) });
    }
  }
}

async function completeOrdersOf(ctx: AppContext, goodsIds: number[]) {
  const orderNos = new Set<string>();
  for (let i = 0; i < goodsIds.length; i += 500) {
    const rows = await ctx.db.kysely.selectFrom('goods').select('drop_order_no').where('id', 'in', keyList(ctx, goodsIds.slice(i, i + 500))).where('drop_order_no', 'is not', null).execute();
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
