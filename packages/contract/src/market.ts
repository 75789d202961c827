import { z } from 'zod';
import { envelope } from './envelope.ts';
import { chainStatus, goodsCard } from './catalog.ts';
import { idParam, intLike, optionalId, page, paging } from './paging.ts';

/**
 * The consignment market:
 * selling (cost preview, pre-open / open / close sale), buying (orders, payment), deal records,
 * bids ("bargin") and the personal calls (favourites, my assets, balance).
 *
 * Money is integer fen everywhere (`price`, `amount`, `…Fen`); times are epoch milliseconds.
 * Request numbers may arrive as JSON numbers or digit strings (GET query strings).
 */

/** A price in fen (integer). Bounds (default ￥1.00 – ￥1,000,000.00) are checked by the server with their own message. */
export const fenParam = intLike.pipe(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER));
/** Order numbers: `MO…` (market) / `BO…` (accepted bid); also the on-chain buyerOrderId. */
export const orderNoParam = z.string().trim().min(1).max(40).regex(/^[A-Za-z0-9_-]+$/);
export const sellerOrderIdParam = z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/);
/** 65-byte r‖s‖v hex signature (v 0/1 or 27/28) as returned by Fluent's cfx_signTypedData_v4. */
export const signatureParam = z.string().trim().max(200);

// ------------------------------------------------------------------ selling

/** GET /goods/v1/cost ?price=&goodsId= — what the seller pays out of a sale at `price`. */
export const costQuery = z.object({ price: fenParam, goodsId: optionalId });
export const costItem = z.object({
  /** 'commission' (platform) or 'royalty' (creator). */
  type: z.enum(['commission', 'royalty']),
  name: z.string(),
  /** Rate in per mille of the price. */
  permille: z.number().int(),
  amountFen: z.number().int(),
});
export const cost = z.object({
  priceFen: z.number().int(),
  /** Sum of `costs` (deducted from the seller's proceeds; the buyer pays `priceFen`). */
  total: z.number().int(),
  costs: z.array(costItem),
  /** priceFen − total: what the seller is credited after settlement. */
  incomeFen: z.number().int(),
  /** The creator royalty of the collectible's release (its own rate, else the platform default; 0 = none), per mille. */
  royaltyPermille: z.number().int(),
  /** That royalty of this price in fen: ⌊price × permille / 1000⌋ (the remainder stays with the seller). */
  royaltyFen: z.number().int(),
});
export type Cost = z.infer<typeof cost>;

