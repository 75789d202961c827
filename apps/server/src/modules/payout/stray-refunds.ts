import crypto from 'node:crypto';
import { sql } from 'kysely';
import { Status } from '@cfx/contract/envelope.ts';
import { PayoutNotifyPaths } from '@cfx/contract/payouts.ts';
import { PaymentNotifyPaths } from '@cfx/contract/routes.ts';
import type { AppContext } from '../../context.ts';
import type { StrayRefundStatus } from '../../db/schema.ts';
import { ApiError } from '../../http/envelope.ts';
import { inTx, isUniqueViolation, lockKey } from '../../db/tx.ts';
import type { JobResult } from '../../jobs/runner.ts';
import { defineJob, jobOf } from '../../jobs/define-job.ts';
import type { PaymentProvider, RefundOutcome } from '../../providers/payment/types.ts';
import { Account, postTxn } from '../ledger/index.ts';
import { notifyUrl } from './runtime.ts';
import { cardRefunder } from './card-pay-provider.ts';

/**
 * Refunds of stray payments to their original method (docs/payouts.md "Refunds of stray payments").
 * A provider payment that could not pay its order — a second trade for an order already paid
 * (`duplicate`), a payment after the order closed (`late`), a wrong amount — is credited to the buyer's
 * balance (payments/apply-payment.ts). Such a credit can go back to where it came from through the
 * payment provider's refund API, exactly once per payment (`stray_refunds.payment_id` is unique):
 *
 *   request   `refund-out:<no>`        user:<id> → refund:pending (conditional: the credit must still be there)
 *   succeeded `refund-out-paid:<no>`   refund:pending → external:<provider>
 *   failed    `refund-out-failed:<no>` refund:pending → user:<id> (the money stays in the balance; the user may ask again)
 *
 * Duplicates are refunded automatically (a job inserted with the credit) when REFUND_STRAY_AUTOMATICALLY=1
 * (the default); the others on the user's "refund to original method".
 */
export const STRAY_REFUND_JOB = 'stray-refund';

/** The durable job `stray-refund:<paymentId>`, inserted with the credit of a duplicate payment (its handler: runStrayRefundJob). */
export const strayRefundJobDef = defineJob<typeof STRAY_REFUND_JOB, { paymentId: number }>(STRAY_REFUND_JOB, {
  key: (p) => `${STRAY_REFUND_JOB}:${p.paymentId}`,
  read: (job) => ({ paymentId: Number(job.payload.paymentId ?? job.key.split(':')[1]) }),
});

export function strayRefundJob(paymentId: number) {
  return jobOf(strayRefundJobDef, { paymentId });
}

function providerOf(ctx: AppContext, name: string): Pick<PaymentProvider, 'refund' | 'queryRefund'> | undefined {
  // Card payments are refunded to the card by the payout provider that charged it (modules/card-pay).
  if (name === 'card') return cardRefunder(ctx);
  const p = ctx.market?.providers;
  return name === 'sandbox' ? p?.sandbox : name === 'alipay' ? p?.alipay : name === 'wechat' ? p?.wechat : undefined;
}

const refundView = (r: { refund_no: string; status: StrayRefundStatus; amount_fen: number; automatic: number; fail_reason: string | null; created_at: number; finished_at: number | null }) => ({
  refundNo: r.refund_no,
  status: r.status,
  amountFen: Number(r.amount_fen),
  automatic: Boolean(Number(r.automatic)),
  failReason: r.fail_reason,
  createdAt: Number(r.created_at),
  finishedAt: r.finished_at === null ? null : Number(r.finished_at),
});

type StrayReason = 'duplicate' | 'late' | 'wrong_amount';

/** Why a credited payment did not pay its order. */
export function strayReason(p: { provider_trade_no: string; amount_fen: number }, o: { status: string; price_fen: number; provider_trade_no: string | null } | undefined): StrayReason {
  if (o && ['paid', 'settling', 'completed', 'refunded'].includes(o.status) && o.provider_trade_no !== p.provider_trade_no) return 'duplicate';
  if (o && Number(o.price_fen) !== Number(p.amount_fen)) return 'wrong_amount';
  return 'late';
}

