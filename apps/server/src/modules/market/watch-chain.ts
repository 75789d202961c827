import { Status } from '@cfx/contract/envelope.ts';
import { ZERO_HEX_ADDRESS, sameAddress, toBase32Address } from '@cfx/protocol/address.ts';
import { sameAddr } from './addr.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { historyAction, liveListing, loadGoods, requireSettlement, toListing } from './repo.ts';
import { invalidateListing } from './invalidate-listing.ts';
import { pendingCancels } from './track-order-cancels.ts';
import type { TokenEvent } from './settlement-chain.ts';

/**
 * No ghost listings: when the indexer sees a Transfer or Approval of a token with a live listing,
 * the token's owner and approval are read from the chain again and a listing that can no longer
 * settle (seller no longer owns it, exchange no longer approved) is invalidated at once.
 * A Transfer to the wallet of one of our users (other than through a sale) also moves the
 * collectible to that user in the database.
 */
export async function recheckTokens(ctx: AppContext, tokenIds: string[]): Promise<number> {
  const chain = ctx.market?.settlement;
  if (!chain || !tokenIds.length) return 0;
  // Listings held by a paid order are left to its settlement (which moves the token itself).
  const listings = await ctx.db.kysely
    .selectFrom('listings')
    .leftJoin('orders', 'orders.order_no', 'listings.reserved_order_no')
    .select(['listings.id', 'listings.token_id', 'listings.seller_address'])
    .where('listings.token_id', 'in', [...new Set(tokenIds)])
    .where((eb) => eb.or([eb('listings.status', '=', 'on_sale'), eb.and([eb('listings.status', '=', 'reserved'), eb('orders.status', 'in', ['created', 'paying'])])]))
    .execute();
  let n = 0;
  for (const l of listings) {
    const state = await chain.tokenState(l.token_id);
    const ownerOk = sameAddr(state.owner, l.seller_address);
    const approvedOk = sameAddr(state.approved, chain.exchange);
    if (ownerOk && approvedOk) continue;
    if (await invalidateListing(ctx, Number(l.id), ownerOk ? 'approval_revoked' : 'token_moved')) n++;
  }
  return n;
}

export async function onTokenEvents(ctx: AppContext, events: TokenEvent[]) {
  await recheckTokens(ctx, events.map((e) => e.tokenId));
  const transfers = events.filter((e) => e.event === 'Transfer' && e.to && e.from && !sameAddr(e.from, ZERO_HEX_ADDRESS));
  if (!transfers.length) return;
  // Shifts and gifts (modules/shift): pending ones applied, moves to an unlinked own address followed.
  await ctx.market?.onIndexedTransfers?.(transfers);
  // Only tokens whose owner in the database is not the recipient, and that no sale in flight is
  // moving (it moves the goods itself when it completes), need a closer look.
  const rows = await ctx.db.kysely
    .selectFrom('goods')
    .innerJoin('users', 'users.id', 'goods.owner_user_id')
    .select((eb) => [
      'goods.token_id',
      'users.wallet_address',
      eb.exists(eb.selectFrom('orders').select('orders.id').whereRef('orders.goods_id', '=', 'goods.id').where('orders.status', 'in', ['paid', 'settling'])).as('busy'),
    ])
    .where('goods.token_id', 'in', [...new Set(transfers.map((e) => Number(e.tokenId)))])
    .where('goods.chain_status', '=', 'minted')
    .execute();
  const candidates = new Map(rows.filter((r) => !Number(r.busy)).map((r) => [String(r.token_id), r.wallet_address]));
  for (const e of transfers) {
    if (!candidates.has(e.tokenId) || sameAddr(candidates.get(e.tokenId), e.to)) continue;
    await syncOwner(ctx, e.tokenId, e.to!);
  }
}

