import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { sameAddr } from './addr.ts';
import { invalidateListing } from './invalidate-listing.ts';
import { LIVE } from './repo.ts';
import type { OrderCancelledEvent, SettlementChain } from './settlement-chain.ts';

/**
 * An old signature can never fill: every listOrder a seller signed for a collectible is either
 * live (on sale / reserved), filled on chain (sold), or cancelled on chain
 * (`Exchange.cancelOrder(sellerOrderId)`, sent from the seller's wallet, sponsored) before the
 * seller may sign a new one. Off shelf cancels the closed listing's order; whatever was left
 * uncancelled (the seller refused the cancel step, a listing invalidated by a transfer, a signed
 * draft that was never opened, a bid listing that expired…) is returned by preOpenSale as
 * `pendingCancels`, and openSale / agreeBargin refuse (1019) while any remains.
 *
 * "Signed" means the server has seen a valid signature for the listing: openSale / agreeBargin
 * store it on the draft as soon as it verifies, even when a later check refuses the listing.
 * `listings.chain_cancelled_at` records what the chain confirmed: from the indexer's
 * OrderCancelled events, or read through `sellerOrderIdState` when a listing is still unknown.
 */

const NOT_PENDING = [...LIVE, 'sold'] as const;

interface Candidate {
  id: number;
  seller_order_id: string;
  seller_address: string;
}

/**
 * The sellerOrderIds of `userId`'s earlier signed orders for `goodsId` that the chain has neither
 * filled nor cancelled. Listings signed with another wallet than `walletAddress` are left out (that
 * wallet no longer holds the token, and only it could cancel them). `onChainError`: 'include'
 * counts an unreadable one as pending (cancelling twice is harmless), 'throw' answers 1018.
 */
export async function pendingCancels(
  ctx: AppContext,
  chain: SettlementChain,
  opts: { userId: number; goodsId: number; walletAddress: string; exceptListingId?: number; onChainError: 'include' | 'throw' },
): Promise<string[]> {
  let q = ctx.db.kysely
    .selectFrom('listings')
    .select(['id', 'seller_order_id', 'seller_address'])
    .where('seller_user_id', '=', opts.userId)
    .where('goods_id', '=', opts.goodsId)
    .where('signature', 'is not', null)
    .where('chain_cancelled_at', 'is', null)
    .where('status', 'not in', [...NOT_PENDING]);
  if (opts.exceptListingId !== undefined) q = q.where('id', '!=', opts.exceptListingId);
  const rows = (await q.orderBy('id').execute()).filter((r) => sameAddr(r.seller_address, opts.walletAddress));
  const pending: string[] = [];
  for (const r of rows as Candidate[]) {
    let state;
    try {
      state = await chain.sellerOrderState(r.seller_address, r.seller_order_id);
    } catch {
      if (opts.onChainError === 'throw') throw new ApiError(Status.CHAIN_UNAVAILABLE, 'chainUnavailable');
      pending.push(r.seller_order_id);
      continue;
    }
    if (state === 'cancelled') await markCancelled(ctx, Number(r.id));
    else if (state === 'open') pending.push(r.seller_order_id);
    // 'filled' on chain: consumed, nothing to cancel (the settlement records the sale).
  }
  return pending;
}

/** openSale / agreeBargin: refused (1019) while an earlier signed order of this collectible is still open on chain. */
export async function requireNoPendingCancels(ctx: AppContext, chain: SettlementChain, opts: { userId: number; goodsId: number; walletAddress: string; exceptListingId: number }) {
  const pending = await pendingCancels(ctx, chain, { ...opts, onChainError: 'throw' });
  if (pending.length) throw new ApiError(Status.ORDERS_NOT_CANCELLED, 'ordersNotCancelled', { n: pending.length });
}

async function markCancelled(ctx: AppContext, listingId: number) {
  await ctx.db.kysely.updateTable('listings').set({ chain_cancelled_at: ctx.now() }).where('id', '=', listingId).where('chain_cancelled_at', 'is', null).execute();
}

/**
 * The indexer saw Exchange.OrderCancelled: the listing of that sellerOrderId is marked cancelled on
 * chain. A listing still live (the seller cancelled from the wallet, outside the off-shelf flow)
 * can never settle, so it is invalidated at once, like a revoked approval. An event without the id
 * re-reads the seller's unknown listings from the chain.
 */
export async function onOrdersCancelled(ctx: AppContext, events: OrderCancelledEvent[]): Promise<number> {
  const chain = ctx.market?.settlement;
  if (!chain) return 0;
  let n = 0;
  for (const e of events) {
    let rows;
    if (e.sellerOrderId !== null) {
      rows = await ctx.db.kysely.selectFrom('listings').select(['id', 'status', 'seller_address', 'seller_order_id']).where('seller_order_id', '=', e.sellerOrderId).where('chain_cancelled_at', 'is', null).execute();
    } else {
      rows = await ctx.db.kysely
        .selectFrom('listings')
        .select(['id', 'status', 'seller_address', 'seller_order_id'])
        .where('seller_address', '=', e.seller)
        .where('signature', 'is not', null)
        .where('chain_cancelled_at', 'is', null)
        .where('status', '!=', 'sold')
        .execute();
    }
    for (const r of rows) {
      if (!sameAddr(r.seller_address, e.seller)) continue;
      if (e.sellerOrderId === null && (await chain.sellerOrderState(r.seller_address, r.seller_order_id)) !== 'cancelled') continue;
      if ((LIVE as readonly string[]).includes(r.status)) await invalidateListing(ctx, Number(r.id), 'order_cancelled');
      await markCancelled(ctx, Number(r.id));
      n++;
    }
  }
  return n;
}
