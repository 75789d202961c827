import type { AppContext } from '../../context.ts';
import { enqueueJob } from '../../jobs/runner.ts';
import type { ProviderTrade } from '../../providers/payment/types.ts';
import type { PayMethod } from '../../db/schema.ts';
import { inTx } from '../../db/tx.ts';
import { Account, postTxn } from '../ledger/index.ts';
import { moveOrder, noteOrder } from '../orders/index.ts';
import { afterPaymentJob } from '../drops/index.ts';
import { strayRefundJob } from '../payout/index.ts';

export type ApplyOutcome = 'applied' | 'credited' | 'duplicate' | 'suspense' | 'ignored';

/**
 * Applies a verified provider payment, exactly once per (provider, trade number):
 * the payments row is inserted first with that unique key — a replayed notify (or the
 * reconciliation finding the same trade) inserts nothing and changes nothing.
 *
 * - The order is awaiting payment (created / paying) and the amount matches: the order becomes
 *   paid, the money goes external:<provider> → escrow, and the settlement job is inserted, all in
 *   one transaction.
 * - Otherwise (order expired / cancelled / already paid by another trade, or a wrong amount):
 *   the money is credited to the buyer's platform balance — never lost, never paid twice; the buyer
 *   can have it refunded to its method, and a duplicate of a paid order is refunded automatically
 *   (REFUND_STRAY_AUTOMATICALLY, modules/payout/stray-refunds.ts).
 * - An unknown order number: the money is booked to platform:suspense for manual handling.
 */
export async function applyProviderPayment(ctx: AppContext, provider: Exclude<PayMethod, 'balance'>, t: ProviderTrade): Promise<ApplyOutcome> {
  if (!t.paid) return 'ignored';
  const now = ctx.now();
  const result = await inTx(ctx, async (trx) => {
    const inserted = await trx
      .insertInto('payments')
      .values({ provider, provider_trade_no: t.tradeNo, order_no: t.orderNo, user_id: null, amount_fen: t.amountFen, outcome: 'pending', raw: JSON.stringify(t.raw).slice(0, 4000), created_at: now })
      .onConflict((oc) => oc.columns(['provider', 'provider_trade_no']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return 'duplicate' as const;
    const o = await trx.selectFrom('orders').select(['order_no', 'kind', 'status', 'price_fen', 'buyer_user_id']).where('order_no', '=', t.orderNo).executeTakeFirst();
    let outcome: ApplyOutcome;
    if (!o) {
      await postTxn(trx, { id: `suspense:${provider}:${t.tradeNo}`, kind: 'suspense', orderNo: t.orderNo, entries: [{ account: Account.external(provider), amountFen: -t.amountFen }, { account: Account.suspense, amountFen: t.amountFen }], now });
      outcome = 'suspense';
    } else {
      const awaiting = o.status === 'created' || o.status === 'paying';
      const moved = awaiting && t.amountFen === Number(o.price_fen)
        ? await moveOrder(trx, t.orderNo, o.status, 'paid', now, { paid_at: now, pay_method: provider, provider_trade_no: t.tradeNo }, `paid via ${provider} ${t.tradeNo}`)
        : null;
      if (moved) {
        await postTxn(trx, { id: `pay:${provider}:${t.tradeNo}`, kind: 'pay', orderNo: t.orderNo, entries: [{ account: Account.external(provider), amountFen: -t.amountFen }, { account: Account.escrow, amountFen: t.amountFen }], now });
        // settle (market / bid) or fulfil (drop) — drops/after-payment.ts
        await enqueueJob(trx, afterPaymentJob(o.kind, t.orderNo));
        outcome = 'applied';
      } else {
        await postTxn(trx, { id: `credit:${provider}:${t.tradeNo}`, kind: 'credit', orderNo: t.orderNo, entries: [{ account: Account.external(provider), amountFen: -t.amountFen }, { account: Account.user(Number(o.buyer_user_id)), amountFen: t.amountFen }], now });
        const current = (await trx.selectFrom('orders').select('status').where('order_no', '=', t.orderNo).executeTakeFirstOrThrow()).status;
        await noteOrder(trx, t.orderNo, current, `payment ${provider} ${t.tradeNo} (${t.amountFen} fen) credited to the buyer's balance`, now);
        // A second trade for an order already paid is refunded to its method (REFUND_STRAY_AUTOMATICALLY, modules/payout/stray-refunds.ts).
        if (ctx.config.payout.refundStrayAutomatically && ['paid', 'settling', 'completed', 'refunded'].includes(o.status)) await enqueueJob(trx, strayRefundJob(Number(inserted.id)));
        outcome = 'credited';
      }
    }
    await trx.updateTable('payments').set({ outcome, user_id: o ? Number(o.buyer_user_id) : null }).where('id', '=', Number(inserted.id)).execute();
    return outcome;
  });
  if (result === 'applied' || result === 'credited') ctx.jobs.wake();
  return result;
}
