import type { AppContext } from '../../context.ts';
import { applyRefundOutcome, submitStrayRefund } from './stray-refunds.ts';
import { payoutRuntime } from './runtime.ts';
import { cardRefunder } from './card-pay-provider.ts';
import { applyPayoutNotice, submitWithdrawal } from './withdraw.ts';

/**
 * Reconciliation of money out (every 15 s on the job worker): a withdrawal or refund still requested
 * or processing a minute after its last change (a lost notify, a crash between our commit and the
 * provider call, a provider that was unreachable) is asked about at the provider and settled through
 * the same idempotent path as a notify; one the provider never received is submitted again (providers
 * are idempotent per request number, so this never pays twice).
 */
export async function reconcilePayouts(ctx: AppContext, limit = 100): Promise<number> {
  const provider = payoutRuntime(ctx)?.provider;
  const stale = ctx.now() - ctx.config.payout.reconcileAfterMs;
  let n = 0;
  if (provider) {
    const rows = await ctx.db.kysely
      .selectFrom('payout_withdrawals')
      .select(['withdraw_no', 'status'])
      .where('status', 'in', ['requested', 'processing'])
      .where('provider', '=', provider.name)
      .where('updated_at', '<=', stale)
      .orderBy('updated_at')
      .limit(limit)
      .execute();
    for (const w of rows) {
      const known = await provider.queryWithdrawal(w.withdraw_no).catch(() => undefined);
      if (known === undefined) continue;
      if (known === null) {
        if (w.status === 'requested') await submitWithdrawal(ctx, w.withdraw_no);
        continue;
      }
      if ((await applyPayoutNotice(ctx, provider.name, known)) === 'applied') n++;
    }
  }
  const refunds = await ctx.db.kysely
    .selectFrom('stray_refunds')
    .select(['refund_no', 'status', 'provider', 'provider_trade_no', 'order_no'])
    .where('status', 'in', ['requested', 'processing'])
    .where('updated_at', '<=', stale)
    .orderBy('updated_at')
    .limit(limit)
    .execute();
  for (const r of refunds) {
    const p = r.provider === 'card' ? cardRefunder(ctx) : r.provider === 'sandbox' ? ctx.market?.providers.sandbox : r.provider === 'wechat' ? ctx.market?.providers.wechat : ctx.market?.providers.alipay;
    if (!p?.queryRefund) continue;
    const known = await p.queryRefund({ tradeNo: r.provider_trade_no, orderNo: r.order_no, refundNo: r.refund_no }).catch(() => undefined);
    if (known === undefined) continue;
    if (known === null) {
      // Not received (or, at Alipay, not done yet): ask again with the same refund number.
      if (r.status === 'requested') await submitStrayRefund(ctx, r.refund_no);
      else await ctx.db.kysely.updateTable('stray_refunds').set({ status: 'requested', updated_at: ctx.now() }).where('refund_no', '=', r.refund_no).where('status', '=', 'processing').execute();
      continue;
    }
    if ((await applyRefundOutcome(ctx, r.refund_no, known)) === 'applied') n++;
  }
  return n;
}
