import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { unavailable } from '../payout/index.ts';
import { requireQuickPay } from '../payout/index.ts';
import { CARD_PAY_MAX_SENDS, CARD_PAY_RESEND_MS, cardPaymentView, myCardPayment } from './card-payment-view.ts';
import { quickPayCard } from './start-card-pay.ts';

/**
 * resendCardPaySms {payNo}: a new code for an open card payment, 60 s after the last one and at most
 * 5 codes per payment (the slot is taken by a conditional UPDATE, so two calls cannot both send).
 */
export async function resendCardPaySms(ctx: AppContext, userId: number, payNo: string) {
  const provider = requireQuickPay(ctx);
  const row = await myCardPayment(ctx, userId, payNo);
  const now = ctx.now();
  if (row.status !== 'sms_sent' || Number(row.expires_at) <= now) throw new ApiError(Status.PAYMENT_REFUSED, 'cardPayNotFound');
  const wait = Number(row.last_sms_at) + CARD_PAY_RESEND_MS - now;
  if (wait > 0) throw new ApiError(Status.RATE_LIMITED, 'cardPayResendTooSoon', { s: Math.ceil(wait / 1000) });
  if (Number(row.sms_sends) >= CARD_PAY_MAX_SENDS) throw new ApiError(Status.PAYMENT_REFUSED, 'cardPayResendRefused');
  const took = await ctx.db.kysely
    .updateTable('card_payments')
    .set((e) => ({ sms_sends: e('sms_sends', '+', 1), last_sms_at: now, updated_at: now }))
    .where('pay_no', '=', payNo)
    .where('status', '=', 'sms_sent')
    .where('last_sms_at', '=', Number(row.last_sms_at))
    .executeTakeFirst();
  if (Number(took.numUpdatedRows) !== 1) throw new ApiError(Status.RATE_LIMITED, 'cardPayResendTooSoon', { s: Math.ceil(CARD_PAY_RESEND_MS / 1000) });
  const card = await ctx.db.kysely.selectFrom('payout_cards').selectAll().where('id', '=', Number(row.card_id)).executeTakeFirstOrThrow();
  let sent: boolean;
  try {
    sent = await provider.resendQuickPaySms({ payNo, ref: row.provider_ref ?? '', card: await quickPayCard(ctx, userId, card), now });
  } catch {
    throw unavailable();
  }
  if (!sent) throw new ApiError(Status.PAYMENT_REFUSED, 'cardPayResendRefused');
  return cardPaymentView(ctx, await myCardPayment(ctx, userId, payNo));
}
