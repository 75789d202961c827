import type { AppContext } from '../../context.ts';
import { applyProviderPayment } from './apply-payment.ts';

/**
 * Payment reconciliation (a periodic job): for orders waiting on a provider, and those closed
 * recently after being sent to one, ask the provider whether a trade exists — a notify lost in
 * a crash or on the network is applied here through the same idempotent path.
 */
export async function reconcilePayments(ctx: AppContext, limit = 100): Promise<number> {
  const providers = ctx.market?.providers;
  if (!providers?.sandbox && !providers?.alipay && !providers?.wechat) return 0;
  const now = ctx.now();
  const rows = await ctx.db.kysely
    .selectFrom('orders')
    .select(['order_no', 'pay_method'])
    .where('pay_method', 'in', ['sandbox', 'alipay', 'wechat'])
    .where((eb) => eb.or([eb('status', '=', 'paying'), eb.and([eb('status', 'in', ['expired', 'cancelled']), eb('closed_at', '>', now - 30 * 60_000)])]))
    .where('paid_at', 'is', null)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  let applied = 0;
  for (const r of rows) {
    const p = r.pay_method === 'sandbox' ? providers.sandbox : r.pay_method === 'wechat' ? providers.wechat : providers.alipay;
    if (!p) continue;
    const known = await ctx.db.kysely.selectFrom('payments').select('id').where('order_no', '=', r.order_no).where('provider', '=', p.name).executeTakeFirst();
    if (known) continue;
    const trade = await p.queryTrade(r.order_no).catch(() => null);
    if (trade && trade.orderNo === r.order_no && (await applyProviderPayment(ctx, p.name, trade)) !== 'duplicate') applied++;
  }
  return applied;
}
