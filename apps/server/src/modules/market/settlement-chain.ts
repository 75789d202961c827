import type { Cip23Domain, ListOrder } from '@cfx/protocol/cip23.ts';

/**
 * Everything the market needs from the chain, behind one small interface: reading a token's
 * owner and approval, dry-running and submitting `Exchange.executeOrder`, learning the outcome,
 * reading whether a seller's order id is filled or cancelled, and hearing about Transfer /
 * Approval / OrderCancelled events. The real implementation (chain-settlement.ts)
 * uses ctx.chain (js-conflux-sdk contracts, the durable operator queue, the indexer); API tests
 * without a node use a test double, and *.chain.test.ts covers the real one on an embedded node.
 */
export interface TokenState {
  /** Owner (base32 of this network), null when the token does not exist. */
  owner: string | null;
  /** getApproved(tokenId) (base32), null when none / no token. */
  approved: string | null;
}

export interface SettleRequest {
  /** Idempotency key of the operator transaction (`settle:<orderNo>`, `settle:<orderNo>:<attempt>`). */
  key: string;
  order: ListOrder;
  signature: string;
  /** Buyer wallet (base32 or hex). */
  buyer: string;
  /** = the order number (single use on chain). */
  buyerOrderId: string;
}

/** A dry run's verdict: permanent failures will never succeed (refund); transient ones may later. */
export type CheckResult = { ok: true } | { ok: false; permanent: boolean; reason: string };

export interface TxOutcome {
  state: 'pending' | 'confirmed' | 'failed';
  txHash: string | null;
  error: string | null;
  /**
   * The transaction went through but skipped this order's fill (Exchange.FillSkipped): the error
   * executeOrder would have reverted with, and whether it is one of PERMANENT_REVERTS.
   */
  skipped?: { reason: string; permanent: boolean };
}

export interface TokenEvent {
  event: 'Transfer' | 'Approval';
  tokenId: string;
  from: string | null;
  to: string | null;
}

/** A seller order id's state on chain (`Exchange.sellerOrderIdState`): a fill or a cancel consumes it. */
export type SellerOrderState = 'open' | 'filled' | 'cancelled';

/** Exchange.OrderCancelled seen on chain: `seller` (base32) cancelled one of its order ids. */
export interface OrderCancelledEvent {
  seller: string;
  /** The cancelled id when the event carries it (the real indexer does), else null: re-read the seller's ids. */
  sellerOrderId: string | null;
}

export interface SettlementChain {
  readonly networkId: number;
  readonly collectible: string;
  readonly collectibleHex: string;
  readonly exchange: string;
  readonly exchangeHex: string;
  readonly explorerUrl: string;
  /** The exchange's CIP-23 domain (chain id, exchange address). */
  domain(): Cip23Domain;
  /** Throws when the node cannot be reached. */
  tokenState(tokenId: string): Promise<TokenState>;
  check(req: SettleRequest): Promise<CheckResult>;
  /**
   * Enqueues the order's fill on the operator queue; returns the queue id of its transaction. The real
   * chain gathers fills into Exchange.executeOrders batches (MARKET_SETTLE_BATCH), so several orders
   * may share one transaction; the same set of keys is the same transaction.
   */
  submit(req: SettleRequest): Promise<number>;
  /** The outcome of this order's fill (`buyerOrderId`) in transaction `txId`: confirmed = executed. */
  outcome(txId: number, buyerOrderId: string): Promise<TxOutcome>;
  /** Whether an order with this buyerOrderId has been executed on chain. */
  executed(buyerOrderId: string): Promise<boolean>;
  /** The state of `seller`'s order id on chain (throws when the node cannot be reached). */
  sellerOrderState(seller: string, sellerOrderId: string): Promise<SellerOrderState>;
  onTxDone(listener: (txId: number) => void): () => void;
  onTokenEvents(listener: (events: TokenEvent[]) => void): () => void;
  onOrdersCancelled(listener: (events: OrderCancelledEvent[]) => void): () => void;
}

/** Revert reasons after which executeOrder can never succeed for this order (the buyer is refunded). */
export const PERMANENT_REVERTS = new Set([
  'NotOnShelf',
  'InvalidSigner',
  'InvalidSignatureS',
  'InvalidSignatureV',
  'InvalidSignatureLength',
  'InvalidOrder',
  'SellerOrderIdUsed',
  'ERC721IncorrectOwner',
  'ERC721NonexistentToken',
  'ERC721InsufficientApproval',
  'ERC721InvalidReceiver',
]);
/**
 * The buyer id is already used (a fill sent again): check whether it was ours (then it succeeded).
 * OrderAlreadyFilled is the same answer from an Exchange deployed before the per-hash fill flag was dropped.
 */
export const FILLED_REVERTS = new Set(['OrderAlreadyFilled', 'BuyerOrderIdUsed']);
