/**
 * A payment provider: starts a payment for an order (a URL the buyer is sent to), verifies the
 * provider's asynchronous notifications, and answers a trade query (reconciliation when a
 * notify was lost). Notifies are applied idempotently, keyed by the provider's trade number.
 */
export interface PaymentRequest {
  orderNo: string;
  amountFen: number;
  subject: string;
  /** The order's payment deadline (epoch ms): the provider must not take money after it. */
  expiresAt: number;
  /** Where the provider sends the buyer back afterwards. */
  returnUrl: string;
  /** Where the provider posts its notify. */
  notifyUrl: string;
}

export interface ProviderTrade {
  orderNo: string;
  /** The provider's own trade number (idempotency key of the payment). */
  tradeNo: string;
  amountFen: number;
  /** True when the money was taken (Alipay TRADE_SUCCESS / TRADE_FINISHED). */
  paid: boolean;
  raw: Record<string, string>;
}

/** A refund of a trade to its original payment method (stray payments, modules/payout/stray-refunds.ts). */
export interface RefundRequest {
  /** The provider's trade number of the payment refunded. */
  tradeNo: string;
  orderNo: string;
  /** Our refund number: the provider's idempotency key (Alipay out_request_no). */
  refundNo: string;
  amountFen: number;
  /** Where an asynchronous provider posts the outcome (the sandbox; Alipay answers at once). */
  notifyUrl: string;
  /** Business time of the request. */
  now: number;
}
/** processing: accepted, the outcome comes by notify or query; failed: refused (the money stays with us). */
export interface RefundOutcome {
  status: 'processing' | 'succeeded' | 'failed';
  refundTradeNo: string | null;
  reason: string | null;
}

export interface PaymentProvider {
  readonly name: 'sandbox' | 'alipay' | 'wechat';
  /** Refunds (part of) a trade to its original method; idempotent per refundNo. Throws when the provider cannot be reached. */
  refund?(req: RefundRequest): Promise<RefundOutcome>;
  /** The provider's record of a refund; null when it has none (the refund may be asked again with the same refundNo). */
  queryRefund?(req: { tradeNo: string; orderNo: string; refundNo: string }): Promise<RefundOutcome | null>;
  /** A refund notify's refund number and outcome, or null when its signature does not verify (asynchronous providers only). */
  verifyRefundNotify?(params: Record<string, string>): (RefundOutcome & { refundNo: string }) | null;
  createPayment(req: PaymentRequest): Promise<{ payUrl: string }>;
  /** The trade a notify reports, or null when its signature (or app id) does not verify. */
  verifyNotify(params: Record<string, string>): ProviderTrade | null;
  /** The provider's record of the order's trade, null when there is none (or it is unpaid). */
  queryTrade(orderNo: string): Promise<ProviderTrade | null>;
}

/** Integer fen ↔ the providers' yuan strings ("12.34"). */
export function fenToYuan(fen: number): string {
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}
export function yuanToFenStrict(s: string | undefined): number | null {
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(String(s ?? '').trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** Canonical string of notify parameters: sorted keys except `sign` and `sign_type`, `k=v` joined by `&` (Alipay's rule). */
export function signContent(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((k) => k !== 'sign' && k !== 'sign_type' && params[k] !== undefined && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}
