/**
 * A payout provider (docs/payouts.md): the bank side of money out. It checks a card's 4 elements with
 * the bank, opens the user's payout account (a sub-merchant of the platform, "second account"),
 * registers the withdrawal card, pays withdrawals to it asynchronously (a signed notify reports the
 * outcome) and answers queries for reconciliation. Our ledger stays the book of record: the provider
 * is only told to pay out money that already left the user's balance (payout:pending).
 */
export interface CardElements {
  name: string;
  idNumber: string;
  cardNo: string;
  /** The phone reserved at the bank for this card. */
  mobile: string;
  bankCode: string;
}

export type CardCheckResult = { ok: true } | { ok: false; reason: 'mismatch' | 'unsupported' };

export interface OpenAccountRequest {
  requestNo: string;
  name: string;
  idNumber: string;
  /** The phone reserved for the bound card. */
  mobile: string;
  cardNo: string;
  bankCode: string;
  provinceCode: string;
  cityCode: string;
  address: string;
  /** Where the provider can fetch the ID photos (signed or private URLs; the sandbox ignores them). */
  identityFront: string;
  identityBack: string;
  notifyUrl: string;
}

export type AccountOutcome =
  | { state: 'active'; merchantNo: string }
  | { state: 'opening'; merchantNo: string | null }
  | { state: 'rejected'; reason: string };

export interface WithdrawalRequest {
  withdrawNo: string;
  merchantNo: string;
  /** What reaches the card: the amount minus our fee. */
  netFen: number;
  cardNo: string;
  bankCode: string;
  last4: string;
  /** The provider's id of the registered card (Yeepay bankCardId), if any. */
  bindId: string | null;
  notifyUrl: string;
  /** Business time of the request (the sandbox bank answers a configured delay later). */
  now: number;
}

export type SubmitOutcome = { accepted: true; tradeNo: string } | { accepted: false; reason: string };

/** A withdrawal's outcome as a notify or a query reports it. */
export interface PayoutNotice {
  withdrawNo: string;
  tradeNo: string;
  status: 'processing' | 'succeeded' | 'failed';
  reason: string | null;
}

export interface PayoutProvider {
  readonly name: 'sandbox' | 'yeepay';
  /** The bank's 4-element check of a card (name, ID number, card number, reserved phone). Throws when the provider cannot be reached. */
  verifyCard(card: CardElements): Promise<CardCheckResult>;
  openAccount(req: OpenAccountRequest): Promise<AccountOutcome>;
  queryAccount(requestNo: string): Promise<AccountOutcome | null>;
  /** Registers the withdrawal card of an open account; returns the provider's card id (null when it has none). */
  bindCard(req: { merchantNo: string; cardNo: string; bankCode: string }): Promise<{ bindId: string | null }>;
  /** Cancels a registered withdrawal card (replaced or unbound). */
  unbindCard(req: { merchantNo: string; cardNo: string; bankCode: string; bindId: string | null }): Promise<void>;
  /** Idempotent per withdrawNo: asking twice never pays twice. Throws when the provider cannot be reached (the withdrawal stays requested and reconciliation retries). */
  submitWithdrawal(req: WithdrawalRequest): Promise<SubmitOutcome>;
  /** The withdrawal a notify reports, or null when its signature does not verify. */
  verifyNotify(params: Record<string, string>): PayoutNotice | null;
  /** What to answer an accepted notify with. */
  readonly notifyAck: string;
  /** The provider's record of a withdrawal; null when it has none. */
  queryWithdrawal(withdrawNo: string): Promise<PayoutNotice | null>;
}
