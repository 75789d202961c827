import { CARD_PAY_RESEND_SECONDS } from '@cfx/contract/card-pay.ts';
import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import type { CardPaymentsTable } from '../../db/schema.ts';
import { ApiError } from '../../http/envelope.ts';
import { bankLogoUrl } from '../payout/index.ts';

/** Wrong codes allowed per card payment (the bank keeps its own count too). */
export const CARD_PAY_MAX_WRONG = 5;
/** Codes per card payment (the first one included). */
export const CARD_PAY_MAX_SENDS = 5;
export const CARD_PAY_RESEND_MS = CARD_PAY_RESEND_SECONDS * 1000;

/** The attempt as the buyer sees it: the card masked, never its number or phone. */
export async function cardPaymentView(ctx: AppContext, row: CardPaymentsTable) {
  const card = await ctx.db.kysely.selectFrom('payout_cards').select(['id', 'bank_code', 'bank_name', 'card_masked', 'mobile_masked']).where('id', '=', Number(row.card_id)).executeTakeFirstOrThrow();
  const order = await ctx.db.kysely.selectFrom('orders').select('status').where('order_no', '=', row.order_no).executeTakeFirstOrThrow();
  return {
    payNo: row.pay_no,
    orderNo: row.order_no,
    status: row.status,
    amountFen: Number(row.amount_fen),
    cardId: Number(card.id),
    bankCode: card.bank_code,
    bankName: card.bank_name,
    logo: bankLogoUrl(card.bank_code),
    cardMasked: card.card_masked,
    mobileMasked: card.mobile_masked,
    resendAt: Number(row.last_sms_at) + CARD_PAY_RESEND_MS,
    triesLeft: Math.max(0, CARD_PAY_MAX_WRONG - Number(row.wrong_tries)),
    expiresAt: Number(row.expires_at),
    orderStatus: order.status,
    failReason: row.fail_reason,
  };
}

/** My card payment by its number; another user's, or an unknown one, is 1016 cardPayNotFound (nothing is revealed). */
export async function myCardPayment(ctx: AppContext, userId: number, payNo: string) {
  const row = await ctx.db.kysely.selectFrom('card_payments').selectAll().where('pay_no', '=', payNo).executeTakeFirst();
  if (!row || Number(row.user_id) !== userId) throw new ApiError(Status.PAYMENT_REFUSED, 'cardPayNotFound');
  return row;
}

/** Closes an open attempt (conditional: a confirmed one stays as it is). */
export async function failCardPayment(ctx: AppContext, payNo: string, reason: string) {
  await ctx.db.kysely
    .updateTable('card_payments')
    .set({ status: 'failed', fail_reason: reason.slice(0, 300), updated_at: ctx.now() })
    .where('pay_no', '=', payNo)
    .where('status', '=', 'sms_sent')
    .execute();
}
