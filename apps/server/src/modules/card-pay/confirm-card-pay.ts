import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { buyerOrder } from '../orders/index.ts';
import { unavailable } from '../payout/index.ts';
import { requireQuickPay } from '../payout/index.ts';
import { CARD_PAY_MAX_WRONG, cardPaymentView, failCardPayment, myCardPayment } from './card-payment-view.ts';
import { quickPayCard } from './start-card-pay.ts';

/**
 * confirmCardPay {payNo, smsCode}: the code goes to the bank, which takes the money. A try is reserved
 * before the bank is asked (wrong_tries + 1 below the limit, one conditional UPDATE: concurrent guesses
 * never get more than 5) and given back when the code was right. The money is NOT applied here: the
 * provider's signed notify (or reconciliation) applies it through the one payment path
 * (apply-card-trade.ts), so the answer is `confirming` and the client follows the order.
 */
export async function confirmCardPay(ctx: AppContext, userId: number, input: { payNo: string; smsCode: string }, ip: string) {
  const provider = requireQuickPay(ctx);
  const row = await myCardPayment(ctx, userId, input.payNo);
  if (row.status === 'confirming' || row.status === 'succeeded') return cardPaymentView(ctx, row);
  if (row.status !== 'sms_sent') throw new ApiError(Status.PAYMENT_REFUSED, 'cardPayNotFound');
  // The order must still take money (an expired one is closed here, and its attempt with it).
  try {
    const o = await buyerOrder(ctx, userId, row.order_no);
    if (o.status !== 'created' && o.status !== 'paying') throw new ApiError(Status.ORDER_STATE, o.status === 'expired' ? 'orderExpired' : 'orderNotPayable');
  } catch (err) {
    await failCardPayment(ctx, row.pay_no, 'order no longer payable');
    throw err;
  }
  const reserved = await ctx.db.kysely
    .updateTable('card_payments')
    .set((e) => ({ wrong_tries: e('wrong_tries', '+', 1), updated_at: ctx.now() }))
    .where('pay_no', '=', row.pay_no)
    .where('status', '=', 'sms_sent')
    .where('wrong_tries', '<', CARD_PAY_MAX_WRONG)
    .returning('wrong_tries')
    .executeTakeFirst();
  if (!reserved) {
    await failCardPayment(ctx, row.pay_no, 'too many wrong codes');
    throw new ApiError(Status.BAD_SMS_CODE, 'cardPayTooManyTries');
  }
  const giveBack = () =>
    ctx.db.kysely.updateTable('card_payments').set((e) => ({ wrong_tries: e('wrong_tries', '-', 1) })).where('pay_no', '=', row.pay_no).where('wrong_tries', '>', 0).execute();
  const card = await ctx.db.kysely.selectFrom('payout_cards').selectAll().where('id', '=', Number(row.card_id)).executeTakeFirstOrThrow();
  let answer;
  try {
    answer = await provider.confirmQuickPay({ payNo: row.pay_no, ref: row.provider_ref ?? '', smsCode: input.smsCode, card: await quickPayCard(ctx, userId, card), userIp: ip, now: ctx.now() });
  } catch {
    // Unknown at the bank: the attempt stays open and reconciliation asks the provider about it.
    await giveBack();
    throw unavailable();
  }
  if (answer.status === 'bad_code') {
    const used = Number(reserved.wrong_tries);
    if (used >= CARD_PAY_MAX_WRONG) {
      await failCardPayment(ctx, row.pay_no, 'too many wrong codes');
      throw new ApiError(Status.BAD_SMS_CODE, 'cardPayTooManyTries');
    }
    throw new ApiError(Status.BAD_SMS_CODE, 'cardPayBadCode', { n: CARD_PAY_MAX_WRONG - used });
  }
  if (answer.status === 'failed') {
    await failCardPayment(ctx, row.pay_no, answer.reason);
    throw new ApiError(Status.PAYMENT_REFUSED, 'cardPayRefused', { reason: answer.reason });
  }
  await giveBack();
  const now = ctx.now();
  await ctx.db.kysely
    .updateTable('card_payments')
    .set({ status: 'confirming', ...(answer.tradeNo ? { provider_trade_no: answer.tradeNo } : {}), updated_at: now })
    .where('pay_no', '=', row.pay_no)
    .where('status', '=', 'sms_sent')
    .execute();
  if (answer.quickBindId && answer.quickBindId !== card.quickpay_bind_id) {
    await ctx.db.kysely.updateTable('payout_cards').set({ quickpay_bind_id: answer.quickBindId }).where('id', '=', Number(card.id)).execute();
  }
  return cardPaymentView(ctx, await myCardPayment(ctx, userId, row.pay_no));
}
