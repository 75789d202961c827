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

/**
 * Bank-card quick payment (快捷支付, docs/payouts.md "Paying with a bank card"): the provider charges a card
 * the user bound for withdrawals. `start` registers the charge and has the bank send an SMS code to the
 * card's reserved phone; `confirm` with that code takes the money; the outcome comes by a signed notify
 * and by `query` (reconciliation). `payNo` (our attempt number) is the provider's idempotency key.
 */
export interface QuickPayCard {
  cardNo: string;
  bankCode: string;
  last4: string;
  /** The phone reserved at the bank for this card. */
  mobile: string;
  /** The verified holder (the user's sealed real name). */
  name: string;
  idNumber: string;
  /** Our user id: the provider's user number of the card's agreement. */
  userNo: string;
  /** The provider's quick-pay agreement of the card, once one exists (YeePay bindId). */
  quickBindId: string | null;
}

export interface QuickPayRequest {
  payNo: string;
  orderNo: string;
  amountFen: number;
  subject: string;
  /** The order's payment deadline (epoch ms): the provider must not take money after it. */
  expiresAt: number;
  card: QuickPayCard;
  userIp: string;
  notifyUrl: string;
  now: number;
}

/** accepted: the SMS code was sent; `ref` is what the provider needs to continue (stored with the attempt). */
export type QuickPayStarted = { accepted: true; tradeNo: string | null; ref: string } | { accepted: false; reason: string };

/**
 * The bank's answer to a code: succeeded / processing (the money comes by notify or query), bad_code (the
 * charge is still open), failed (the charge is closed: refused, too many wrong codes, expired).
 */
export type QuickPayConfirmed =
  | { status: 'succeeded' | 'processing'; tradeNo: string | null; quickBindId: string | null }
  | { status: 'bad_code' }
  | { status: 'failed'; reason: string };

/** A charge as a notify or a query reports it. */
export interface QuickPayTrade {
  payNo: string;
  tradeNo: string;
  amountFen: number;
  paid: boolean;
  raw: Record<string, string>;
}

export interface QuickPayRefundRequest {
  payNo: string;
  tradeNo: string;
  refundNo: string;
  amountFen: number;
  notifyUrl: string;
  now: number;
}
export interface QuickPayRefundOutcome {
  status: 'processing' | 'succeeded' | 'failed';
  refundTradeNo: string | null;
  reason: string | null;
}

export interface QuickPayProvider {
  /** Throws when the provider cannot be reached (nothing was charged). */
  startQuickPay(req: QuickPayRequest): Promise<QuickPayStarted>;
  /** A new code for an open charge (the bank's own limits apply; false when it refused). */
  resendQuickPaySms(req: { payNo: string; ref: string; card: QuickPayCard; now: number }): Promise<boolean>;
  confirmQuickPay(req: { payNo: string; ref: string; smsCode: string; card: QuickPayCard; userIp: string; now: number }): Promise<QuickPayConfirmed>;
  /** The charge a notify reports, or null when its signature does not verify. */
  verifyQuickPayNotify(params: Record<string, string>): QuickPayTrade | null;
  /** The provider's record of the charge; null when it has none or it is not paid. */
  queryQuickPay(payNo: string): Promise<QuickPayTrade | null>;
  /** Refunds (part of) a paid charge to the card; idempotent per refundNo. Throws when unreachable. */
  refundQuickPay(req: QuickPayRefundRequest): Promise<QuickPayRefundOutcome>;
  queryQuickPayRefund(req: { payNo: string; tradeNo: string; refundNo: string }): Promise<QuickPayRefundOutcome | null>;
  /** A refund notify's refund number and outcome, or null when its signature does not verify. */
  verifyQuickPayRefundNotify(params: Record<string, string>): (QuickPayRefundOutcome & { refundNo: string }) | null;
}

export interface PayoutProvider extends QuickPayProvider {
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
