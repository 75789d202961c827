import { Status } from '@cfx/contract/envelope.ts';
import { sameAddress } from '@cfx/protocol/address.ts';
import { verifyListOrder } from '@cfx/contracts/src/order-signature.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import type { ListingRow } from './repo.ts';
import type { SettlementChain } from './settlement-chain.ts';
import { requireNoPendingCancels } from './track-order-cancels.ts';

/**
 * The checks a signed listing must pass before it can be bought: the draft from preOpenSale
 * (this seller, this goods, this price, this kind, not expired, signed by the wallet it was
 * prepared for), the CIP-23 signature under the live exchange domain, no earlier signed order of
 * the collectible still open on chain (1019: cancel it first), and the chain: the seller's wallet
 * owns the token and the exchange is approved for it.
 */
export async function verifySignedDraft(
  ctx: AppContext,
  chain: SettlementChain,
  draft: ListingRow | undefined,
  expect: { userId: number; goodsId: number; priceFen: number; kind: 'market' | 'bid'; bidId?: number; walletAddress: string; signature: string },
): Promise<ListingRow> {
  if (
    !draft ||
    draft.status !== 'draft' ||
    Number(draft.seller_user_id) !== expect.userId ||
    Number(draft.goods_id) !== expect.goodsId ||
    draft.kind !== expect.kind ||
    (expect.bidId !== undefined && Number(draft.bid_id) !== expect.bidId) ||
    Number(draft.draft_expires_at) <= ctx.now() ||
    !sameAddress(draft.seller_address, expect.walletAddress)
  ) {
    throw new ApiError(Status.GOODS_STATE, 'saleDraftInvalid');
  }
  if (Number(draft.price_fen) !== expect.priceFen) throw new ApiError(Status.GOODS_STATE, expect.kind === 'bid' ? 'bidPriceMismatch' : 'saleDraftInvalid');
  const order = { seller: draft.seller_address, nftToken: chain.collectibleHex, tokenId: draft.token_id, amount: expect.priceFen, sellerOrderId: draft.seller_order_id };
  if (!sameAddress(draft.nft_token, chain.collectible) || !verifyListOrder(expect.signature, order, chain.domain())) {
    throw new ApiError(Status.BAD_SIGNATURE, 'orderBadSignature');
  }
  // From here on the seller has signed this order: remember it, so it is cancelled on chain
  // before any later listing if it never goes live (track-order-cancels.ts).
  if (!draft.signature) {
    await ctx.db.kysely.updateTable('listings').set({ signature: expect.signature }).where('id', '=', Number(draft.id)).where('status', '=', 'draft').where('signature', 'is', null).execute();
  }
  await requireNoPendingCancels(ctx, chain, { userId: expect.userId, goodsId: expect.goodsId, walletAddress: expect.walletAddress, exceptListingId: Number(draft.id) });
  let state;
  try {
    state = await chain.tokenState(draft.token_id);
  } catch {
    throw new ApiError(Status.CHAIN_UNAVAILABLE, 'chainUnavailable');
  }
  if (!state.owner || !sameAddress(state.owner, expect.walletAddress)) throw new ApiError(Status.CHAIN_MISMATCH, 'chainNotOwner');
  if (!state.approved || !sameAddress(state.approved, chain.exchange)) throw new ApiError(Status.CHAIN_MISMATCH, 'chainNotApproved');
  return draft;
}
