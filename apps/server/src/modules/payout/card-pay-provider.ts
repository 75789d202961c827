import { Status } from '@cfx/contract/envelope.ts';
import { CardPayNotifyPaths } from '@cfx/contract/card-pay.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import type { PaymentProvider } from '../../providers/payment/types.ts';
import type { PayoutProvider } from '../../providers/payout/types.ts';
import { notifyUrl, payoutRuntime } from './runtime.ts';

/**
 * Bank-card quick payment (docs/payouts.md "Paying with a bank card") is offered when a payout provider
 * runs (PAYOUT_PROVIDER sandbox or yeepay): the cards are the ones users bound for withdrawals, and the
 * provider that pays withdrawals to them also charges them. Payments are recorded as provider `card`
 * (payments, orders.pay_method, the ledger's `external:card`). This provider side lives in payout, below
 * payments and card-pay: payments offers the method, card-pay runs the payment, payout refunds it.
 */
export function cardPayAvailable(ctx: AppContext): boolean {
  const p = payoutRuntime(ctx)?.provider;
  // The sandbox bank takes no real money: like the sandbox cashier, it is never offered next to a real
  // payment provider (the sandbox payment provider is off then), only in a sandbox world.
  return Boolean(p && (p.name !== 'sandbox' || ctx.market?.providers.sandbox));
}

/** The payout provider for a card payment, or 1016 payMethodUnavailable. */
export function requireQuickPay(ctx: AppContext): PayoutProvider {
  const p = payoutRuntime(ctx)?.provider;
  if (!p || !cardPayAvailable(ctx)) throw new ApiError(Status.PAYMENT_REFUSED, 'payMethodUnavailable');
  return p;
}

/** Where the provider posts a card payment's notify / a card refund's notify. */
export const cardNotifyUrl = (ctx: AppContext, provider: PayoutProvider) => notifyUrl(ctx, CardPayNotifyPaths[provider.name]);
export const cardRefundNotifyUrl = (ctx: AppContext, provider: PayoutProvider) =>
  notifyUrl(ctx, provider.name === 'sandbox' ? CardPayNotifyPaths.refundSandbox : CardPayNotifyPaths.refundYeepay);

/**
 * Refunds of card payments to the card, in the shape the stray-payment refunds use for every provider
 * (modules/payout/stray-refunds.ts): the provider is told our attempt number (its order id) with the trade.
 */
export function cardRefunder(ctx: AppContext): Pick<PaymentProvider, 'refund' | 'queryRefund'> | undefined {
  const provider = payoutRuntime(ctx)?.provider;
  if (!provider) return undefined;
  const payNoOf = async (tradeNo: string) => {
    const row = await ctx.db.kysely.selectFrom('card_payments').select('pay_no').where('provider', '=', provider.name).where('provider_trade_no', '=', tradeNo).executeTakeFirst();
    if (!row) throw new Error('card payment of the trade not found');
    return row.pay_no;
  };
  return {
    async refund(req) {
      return provider.refundQuickPay({ payNo: await payNoOf(req.tradeNo), tradeNo: req.tradeNo, refundNo: req.refundNo, amountFen: req.amountFen, notifyUrl: cardRefundNotifyUrl(ctx, provider), now: req.now });
    },
    async queryRefund(req) {
      return provider.queryQuickPayRefund({ payNo: await payNoOf(req.tradeNo), tradeNo: req.tradeNo, refundNo: req.refundNo });
    },
  };
}
