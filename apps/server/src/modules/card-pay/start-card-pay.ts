import crypto from 'node:crypto';
import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { inTx } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { dropSubject } from '../drops/index.ts';
import { invalidateListing } from '../market/index.ts';
import { requireSettlement } from '../market/index.ts';
import { FILLED_REVERTS } from '../market/index.ts';
import { closeUnpaidOrder } from '../orders/index.ts';
import { settleRequestOf } from '../orders/index.ts';
import { moveOrder } from '../orders/index.ts';
import { buyerOrder } from '../orders/index.ts';
import { findRealname } from '../payout/index.ts';
import { unavailable } from '../payout/index.ts';
import type { QuickPayCard } from '../../providers/payout/types.ts';
import { cardNotifyUrl, requireQuickPay } from '../payout/index.ts';
import { cardPaymentView, failCardPayment } from './card-payment-view.ts';

/** The card as the provider needs it: number, reserved phone and holder opened from their sealed form, in memory only. */
export async function quickPayCard(ctx: AppContext, userId: number, card: { card_sealed: string; mobile_sealed: string; bank_code: string; last4: string; quickpay_bind_id: string | null }): Promise<QuickPayCard> {
  const holder = await findRealname(ctx, userId);
  if (!holder) throw new ApiError(Status.PAYMENT_REFUSED, 'cardPayNoRealname');
  return {
    cardNo: ctx.secrets.open(card.card_sealed),
    mobile: ctx.secrets.open(card.mobile_sealed),
    bankCode: card.bank_code,
    last4: card.last4,
    name: holder.name,
    idNumber: holder.idNumber,
    userNo: String(userId),
    quickBindId: card.quickpay_bind_id,
  };
}

/**
 * startCardPay {orderNo, cardId}: the buyer's own unpaid order and one of the buyer's own active cards
 * (another user's card is refused like an unknown one). The listing is dry-run first (as `pay` does),
 * the order moves to `paying` (pay_method card), an attempt is recorded, and the provider registers
 * the charge and sends its SMS code to the reserved phone. A new attempt closes the order's earlier open ones.
 */
export async function startCardPay(ctx: AppContext, userId: number, input: { orderNo: string; cardId: number }, ip: string) {
  const provider = requireQuickPay(ctx);
  const o = await buyerOrder(ctx, userId, input.orderNo);
  if (o.status === 'expired') throw new ApiError(Status.ORDER_STATE, 'orderExpired');
  if (o.status !== 'created' && o.status !== 'paying') throw new ApiError(Status.ORDER_STATE, 'orderNotPayable');
  const card = await ctx.db.kysely.selectFrom('payout_cards').selectAll().where('id', '=', input.cardId).where('user_id', '=', userId).where('status', '=', 'active').executeTakeFirst();
  if (!card) throw new ApiError(Status.PAYMENT_REFUSED, 'cardPayCardNotFound');
  const qcard = await quickPayCard(ctx, userId, card);
  if (o.kind !== 'drop') {
    const verdict = await requireSettlement(ctx).check(await settleRequestOf(ctx, o));
    if (!verdict.ok && (verdict.permanent || FILLED_REVERTS.has(verdict.reason))) {
      await invalidateListing(ctx, Number(o.listing_id), verdict.reason);
      await closeUnpaidOrder(ctx, o.order_no, 'cancelled', { reason: `listing no longer valid: ${verdict.reason}` });
      throw new ApiError(Status.GOODS_STATE, 'listingGone');
    }
  }
  const now = ctx.now();
  const price = Number(o.price_fen);
  const payNo = `CP${now}${crypto.randomBytes(6).toString('hex')}`;
  await inTx(ctx, async (trx) => {
    if (o.status === 'created') {
      const moved = await moveOrder(trx, o.order_no, 'created', 'paying', now, { pay_method: 'card' }, 'paying via card');
      if (!moved) throw new ApiError(Status.ORDER_STATE, 'orderNotPayable');
    } else {
      const res = await trx.updateTable('orders').set({ pay_method: 'card' }).where('order_no', '=', o.order_no).where('status', '=', 'paying').executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw new ApiError(Status.ORDER_STATE, 'orderNotPayable');
    }
    await trx.updateTable('card_payments').set({ status: 'failed', fail_reason: 'replaced by a new attempt', updated_at: now }).where('order_no', '=', o.order_no).where('status', '=', 'sms_sent').execute();
    await trx
      .insertInto('card_payments')
      .values({
        pay_no: payNo, user_id: userId, order_no: o.order_no, card_id: Number(card.id), provider: provider.name, amount_fen: price, status: 'sms_sent',
        provider_trade_no: null, provider_ref: null, wrong_tries: 0, sms_sends: 1, last_sms_at: now, fail_reason: null, expires_at: Number(o.expires_at), created_at: now, updated_at: now,
      })
      .execute();
  });
  const goods = o.goods_id === null ? undefined : await ctx.db.kysely.selectFrom('goods').select(['name', 'serial']).where('id', '=', Number(o.goods_id)).executeTakeFirst();
  let started;
  try {
    started = await provider.startQuickPay({
      payNo,
      orderNo: o.order_no,
      amountFen: price,
      subject: o.kind === 'drop' ? await dropSubject(ctx, o) : goods ? `${goods.name} #${goods.serial}` : o.order_no,
      expiresAt: Number(o.expires_at),
      card: qcard,
      userIp: ip,
      notifyUrl: cardNotifyUrl(ctx, provider),
      now,
    });
  } catch {
    await failCardPayment(ctx, payNo, 'provider unreachable');
    throw unavailable();
  }
  if (!started.accepted) {
    await failCardPayment(ctx, payNo, started.reason);
    throw new ApiError(Status.PAYMENT_REFUSED, 'cardPayRefused', { reason: started.reason });
  }
  await ctx.db.kysely.updateTable('card_payments').set({ provider_trade_no: started.tradeNo, provider_ref: started.ref }).where('pay_no', '=', payNo).execute();
  const row = await ctx.db.kysely.selectFrom('card_payments').selectAll().where('pay_no', '=', payNo).executeTakeFirstOrThrow();
  return cardPaymentView(ctx, row);
}