/** pageListStrayCredit: my payments credited to the balance, with their refund. */
export async function listStrayCredits(ctx: AppContext, userId: number, pageNum: number, pageSize: number) {
  const base = ctx.db.kysely.selectFrom('payments').where('payments.user_id', '=', userId).where('payments.outcome', '=', 'credited').where('payments.provider', 'in', ['sandbox', 'alipay', 'wechat', 'card']);
  const rows = await base
    .leftJoin('orders', 'orders.order_no', 'payments.order_no')
    .leftJoin('stray_refunds', 'stray_refunds.payment_id', 'payments.id')
    .select([
      'payments.id', 'payments.provider', 'payments.provider_trade_no', 'payments.order_no', 'payments.amount_fen', 'payments.created_at',
      'orders.status as order_status', 'orders.price_fen', 'orders.provider_trade_no as order_trade_no',
      'stray_refunds.refund_no', 'stray_refunds.status as refund_status', 'stray_refunds.amount_fen as refund_amount', 'stray_refunds.automatic', 'stray_refunds.fail_reason',
      'stray_refunds.created_at as refund_created_at', 'stray_refunds.finished_at as refund_finished_at',
    ])
    .orderBy('payments.id', 'desc')
    .limit(pageSize)
    .offset((pageNum - 1) * pageSize)
    .execute();
  const total = await base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return {
    list: rows.map((r) => {
      const refund = r.refund_no
        ? refundView({ refund_no: r.refund_no, status: r.refund_status!, amount_fen: Number(r.refund_amount), automatic: Number(r.automatic), fail_reason: r.fail_reason, created_at: Number(r.refund_created_at), finished_at: r.refund_finished_at === null ? null : Number(r.refund_finished_at) })
        : null;
      const supported = Boolean(providerOf(ctx, r.provider)?.refund);
      return {
        paymentId: Number(r.id),
        orderNo: r.order_no,
        provider: r.provider,
        amountFen: Number(r.amount_fen),
        reason: strayReason(r, r.order_status ? { status: r.order_status, price_fen: Number(r.price_fen), provider_trade_no: r.order_trade_no } : undefined),
        creditedAt: Number(r.created_at),
        refundable: supported && (!refund || refund.status === 'failed'),
        refund,
      };
    }),
    total: Number(total.n),
    pageNum,
    pageSize,
  };
}

/**
 * Starts the refund of one credited payment: the row and the debit of the credit in one transaction.
 * A refund that failed before may be asked again (the same row, a new refund number).
 */
export async function requestStrayRefund(ctx: AppContext, userId: number, paymentId: number, automatic: boolean): Promise<string> {
  const p = await ctx.db.kysely.selectFrom('payments').selectAll().where('id', '=', paymentId).executeTakeFirst();
  if (!p || Number(p.user_id) !== userId || p.outcome !== 'credited' || (p.provider !== 'sandbox' && p.provider !== 'alipay' && p.provider !== 'wechat' && p.provider !== 'card')) throw new ApiError(Status.REFUND_REFUSED, 'refundNotStray');
  if (!providerOf(ctx, p.provider)?.refund) throw new ApiError(Status.REFUND_REFUSED, 'refundUnsupported');
  const now = ctx.now();
  const refundNo = `RF${now}${crypto.randomBytes(6).toString('hex')}`;
  const amount = Number(p.amount_fen);
  try {
    await inTx(ctx, async (trx) => {
      await lockKey(ctx, trx, `payout:${userId}`);
      const existing = await trx.selectFrom('stray_refunds').select(['id', 'status']).where('payment_id', '=', paymentId).executeTakeFirst();
      if (existing && existing.status !== 'failed') throw new ApiError(Status.REFUND_REFUSED, 'refundAlready');
      if (existing) {
        const res = await trx
          .updateTable('stray_refunds')
          .set({ refund_no: refundNo, status: 'requested', automatic: automatic ? 1 : 0, provider_refund_no: null, fail_reason: null, updated_at: now, finished_at: null })
          .where('id', '=', Number(existing.id))
          .where('status', '=', 'failed')
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) !== 1) throw new ApiError(Status.REFUND_REFUSED, 'refundAlready');
      } else {
        await trx
          .insertInto('stray_refunds')
          .values({ refund_no: refundNo, payment_id: paymentId, user_id: userId, provider: p.provider as 'sandbox' | 'alipay' | 'wechat' | 'card', provider_trade_no: p.provider_trade_no, order_no: p.order_no, amount_fen: amount, status: 'requested', automatic: automatic ? 1 : 0, provider_refund_no: null, fail_reason: null, created_at: now, updated_at: now, finished_at: null })
          .execute();
      }
      try {
        await postTxn(trx, { id: `refund-out:${refundNo}`, kind: 'refund_out', orderNo: p.order_no, entries: [{ account: Account.user(userId), amountFen: -amount }, { account: Account.refundPending, amountFen: amount }], now });
      } catch (err) {
        if (err instanceof ApiError && err.key === 'balanceInsufficient') throw new ApiError(Status.REFUND_REFUSED, 'refundBalanceUsed');
        throw err;
      }
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(Status.REFUND_REFUSED, 'refundAlready');
    throw err;
  }
  return refundNo;
}