export const preOpenSaleBody = z.object({
  goodsId: idParam,
  price: fenParam,
  /** Set when the listing order is signed to accept this bid (agreeBargin); the price must equal the bid. */
  bidId: optionalId,
});
const typedField = z.object({ name: z.string(), type: z.string() });
export const listOrderTypedData = z.object({
  types: z.record(z.string(), z.array(typedField)),
  primaryType: z.string(),
  domain: z.object({ name: z.string(), version: z.string(), chainId: z.number().int(), verifyingContract: z.string() }),
  message: z.object({ seller: z.string(), nftToken: z.string(), tokenId: z.string(), amount: z.string(), sellerOrderId: z.string() }),
});
export const preOpenSale = z.object({
  goodsId: z.number().int(),
  priceFen: z.number().int(),
  /** Fresh, single-use id of this listing (goes into the signed order). */
  sellerOrderId: z.string(),
  /** Sign with `cfx_signTypedData_v4(sellerAddress, JSON.stringify(typedData))` (hex addresses inside). */
  typedData: listOrderTypedData,
  /** The seller's wallet (base32) that must sign and own the token. */
  seller: z.string(),
  /** Approve this contract for the token (`Collectible.approve(exchangeHex, tokenId)`) to put it on shelf. */
  exchange: z.string(),
  exchangeHex: z.string(),
  collectible: z.string(),
  collectibleHex: z.string(),
  tokenId: z.string(),
  /** Whether the exchange is already approved for the token on chain. */
  approved: z.boolean(),
  /**
   * Earlier signed orders of this seller for this collectible that are neither filled nor cancelled
   * on chain: send `Exchange.cancelOrder(sellerOrderId)` (to `exchange`, from the seller's wallet,
   * sponsored) for each before signing — openSale / agreeBargin refuse (1019) while any is open.
   */
  pendingCancels: z.array(z.string()),
  /** The signed order must be submitted (openSale / agreeBargin) before this time. */
  expiresAt: z.number().int(),
  cost,
});
export const openSaleBody = z.object({ goodsId: idParam, price: fenParam, sellerOrderId: sellerOrderIdParam, signature: signatureParam });
export const listingStatus = z.enum(['on_sale', 'reserved', 'sold', 'closed', 'invalid']);
export const listing = z.object({
  listingId: z.number().int(),
  goodsId: z.number().int(),
  priceFen: z.number().int(),
  sellerOrderId: z.string(),
  /** reserved = an order holds it for payment; invalid = the chain state changed (token moved / approval revoked). */
  status: listingStatus,
  listedAt: z.number().int().nullable(),
  closedAt: z.number().int().nullable(),
  closeReason: z.string().nullable(),
});
export const closeSaleBody = z.object({ goodsId: idParam });
export const closeSale = z.object({
  goodsId: z.number().int(),
  status: z.literal('held'),
  /**
   * The client cancels the closed listing's signed order on chain first, so that signature can never
   * fill: `Exchange.cancelOrder(sellerOrderId)` sent to `exchange` from the seller's wallet (sponsored).
   */
  cancel: z.object({ exchange: z.string(), exchangeHex: z.string(), sellerOrderId: z.string() }).nullable(),
  /** Then takes the token off shelf on chain: `Collectible.approve(0x0…0, tokenId)`. */
  approveZero: z.object({ collectible: z.string(), collectibleHex: z.string(), to: z.string(), tokenId: z.string() }).nullable(),
});
export const openAndCloseNotifyBody = z.object({
  goodsId: idParam,
  /** The approve / approve(0) transaction the wallet sent (informational). */
  txHash: z.string().trim().max(80).nullish(),
  action: z.enum(['open', 'close']).nullish(),
});
export const chainListingState = z.object({
  goodsId: z.number().int(),
  /** The token's owner on chain (base32), null when unknown / not minted. */
  owner: z.string().nullable(),
  ownerIsSeller: z.boolean(),
  /** getApproved(tokenId) == exchange */
  approved: z.boolean(),
  /** The goods' status after the re-check. */
  status: z.enum(['held', 'on_sale']),
  listing: listing.nullable(),
});
export const mySellBody = z.object({ ...paging, status: z.enum(['on_sale', 'sold', 'closed', 'all']).nullish() });
export const mySellItem = listing.extend({
  goods: goodsCard.nullable(),
  /** For sold listings: the order and the net proceeds. */
  orderNo: z.string().nullable(),
  incomeFen: z.number().int().nullable(),
  soldAt: z.number().int().nullable(),
});

// ------------------------------------------------------------------ orders

export const orderStatus = z.enum(['created', 'paying', 'paid', 'settling', 'completed', 'cancelled', 'expired', 'refunded']);
export type OrderStatus = z.infer<typeof orderStatus>;
export const payMethod = z.enum(['sandbox', 'alipay', 'balance', 'card', 'wechat']);
export type PayMethod = z.infer<typeof payMethod>;

/**
 * createOrder: a market order {goodsId | listingId}, or a primary-sale (drop) order {projectId, count}
 * (docs/drops.md) — `count` defaults to 1.
 */
