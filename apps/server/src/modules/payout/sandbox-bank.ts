import type { AppContext } from '../../context.ts';
import { SANDBOX_FAILING_SUFFIX } from '../../providers/payout/sandbox.ts';
import { payoutRuntime } from './runtime.ts';

/**
 * The sandbox bank at work (a periodic task, every second, on the job worker): withdrawals and refunds
 * it received PAYOUT_SANDBOX_DELAY_MS ago (business time, so tests move the clock instead of waiting)
 * are settled — a withdrawal to a card ending in 0000 fails, a refund of a known trade succeeds — and
 * the outcome is POSTed as a signed notify to the URL given with the request, retried until answered
 * `success` (payments/notify-delivery.ts). The status change is a conditional UPDATE: each is settled once.
 */
export async function runSandboxBank(ctx: AppContext, limit = 100): Promise<number> {
  const rt = payoutRuntime(ctx);
  const now = ctx.now();
  const due = now - ctx.config.payout.sandboxDelayMs;
  let n = 0;
  if (rt?.sandbox) {
    const rows = await ctx.db.kysely.selectFrom('sandbox_payouts').selectAll().where('status', '=', 'processing').where('received_at', '<=', due).orderBy('received_at').limit(limit).execute();
    for (const r of rows) {
      const success = r.card_last4 !== SANDBOX_FAILING_SUFFIX;
      const reason = success ? null : '收款卡状态异常，银行退回 (sandbox test card)';
      const res = await ctx.db.kysely.updateTable('sandbox_payouts').set({ status: success ? 'success' : 'fail', fail_reason: reason }).where('trade_no', '=', r.trade_no).where('status', '=', 'processing').executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) continue;
      n++;
      void rt.notifier.send(r.notify_url, rt.sandbox.notifyParams({ withdrawNo: r.withdraw_no, tradeNo: r.trade_no, amountFen: Number(r.amount_fen), success, reason }, now));
    }
  }
  // Refunds of quick payments (快捷支付) back to the card: settled after the same delay, signed `quickpay_refund` notify.
  if (rt?.sandbox) {
    const rows = await ctx.db.kysely.selectFrom('sandbox_quickpay_refunds').selectAll().where('status', '=', 'processing').where('received_at', '<=', due).orderBy('received_at').limit(limit).execute();
    for (const r of rows) {
      const res = await ctx.db.kysely.updateTable('sandbox_quickpay_refunds').set({ status: 'success' }).where('refund_trade_no', '=', r.refund_trade_no).where('status', '=', 'processing').executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) continue;
      n++;
      void rt.notifier.send(r.notify_url, rt.sandbox.quickPayRefundNotifyParams({ refundNo: r.out_request_no, refundTradeNo: r.refund_trade_no, success: true, reason: null }, now));
    }
  }
  const payments = ctx.market?.providers.sandbox;
  if (payments && rt) {
    const rows = await ctx.db.kysely.selectFrom('sandbox_refunds').selectAll().where('status', '=', 'processing').where('received_at', '<=', due).orderBy('received_at').limit(limit).execute();
    for (const r of rows) {
      const res = await ctx.db.kysely.updateTable('sandbox_refunds').set({ status: 'success' }).where('refund_trade_no', '=', r.refund_trade_no).where('status', '=', 'processing').executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) continue;
      n++;
      void rt.notifier.send(r.notify_url, payments.refundNotifyParams({ refundNo: r.out_request_no, refundTradeNo: r.refund_trade_no, success: true, reason: null }, now));
    }
  }
  return n;
}
