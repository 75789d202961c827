import { z } from 'zod';
import { envelope } from './envelope.ts';
import { orderNoParam, orderStatus } from './market.ts';
import { idParam, safeText } from './paging.ts';
import { boundCard } from './payouts.ts';

/**
 * Bank-card quick payment (快捷支付, docs/payouts.md "Paying with a bank card"): an unpaid order is paid
 * with a card the user bound for withdrawals. startCardPay has the bank send an SMS code to the card's
 * reserved phone; confirmCardPay gives the code; the money arrives by the provider's signed notify (or
 * reconciliation) like every provider payment, so the answer of confirmCardPay is `confirming` and the
 * client follows the order. Not in the spec; money is integer fen, times epoch ms.
 */
export const CardPayPaths = {
  /** My bound cards that can pay (masked). */
  listPayCards: '/payment/card/V1/listPayCards',
  /** {orderNo, cardId} — the bank sends a code to the card's reserved phone. */
  startCardPay: '/payment/card/V1/startCardPay',
  /** {payNo} — a new code (60 s apart). */
  resendCardPaySms: '/payment/card/V1/resendCardPaySms',
  /** {payNo, smsCode} — the bank takes the money; the order becomes paid when its notify arrives. */
  confirmCardPay: '/payment/card/V1/confirmCardPay',
} as const;

/** The providers' notifies of card payments and card refunds, outside the gateway (form-encoded POSTs). */
export const CardPayNotifyPaths = {
  sandbox: '/mvapi/notify/card/sandbox',
  yeepay: '/mvapi/notify/card/yeepay',
  refundSandbox: '/mvapi/notify/card/refund/sandbox',
  refundYeepay: '/mvapi/notify/card/refund/yeepay',
} as const;

export const CARD_PAY_STATUSES = ['sms_sent', 'confirming', 'succeeded', 'failed'] as const;
/** Seconds between two codes of one card payment. */
export const CARD_PAY_RESEND_SECONDS = 60;

export const startCardPayBody = z.object({ orderNo: orderNoParam, cardId: idParam });
export const resendCardPayBody = z.object({ payNo: safeText(40) });
export const confirmCardPayBody = z.object({ payNo: safeText(40), smsCode: safeText(16).transform((v) => v.trim()) });

export const payCard = boundCard;
export const cardPayment = z.object({
  payNo: z.string(),
  orderNo: z.string(),
  status: z.enum(CARD_PAY_STATUSES),
  amountFen: z.number().int(),
  cardId: z.number().int(),
  bankCode: z.string(),
  bankName: z.string(),
  logo: z.string(),
  cardMasked: z.string(),
  mobileMasked: z.string(),
  /** When a new code may be asked (epoch ms). */
  resendAt: z.number().int(),
  /** Wrong codes still allowed. */
  triesLeft: z.number().int(),
  /** The order's payment deadline. */
  expiresAt: z.number().int(),
  orderStatus,
  failReason: z.string().nullable(),
});

export const payCardsResponse = envelope(z.array(payCard).nullable());
export const cardPaymentResponse = envelope(cardPayment.nullable());