export const createOrderBody = z.object({
  goodsId: optionalId,
  listingId: optionalId,
  projectId: optionalId,
  count: intLike.pipe(z.number().int().min(1).max(1000)).nullish().transform((v) => v ?? undefined),
});
export const orderNoBody = z.object({ orderNo: orderNoParam });
export const partyBrief = z.object({ accountId: z.string(), nickname: z.string() });
export const orderEvent = z.object({ status: orderStatus, from: orderStatus.nullable(), note: z.string().nullable(), at: z.number().int() });
export const orderDetail = z.object({
  orderNo: z.string(),
  /** 'market' (bought from a listing), 'bid' (the seller accepted the buyer's bid) or 'drop' (primary sale of a release). */
  kind: z.enum(['market', 'bid', 'drop']),
  status: orderStatus,
  /** The caller's side of the order. */
  role: z.enum(['buyer', 'seller']),
  goods: z.object({ id: z.number().int(), name: z.string(), image: z.string(), serial: z.number().int(), projectName: z.string(), tokenId: z.string().nullable() }),
  listingId: z.number().int(),
  priceFen: z.number().int(),
  commissionFen: z.number().int(),
  royaltyFen: z.number().int(),
  /** Seller's proceeds (price − commission − royalty); null for the buyer. */
  sellerIncomeFen: z.number().int().nullable(),
  buyer: partyBrief,
  seller: partyBrief,
  payMethod: payMethod.nullable(),
  expiresAt: z.number().int(),
  /** Milliseconds left to pay (0 when not awaiting payment). */
  remainingMs: z.number().int(),
  createdAt: z.number().int(),
  paidAt: z.number().int().nullable(),
  completedAt: z.number().int().nullable(),
  closedAt: z.number().int().nullable(),
  txHash: z.string().nullable(),
  explorerUrl: z.string().nullable(),
  failReason: z.string().nullable(),
  /**
   * A drop order (kind 'drop'): the release, how many units at which unit price, and — once paid
   * and fulfilled — its collectibles with their mint state. `goods` then shows the release (id 0
   * until the first collectible exists, else the first one). null for market and bid orders.
   */
  drop: z
    .object({
      projectId: z.number().int(),
      quantity: z.number().int(),
      unitPriceFen: z.number().int(),
      items: z.array(z.object({ goodsId: z.number().int(), serial: z.number().int(), tokenId: z.string().nullable(), chainStatus })),
    })
    .nullable(),
  timeline: z.array(orderEvent),
  serverTime: z.number().int(),
});
export type OrderDetail = z.infer<typeof orderDetail>;
export const orderCard = orderDetail.omit({ timeline: true });

export const queryAmount = z.object({
  orderNo: z.string(),
  status: orderStatus,
  amountFen: z.number().int(),
  expiresAt: z.number().int(),
  remainingMs: z.number().int(),
  /** Payment methods available now. */
  methods: z.array(payMethod),
  /** The buyer's available platform balance. */
  balanceFen: z.number().int(),
});
export const orderListBody = z.object({
  /** 'buyer' (default): orders I placed; 'seller': orders on my listings. */
  role: z.enum(['buyer', 'seller']).nullish(),
  /** 'pending' = created/paying; 'active' = paid/settling; 'done' = completed; 'closed' = cancelled/expired/refunded. */
  status: z.union([orderStatus, z.enum(['pending', 'active', 'done', 'closed', 'all'])]).nullish(),
});
export const orderPageBody = orderListBody.extend({ ...paging });

export const payBody = z.object({ orderNo: orderNoParam, method: payMethod });
export const payResult = z.object({
  orderNo: z.string(),
  method: payMethod,
  status: orderStatus,
  /** Where to send the buyer to pay (sandbox cashier page / Alipay); null for balance payments (already paid). */
  payUrl: z.string().nullable(),
  expiresAt: z.number().int(),
});

export const dealRecordBody = z.object({
  ...paging,
  goodsId: optionalId,
  projectId: optionalId,
  /** 'buy' / 'sell': the signed-in user's own deals (needs a login). */
  mine: z.enum(['buy', 'sell', 'all']).nullish(),
});
export const dealRecord = z.object({
  /** The deal's id (market) or the drop order's id (drop): unique per kind. */
  id: z.number().int(),
  /**
   * 'market': a consignment sale (one collectible); 'drop': a completed primary purchase (my receipts only);
   * 'royalty': a resale of my release between others, whose royalty (`royaltyFen`) I received (my receipts only).
   */
  kind: z.enum(['market', 'drop', 'royalty']),
  orderNo: z.string(),
  /** The collectible (drop: the order's first one). */
  goodsId: z.number().int(),
  /** The collectible's name (drop: the release's). */
  goodsName: z.string(),
  image: z.string(),
  /** Units (1 for a market deal). */
  quantity: z.number().int(),
  priceFen: z.number().int(),
  /** The creator royalty of this sale in fen (market and royalty rows; 0 for a drop). */
  royaltyFen: z.number().int(),
  seller: partyBrief,
  buyer: partyBrief,
  txHash: z.string().nullable(),
  explorerUrl: z.string().nullable(),
  at: z.number().int(),
});

// ------------------------------------------------------------------ bids ("bargin")