/** Asks the provider to refund (also reconciliation's retry: idempotent per refund number). */
export async function submitStrayRefund(ctx: AppContext, refundNo: string): Promise<void> {
  const r = await ctx.db.kysely.selectFrom('stray_refunds').selectAll().where('refund_no', '=', refundNo).executeTakeFirst();
  if (!r || r.status !== 'requested') return;
  const provider = providerOf(ctx, r.provider);
  if (!provider?.refund) return;
  let outcome: RefundOutcome;
  try {
    // WeChat Pay posts its refund outcome to its payment notify path (REFUND.* events, payments/routes.ts).
    const refundNotify = r.provider === 'wechat' ? notifyUrl(ctx, PaymentNotifyPaths.wechat) : notifyUrl(ctx, PayoutNotifyPaths.refundSandbox);
    outcome = await provider.refund({ tradeNo: r.provider_trade_no, orderNo: r.order_no, refundNo, amountFen: Number(r.amount_fen), notifyUrl: refundNotify, now: ctx.now() });
  } catch {
    return;
  }
  await applyRefundOutcome(ctx, refundNo, outcome);
}

/** Applies a refund's outcome (the provider's answer, its verified notify, or a query), exactly once. */
export async function applyRefundOutcome(ctx: AppContext, refundNo: string, o: RefundOutcome): Promise<'applied' | 'duplicate' | 'unknown'> {
  const now = ctx.now();
  return inTx(ctx, async (trx) => {
    const r = await trx.selectFrom('stray_refunds').selectAll().where('refund_no', '=', refundNo).executeTakeFirst();
    if (!r) return 'unknown';
    if (r.status !== 'requested' && r.status !== 'processing') return 'duplicate';
    if (o.status === 'processing') {
      const res = await trx.updateTable('stray_refunds').set({ status: 'processing', provider_refund_no: o.refundTradeNo, updated_at: now }).where('id', '=', Number(r.id)).where('status', '=', 'requested').executeTakeFirst();
      return Number(res.numUpdatedRows) === 1 ? 'applied' : 'duplicate';
    }
    const moved = await trx
      .updateTable('stray_refunds')
      .set({ status: o.status, provider_refund_no: o.refundTradeNo ?? r.provider_refund_no, fail_reason: o.status === 'failed' ? (o.reason ?? 'refused').slice(0, 300) : null, updated_at: now, finished_at: now })
      .where('id', '=', Number(r.id))
      .where('status', 'in', ['requested', 'processing'])
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return 'duplicate';
    const amount = Number(r.amount_fen);
    if (o.status === 'succeeded') {
      await postTxn(trx, { id: `refund-out-paid:${refundNo}`, kind: 'refund_out_paid', orderNo: r.order_no, entries: [{ account: Account.refundPending, amountFen: -amount }, { account: Account.external(r.provider), amountFen: amount }], now });
    } else {
      await postTxn(trx, { id: `refund-out-failed:${refundNo}`, kind: 'refund_out_failed', orderNo: r.order_no, entries: [{ account: Account.refundPending, amountFen: -amount }, { account: Account.user(Number(r.user_id)), amountFen: amount }], now });
    }
    return 'applied';
  });
}

/** refundStrayCredit {paymentId}: the user's "refund to original method". */
export async function refundStrayCredit(ctx: AppContext, userId: number, paymentId: number) {
  const refundNo = await requestStrayRefund(ctx, userId, paymentId, false);
  await submitStrayRefund(ctx, refundNo);
  const r = await ctx.db.kysely.selectFrom('stray_refunds').selectAll().where('refund_no', '=', refundNo).executeTakeFirstOrThrow();
  return refundView(r);
}

/** The automatic refund of a duplicate payment (a job inserted with its credit). Nothing to do when the credit was already spent or refunded. */
async function runStrayRefundJob(ctx: AppContext, paymentId: number): Promise<JobResult> {
  const p = await ctx.db.kysely.selectFrom('payments').select(['user_id', 'outcome']).where('id', '=', paymentId).executeTakeFirst();
  if (!p || p.user_id === null || p.outcome !== 'credited') return { done: true };
  let refundNo: string;
  try {
    refundNo = await requestStrayRefund(ctx, Number(p.user_id), paymentId, true);
  } catch (err) {
    if (err instanceof ApiError) return { done: true };
    throw err;
  }
  await submitStrayRefund(ctx, refundNo);
  return { done: true };
}

export function registerStrayRefundJobs(ctx: AppContext) {
  ctx.jobs.handle(strayRefundJobDef, (p) => runStrayRefundJob(ctx, p.paymentId));
}
