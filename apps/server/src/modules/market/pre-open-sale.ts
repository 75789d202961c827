import crypto from 'node:crypto';
import { Status } from '@cfx/contract/envelope.ts';
import type { Lang } from '@cfx/contract/messages.ts';
import { sameAddress } from '@cfx/protocol/address.ts';
import { listOrderTypedData } from '@cfx/protocol/cip23.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { requireTrader } from '../kyc/index.ts';
import { costOf, royaltyPermilleOf } from './fees.ts';
import { checkPrice, checkSellable, liveListing, loadGoods, notFound, refreshHolder, requireSettlement } from './repo.ts';
import { pendingCancels } from './track-order-cancels.ts';

/**
 * preOpenSale {goodsId, price, bidId?}: everything the seller's wallet must do to list.
 * A draft listing is stored with a fresh single-use sellerOrderId; the answer carries the CIP-23
 * typed data of the listOrder (hex addresses, as Fluent needs) to sign with cfx_signTypedData_v4,
 * and the exchange address to approve for the token. `pendingCancels` lists the seller's earlier
 * signed orders of this collectible still open on chain: the wallet cancels them
 * (Exchange.cancelOrder) before signing. openSale (or agreeBargin with bidId) must follow within
 * 30 minutes with the signature.
 */
export async function preOpenSale(ctx: AppContext, userId: number, input: { goodsId: number; price: number; bidId?: number }, lang: Lang) {
  const { walletAddress } = await requireTrader(ctx, userId);
  const chain = requireSettlement(ctx);
  const g = await loadGoods(ctx.db.kysely, input.goodsId);
  // Recorded at another own address (a shift): back at the linked wallet on chain already? (the indexer may lag)
  if (g.holder_address && g.owner_user_id === userId) g.holder_address = await refreshHolder(ctx, chain, g, walletAddress);
  const tokenId = checkSellable(ctx, g, userId, chain);
  checkPrice(ctx, input.price);
  const now = ctx.now();
  if (input.bidId !== undefined) {
    const bid = await ctx.db.kysely.selectFrom('bids').selectAll().where('id', '=', input.bidId).executeTakeFirst();
    if (!bid || Number(bid.goods_id) !== g.id) throw notFound('bidNotFound');
    if (bid.status !== 'active' || Number(bid.expires_at) <= now) throw new ApiError(Status.BID_STATE, 'bidNotActive');
    if (Number(bid.amount_fen) !== input.price) throw new ApiError(Status.BID_STATE, 'bidPriceMismatch');
  } else if (await liveListing(ctx.db.kysely, g.id)) {
    throw new ApiError(Status.GOODS_STATE, 'goodsAlreadyOnSale');
  }
  const sellerOrderId = `SO${now.toString(36)}${crypto.randomBytes(9).toString('base64url').replace(/[-_]/g, 'x')}`;
  const draftExpiresAt = now + ctx.config.market.draftTtlMs;
  await ctx.db.kysely
    .insertInto('listings')
    .values({
      goods_id: g.id, seller_user_id: userId, seller_address: walletAddress, nft_token: chain.collectible, token_id: tokenId, price_fen: input.price,
      seller_order_id: sellerOrderId, signature: null, kind: input.bidId !== undefined ? 'bid' : 'market', bid_id: input.bidId ?? null, status: 'draft',
      reserved_order_no: null, close_reason: null, draft_expires_at: draftExpiresAt, created_at: now, listed_at: null, closed_at: null,
    })
    .execute();
  const typedData = listOrderTypedData({ seller: walletAddress, nftToken: chain.collectibleHex, tokenId, amount: input.price, sellerOrderId }, chain.domain());
  let approved: boolean;
  try {
    const state = await chain.tokenState(tokenId);
    approved = state.approved !== null && sameAddress(state.approved, chain.exchange);
  } catch {
    approved = false;
  }
  const cancels = await pendingCancels(ctx, chain, { userId, goodsId: g.id, walletAddress, onChainError: 'include' });
  return {
    goodsId: g.id,
    priceFen: input.price,
    sellerOrderId,
    typedData: { ...typedData, types: Object.fromEntries(Object.entries(typedData.types).map(([k, v]) => [k, v.map((f) => ({ ...f }))])) },
    seller: walletAddress,
    exchange: chain.exchange,
    exchangeHex: chain.exchangeHex,
    collectible: chain.collectible,
    collectibleHex: chain.collectibleHex,
    tokenId,
    approved,
    pendingCancels: cancels,
    expiresAt: draftExpiresAt,
    cost: costOf(input.price, ctx.config.commissionPermille, royaltyPermilleOf(ctx, g.royalty_permille), lang),
  };
}
