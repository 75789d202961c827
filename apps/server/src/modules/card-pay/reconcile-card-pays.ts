import type { AppContext } from '../../context.ts';
import { payoutRuntime } from '../payout/index.ts';
import { applyCardTrade } from './apply-card-trade.ts';

/**
 * Reconciliation of card payments (every 15 s on the job worker): an attempt still open or confirming a
 * minute after its last change (a lost notify, a crash after the bank took the money, an unreachable
 * provider) is asked about at the provider and a paid charge is applied through the same idempotent path
 * as its notify; an open attempt past its order's deadline that the provider never charged is closed.
 */
/** How long after its order's deadline a confirmed charge the bank has not paid is still asked about. */
const CONFIRMING_GRACE_MS = 30 * 60_000;

export async function reconcileCardPays(ctx: AppContext, limit = 100): Promise<number> {
  const provider = payoutRuntime(ctx)?.provider;
  if (!provider) return 0;
  const now = ctx.now();
  const rows = await ctx.db.kysely
    .selectFrom('card_payments')
    .select(['pay_no', 'status', 'expires_at'])
    .where('provider', '=', provider.name)
    .where('status', 'in', ['sms_sent', 'confirming'])
    .where('updated_at', '<=', now - ctx.config.payout.reconcileAfterMs)
    .orderBy('updated_at')
    .limit(limit)
    .execute();
  let applied = 0;
  for (const r of rows) {
    const trade = await provider.queryQuickPay(r.pay_no).catch(() => undefined);
    if (trade === undefined) continue;
    if (trade && trade.payNo === r.pay_no) {
      const outcome = await applyCardTrade(ctx, provider.name, trade);
      if (outcome === 'applied' || outcome === 'credited') applied++;
      continue;
    }
    // Not charged: an open attempt whose order can no longer be paid is closed; a confirming one is asked
    // again until half an hour after the deadline (a notify arriving later still applies through the same path).
    const closeAt = Number(r.expires_at) + (r.status === 'confirming' ? CONFIRMING_GRACE_MS : 0);
    if (closeAt <= now) {
      await ctx.db.kysely.updateTable('card_payments').set({ status: 'failed', fail_reason: r.status === 'confirming' ? 'not paid by the bank' : 'expired', updated_at: now }).where('pay_no', '=', r.pay_no).where('status', '=', r.status).execute();
    } else {
      await ctx.db.kysely.updateTable('card_payments').set({ updated_at: now }).where('pay_no', '=', r.pay_no).where('status', '=', r.status).execute();
    }
  }
  return applied;
}