/** After a sale failed for good (the token was moved away meanwhile), the collectible follows its owner on chain if that is one of our users. */
export async function resyncGoodsOwner(ctx: AppContext, goodsId: number) {
  const chain = ctx.market?.settlement;
  const g = await ctx.db.kysely.selectFrom('goods').select(['token_id', 'chain_status']).where('id', '=', goodsId).executeTakeFirst();
  if (!chain || !g || g.token_id === null || g.chain_status !== 'minted') return;
  const { owner } = await chain.tokenState(String(g.token_id));
  if (owner) await syncOwner(ctx, String(g.token_id), owner);
}

/** A token moved on chain to a known user's wallet (not through one of our sales): the collectible follows. */
async function syncOwner(ctx: AppContext, tokenId: string, to: string) {
  const g = await ctx.db.kysely.selectFrom('goods').select(['id', 'owner_user_id']).where('token_id', '=', Number(tokenId)).where('chain_status', '=', 'minted').executeTakeFirst();
  if (!g) return;
  const user = await ctx.db.kysely.selectFrom('users').select('id').where('wallet_address', '=', toBase32Address(to, ctx.market!.settlement!.networkId)).executeTakeFirst();
  if (!user || Number(user.id) === Number(g.owner_user_id)) return;
  // A sale in flight moves the goods itself when it completes.
  const busy = await ctx.db.kysely.selectFrom('orders').select('id').where('goods_id', '=', Number(g.id)).where('status', 'in', ['paid', 'settling']).executeTakeFirst();
  if (busy) return;
  const chainOwner = (await ctx.market!.settlement!.tokenState(tokenId)).owner;
  if (!chainOwner || !sameAddress(chainOwner, to)) return;
  const now = ctx.now();
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const res = await trx
      .updateTable('goods')
      .set({ owner_user_id: Number(user.id), status: 'held', sale_price_fen: null, listed_at: null, acquired_at: now })
      .where('id', '=', Number(g.id))
      .where('owner_user_id', '=', Number(g.owner_user_id))
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 1) await historyAction(trx, { goodsId: Number(g.id), action: 'transfer', from: Number(g.owner_user_id), to: Number(user.id), priceFen: null, at: now });
  });
}

/**
 * openAndCloseNotify {goodsId, txHash?, action?}: the client sent an approve / cancelOrder /
 * approve(0) transaction; re-read the chain now and report the collectible's listing state.
 */
export async function notifyOpenClose(ctx: AppContext, userId: number, goodsId: number) {
  const chain = requireSettlement(ctx);
  const g = await loadGoods(ctx.db.kysely, goodsId);
  if (g.owner_user_id !== userId) throw new ApiError(Status.FORBIDDEN, 'goodsNotYours');
  if (g.token_id === null || g.chain_status !== 'minted') throw new ApiError(Status.GOODS_STATE, 'goodsNotMinted');
  const tokenId = String(g.token_id);
  let state;
  try {
    state = await chain.tokenState(tokenId);
  } catch {
    throw new ApiError(Status.CHAIN_UNAVAILABLE, 'chainUnavailable');
  }
  await recheckTokens(ctx, [tokenId]);
  const wallet = (await ctx.db.kysely.selectFrom('users').select('wallet_address').where('id', '=', userId).executeTakeFirst())?.wallet_address ?? null;
  // After an off-shelf cancel: record what the chain now says about the seller's earlier orders.
  if (wallet) await pendingCancels(ctx, chain, { userId, goodsId, walletAddress: wallet, onChainError: 'include' });
  const l = await liveListing(ctx.db.kysely, goodsId);
  const last = l ?? (await ctx.db.kysely.selectFrom('listings').selectAll().where('goods_id', '=', goodsId).where('status', 'not in', ['draft', 'void']).orderBy('id', 'desc').limit(1).executeTakeFirst());
  return {
    goodsId,
    owner: state.owner,
    ownerIsSeller: Boolean(state.owner && wallet && sameAddress(state.owner, wallet)),
    approved: Boolean(state.approved && sameAddress(state.approved, chain.exchange)),
    status: l && l.kind === 'market' ? ('on_sale' as const) : ('held' as const),
    listing: last ? toListing(last) : null,
  };
}