export const bidStatus = z.enum(['active', 'accepted', 'cancelled', 'expired', 'replaced', 'closed']);
export const bargainBody = z.object({ goodsId: idParam, amount: fenParam, expiresAt: intLike.pipe(z.number().int().min(0)) });
export const bargainListBody = z.object({ goodsId: idParam, ...paging });
export const agreeBargainBody = z.object({ bidId: idParam, sellerOrderId: sellerOrderIdParam, signature: signatureParam });
export const cancelBargainQuery = z.object({ id: idParam });
export const myBargainListBody = z.object({
  ...paging,
  /** 'sent' (default): my bids; 'received': bids on collectibles I own. */
  type: z.enum(['sent', 'received']).nullish(),
  status: z.union([bidStatus, z.literal('all')]).nullish(),
});
export const bid = z.object({
  id: z.number().int(),
  goodsId: z.number().int(),
  amountFen: z.number().int(),
  expiresAt: z.number().int(),
  /** 'active' bids past expiresAt are reported 'expired'. */
  status: bidStatus,
  bidder: partyBrief,
  /** Whether the caller placed it. */
  mine: z.boolean(),
  orderNo: z.string().nullable(),
  createdAt: z.number().int(),
});
export const myBid = bid.extend({ goods: goodsCard.nullable() });
export const bidStatistics = z.object({
  /** My bids still active. */
  sentActive: z.number().int(),
  sentAccepted: z.number().int(),
  /** Active bids on collectibles I own, and on how many of them. */
  receivedActive: z.number().int(),
  receivedGoods: z.number().int(),
  highestReceivedFen: z.number().int().nullable(),
});

// ------------------------------------------------------------------ personal

export const loveBody = z.object({ goodsId: idParam });
export const loveResult = z.object({ goodsId: z.number().int(), loved: z.boolean(), loveCount: z.number().int() });
export const favoriteListBody = z.object({ ...paging });
export const homeListBody = z.object({ ...paging, status: z.enum(['held', 'on_sale', 'all']).nullish() });
export const balance = z.object({
  /** Available platform balance (sale proceeds, refunds, top-ups). */
  availableFen: z.number().int(),
  /** My payments held for orders still settling. */
  inSettlementFen: z.number().int(),
  recent: z.array(z.object({ txnId: z.string(), kind: z.string(), orderNo: z.string().nullable(), amountFen: z.number().int(), at: z.number().int() })),
});

// ------------------------------------------------------------------ sandbox payment provider

export const sandboxCashierQuery = z.object({ t: z.string().min(10).max(1000) });
export const sandboxConfirmBody = z.object({ t: z.string().min(10).max(1000), action: z.enum(['pay', 'cancel']) });
export const sandboxConfirm = z.object({ result: z.enum(['paid', 'cancelled']), tradeNo: z.string().nullable(), returnUrl: z.string() });
export const sandboxTopupBody = z.object({ amount: fenParam });
export const sandboxWechatPayBody = z.object({ t: z.string().min(10).max(1000) });
export const sandboxWechatPay = z.object({ result: z.enum(['paid', 'notifyFailed']), tradeNo: z.string() });

// ------------------------------------------------------------------ responses

export const costResponse = envelope(cost.nullable());
export const preOpenSaleResponse = envelope(preOpenSale.nullable());
export const listingResponse = envelope(listing.nullable());
export const closeSaleResponse = envelope(closeSale.nullable());
export const chainListingStateResponse = envelope(chainListingState.nullable());
export const mySellResponse = envelope(page(mySellItem).nullable());
export const orderDetailResponse = envelope(orderDetail.nullable());
export const orderListResponse = envelope(z.array(orderCard).nullable());
export const orderPageResponse = envelope(page(orderCard).nullable());
export const queryAmountResponse = envelope(queryAmount.nullable());
export const payResponse = envelope(payResult.nullable());
export const dealPageResponse = envelope(page(dealRecord).nullable());
export const bidResponse = envelope(bid.nullable());
export const bidPageResponse = envelope(page(bid).nullable());
export const myBidPageResponse = envelope(page(myBid).nullable());
export const bidStatisticsResponse = envelope(bidStatistics.nullable());
export const loveResponse = envelope(loveResult.nullable());
export const goodsCardPageResponse = envelope(page(goodsCard).nullable());
export const balanceResponse = envelope(balance.nullable());
export const sandboxConfirmResponse = envelope(sandboxConfirm.nullable());
export const sandboxWechatPayResponse = envelope(sandboxWechatPay.nullable());
