import type { AppContext } from '../../context.ts';
import type { PayoutProviderName } from '../../db/schema.ts';
import type { QuickPayTrade } from '../../providers/payout/types.ts';
import { applyProviderPayment, type ApplyOutcome } from '../payments/index.ts';

/**
 * Applies a verified card payment (a notify or a query answer) through the one payment path
 * (payments/apply-payment.ts) as provider `card`: exactly once per trade number, the order paid with
 * `external:card → escrow`, or — late, duplicate, wrong amount — the money credited to the buyer's
 * balance (refundable to the card). The attempt is found by our number (the provider's order id);
 * a trade number other than the one the provider gave for that attempt is refused ('mismatch', HTTP 400).
 * An attempt we do not know books the money to platform:suspense, as an unknown order does.
 */
export async function applyCardTrade(ctx: AppContext, provider: PayoutProviderName, t: QuickPayTrade): Promise<ApplyOutcome | 'mismatch'> {
  const attempt = await ctx.db.kysely.selectFrom('card_payments').selectAll().where('pay_no', '=', t.payNo).executeTakeFirst();
  if (attempt && (attempt.provider !== provider || (attempt.provider_trade_no !== null && attempt.provider_trade_no !== t.tradeNo))) return 'mismatch';
  const outcome = await applyProviderPayment(ctx, 'card', { orderNo: attempt?.order_no ?? t.payNo, tradeNo: t.tradeNo, amountFen: t.amountFen, paid: t.paid, raw: { ...t.raw, pay_no: t.payNo } });
  if (attempt && t.paid) {
    await ctx.db.kysely
      .updateTable('card_payments')
      .set({ status: 'succeeded', provider_trade_no: t.tradeNo, fail_reason: null, updated_at: ctx.now() })
      .where('pay_no', '=', t.payNo)
      .where('status', '!=', 'succeeded')
      .execute();
  }
  return outcome;
}
