import crypto from 'node:crypto';
import { sql } from 'kysely';
import { Status } from '@cfx/contract/envelope.ts';
import { formatMessage, type Lang, type MessageKey } from '@cfx/contract/messages.ts';
import { PayoutNotifyPaths } from '@cfx/contract/payouts.ts';
import { SmsType } from '@cfx/contract/user.ts';
import { formatFen } from '@cfx/protocol/money.ts';
import type { AppContext } from '../../context.ts';
import type { PayoutProviderName } from '../../db/schema.ts';
import { ApiError } from '../../http/envelope.ts';
import { inTx, lockKey, type Q } from '../../db/tx.ts';
import type { PayoutNotice } from '../../providers/payout/types.ts';
import { consumeSmsCode } from '../accounts/index.ts';
import { Account, balanceOf, postTxn } from '../ledger/index.ts';
import { activeCard, getBoundCard } from './cards.ts';
import { notifyUrl, payoutRuntime, requireProvider } from './runtime.ts';
import { chinaDayStart as chinaDayStartOf } from '@cfx/protocol/china-time.ts';

/**
 * Withdrawals of the platform balance to the bound card (docs/payouts.md "Withdrawals").
 *
 * Money: at the request one transaction inserts the withdrawal (`requested`) and posts
 * `withdraw:<no>` user:<id> → payout:pending (a conditional debit: never below zero, so of two
 * concurrent withdrawals of the whole balance one is refused with 1016). The provider is then told to
 * pay the net amount (`processing`, its trade number kept, unique per provider). Its signed notify —
 * or reconciliation — settles it exactly once: succeeded posts `withdraw-paid:<no>` payout:pending →
 * external:<provider> (net) + platform:fee (fee); failed posts `withdraw-failed:<no>` payout:pending →
 * user:<id> (the whole amount back, the fee is not kept). Both outcomes are conditional UPDATEs from
 * requested/processing in the transaction of their ledger posting; the ledger ids make a replay a no-op.
 *
 * Only the available balance can be withdrawn: money of orders still settling is in escrow, not in
 * user:<id>. Limits (config): minimum and maximum per withdrawal, a daily count and amount per China
 * day (failed withdrawals do not count), more than the fee. Fee = max(minimum fee, ⌈amount × ‰ / 1000⌉).
 */

export function withdrawalFee(ctx: Pick<AppContext, 'config'>, amountFen: number): number {
  const { feePermille, minFeeFen } = ctx.config.payout;
  return Math.max(minFeeFen, Math.floor((amountFen * feePermille + 999) / 1000));
}

/** The start of the China-time day of `now` (epoch ms). */
export function chinaDayStart(now: number): number {
  return chinaDayStartOf(now);
}

async function today(q: Q, userId: number, now: number) {
  const r = await q
    .selectFrom('payout_withdrawals')
    .select((e) => [e.fn.countAll<number>().as('n'), e.fn.coalesce(e.fn.sum<number>('amount_fen'), e.val(0)).as('s')])
    .where('user_id', '=', userId)
    .where('created_at', '>=', chinaDayStart(now))
    .where('status', '!=', 'failed')
    .executeTakeFirstOrThrow();
  return { count: Number(r.n), amountFen: Number(r.s) };
}

type Refusal = { status: string; key: MessageKey; vars?: Record<string, string | number> };

/** Why `amountFen` cannot be withdrawn now (null: it can), from what was read. */
function refusalOf(ctx: AppContext, s: { provider: boolean; accountActive: boolean; card: boolean; available: number; today: { count: number; amountFen: number } }, amountFen: number): Refusal | null {
  const c = ctx.config.payout;
  if (!s.provider) return { status: Status.PAYOUT_STATE, key: 'payoutDisabled' };
  if (!s.accountActive) return { status: Status.PAYOUT_STATE, key: 'accountNotOpen' };
  if (!s.card) return { status: Status.PAYOUT_STATE, key: 'cardNone' };
  if (amountFen < c.minFen) return { status: Status.WITHDRAW_REFUSED, key: 'withdrawBelowMin', vars: { min: formatFen(c.minFen) } };
  if (amountFen > c.maxFen) return { status: Status.WITHDRAW_REFUSED, key: 'withdrawAboveMax', vars: { max: formatFen(c.maxFen) } };
  const fee = withdrawalFee(ctx, amountFen);
  if (amountFen <= fee) return { status: Status.WITHDRAW_REFUSED, key: 'withdrawFeeExceeds', vars: { fee: formatFen(fee) } };
  if (s.today.count >= c.dailyCount) return { status: Status.WITHDRAW_REFUSED, key: 'withdrawDailyCount', vars: { n: c.dailyCount } };
  if (s.today.amountFen + amountFen > c.dailyMaxFen) {
    return { status: Status.WITHDRAW_REFUSED, key: 'withdrawDailyAmount', vars: { max: formatFen(c.dailyMaxFen), left: formatFen(Math.max(0, c.dailyMaxFen - s.today.amountFen)) } };
  }
  if (amountFen > s.available) return { status: Status.PAYMENT_REFUSED, key: 'balanceInsufficient' };
  return null;
}

async function stateOf(ctx: AppContext, q: Q, userId: number, now: number) {
  const account = await q.selectFrom('payout_accounts').select(['state', 'merchant_no']).where('user_id', '=', userId).executeTakeFirst();
  const card = await activeCard(q, userId);
  return {
    account,
    cardRow: card,
    provider: Boolean(payoutRuntime(ctx)?.provider),
    accountActive: account?.state === 'active' && Boolean(account.merchant_no),
    card: Boolean(card),
    available: await balanceOf(q, Account.user(userId)),
    today: await today(q, userId, now),
  };
}

/** withdrawPreview {amountFen}: fee, net amount, limits and today's use — and why it would be refused. */
export async function previewWithdrawal(ctx: AppContext, userId: number, amountFen: number, lang: Lang) {
  const now = ctx.now();
  const s = await stateOf(ctx, ctx.db.kysely, userId, now);
  const c = ctx.config.payout;
  const fee = amountFen > 0 ? withdrawalFee(ctx, amountFen) : 0;
  const refusal = amountFen > 0 ? refusalOf(ctx, s, amountFen) : null;
  return {
    availableFen: s.available,
    limits: { minFen: c.minFen, maxFen: c.maxFen, feePermille: c.feePermille, minFeeFen: c.minFeeFen, dailyCount: c.dailyCount, dailyMaxFen: c.dailyMaxFen },
    todayCount: s.today.count,
    todayAmountFen: s.today.amountFen,
    card: await getBoundCard(ctx, userId),
    accountState: s.account?.state ?? ('none' as const),
    amountFen,
    feeFen: fee,
    netFen: Math.max(0, amountFen - fee),
    refusal: refusal ? formatMessage(refusal.key, lang, refusal.vars) : null,
  };
}

export function withdrawalView(r: { withdraw_no: string; amount_fen: number; fee_fen: number; net_fen: number; status: 'requested' | 'processing' | 'succeeded' | 'failed'; bank_name: string; card_masked: string; fail_reason: string | null; created_at: number; finished_at: number | null }) {
  return {
    withdrawNo: r.withdraw_no,
    amountFen: Number(r.amount_fen),
    feeFen: Number(r.fee_fen),
    netFen: Number(r.net_fen),
    status: r.status,
    bankName: r.bank_name,
    cardMasked: r.card_masked,
    failReason: r.fail_reason,
    createdAt: Number(r.created_at),
    finishedAt: r.finished_at === null ? null : Number(r.finished_at),
  };
}

export async function findWithdrawal(q: Q, withdrawNo: string) {
  return q.selectFrom('payout_withdrawals').selectAll().where('withdraw_no', '=', withdrawNo).executeTakeFirst();
}

/**
 * The money-moving part of a withdrawal request (after the security code): one transaction under the
 * per-user lock re-reads the account, card and today's use, inserts the row and debits the balance.
 */
export async function createWithdrawal(ctx: AppContext, userId: number, amountFen: number) {
  const provider = requireProvider(ctx);
  const now = ctx.now();
  const withdrawNo = `WD${now}${crypto.randomBytes(6).toString('hex')}`;
  await inTx(ctx, async (trx) => {
    await lockKey(ctx, trx, `payout:${userId}`);
    const s = await stateOf(ctx, trx, userId, now);
    // The balance is left to the conditional debit below (the race-free check).
    const refusal = refusalOf(ctx, { ...s, available: Number.MAX_SAFE_INTEGER }, amountFen);
    if (refusal) throw new ApiError(refusal.status, refusal.key, refusal.vars);
    const fee = withdrawalFee(ctx, amountFen);
    const card = s.cardRow!;
    await trx
      .insertInto('payout_withdrawals')
      .values({
        withdraw_no: withdrawNo, user_id: userId, card_id: Number(card.id), provider: provider.name, amount_fen: amountFen, fee_fen: fee, net_fen: amountFen - fee,
        status: 'requested', provider_trade_no: null, fail_reason: null, bank_name: card.bank_name, card_masked: card.card_masked, created_at: now, updated_at: now, finished_at: null,
      })
      .execute();
    await postTxn(trx, { id: `withdraw:${withdrawNo}`, kind: 'withdraw', entries: [{ account: Account.user(userId), amountFen: -amountFen }, { account: Account.payoutPending, amountFen }], now });
  });
  return withdrawNo;
}

/** withdraw {amountFen, smsCode}: the limits, the security code of the account phone, the money, then the provider. */
export async function requestWithdrawal(ctx: AppContext, userId: number, input: { amountFen: number; smsCode: string }) {
  const now = ctx.now();
  const s = await stateOf(ctx, ctx.db.kysely, userId, now);
  const refusal = refusalOf(ctx, s, input.amountFen);
  if (refusal) throw new ApiError(refusal.status, refusal.key, refusal.vars);
  const user = await ctx.db.kysely.selectFrom('users').select('mobile').where('id', '=', userId).executeTakeFirstOrThrow();
  await consumeSmsCode(ctx, user.mobile, SmsType.SECURITY, input.smsCode);
  const withdrawNo = await createWithdrawal(ctx, userId, input.amountFen);
  await submitWithdrawal(ctx, withdrawNo);
  return withdrawalView((await findWithdrawal(ctx.db.kysely, withdrawNo))!);
}

/**
 * Tells the provider to pay a requested withdrawal (also reconciliation's retry: the provider is
 * idempotent per withdrawal number). Accepted → processing with its trade number; refused → failed,
 * money back; unreachable → stays requested for reconciliation.
 */
export async function submitWithdrawal(ctx: AppContext, withdrawNo: string): Promise<void> {
  const provider = payoutRuntime(ctx)?.provider;
  const w = await findWithdrawal(ctx.db.kysely, withdrawNo);
  if (!provider || !w || w.status !== 'requested' || w.provider !== provider.name) return;
  const card = await ctx.db.kysely.selectFrom('payout_cards').selectAll().where('id', '=', Number(w.card_id)).executeTakeFirstOrThrow();
  const account = await ctx.db.kysely.selectFrom('payout_accounts').select('merchant_no').where('user_id', '=', Number(w.user_id)).executeTakeFirstOrThrow();
  let outcome;
  try {
    outcome = await provider.submitWithdrawal({
      withdrawNo, merchantNo: account.merchant_no ?? '', netFen: Number(w.net_fen), cardNo: ctx.secrets.open(card.card_sealed), bankCode: card.bank_code, last4: card.last4,
      bindId: card.provider_bind_id, notifyUrl: notifyUrl(ctx, PayoutNotifyPaths[provider.name]), now: ctx.now(),
    });
  } catch {
    return;
  }
  if (outcome.accepted) await applyPayoutNotice(ctx, provider.name, { withdrawNo, tradeNo: outcome.tradeNo, status: 'processing', reason: null });
  else await applyPayoutNotice(ctx, provider.name, { withdrawNo, tradeNo: '', status: 'failed', reason: outcome.reason });
}

export type NoticeOutcome = 'applied' | 'duplicate' | 'unknown' | 'mismatch';

/**
 * Applies a verified notify or query answer, exactly once. The trade number is the provider's: a
 * notice naming another trade than the one recorded for the withdrawal is refused (`mismatch`).
 */
export async function applyPayoutNotice(ctx: AppContext, provider: PayoutProviderName, n: PayoutNotice): Promise<NoticeOutcome> {
  const now = ctx.now();
  return inTx(ctx, async (trx) => {
    const w = await findWithdrawal(trx, n.withdrawNo);
    if (!w || w.provider !== provider) return 'unknown';
    if (n.tradeNo && w.provider_trade_no && w.provider_trade_no !== n.tradeNo) return 'mismatch';
    const open = ['requested', 'processing'] as const;
    if (!open.includes(w.status as (typeof open)[number])) return 'duplicate';
    const trade = n.tradeNo || w.provider_trade_no || null;
    if (n.status === 'processing') {
      const res = await trx.updateTable('payout_withdrawals').set({ status: 'processing', provider_trade_no: trade, updated_at: now }).where('id', '=', Number(w.id)).where('status', 'in', [...open]).executeTakeFirst();
      return Number(res.numUpdatedRows) === 1 ? 'applied' : 'duplicate';
    }
    const moved = await trx
      .updateTable('payout_withdrawals')
      .set({ status: n.status, provider_trade_no: trade, fail_reason: n.status === 'failed' ? (n.reason ?? 'refused').slice(0, 300) : null, updated_at: now, finished_at: now })
      .where('id', '=', Number(w.id))
      .where('status', 'in', [...open])
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return 'duplicate';
    const amount = Number(w.amount_fen);
    if (n.status === 'succeeded') {
      await postTxn(trx, {
        id: `withdraw-paid:${w.withdraw_no}`, kind: 'withdraw_paid',
        entries: [{ account: Account.payoutPending, amountFen: -amount }, { account: Account.external(provider), amountFen: Number(w.net_fen) }, { account: Account.fee, amountFen: Number(w.fee_fen) }], now,
      });
    } else {
      await postTxn(trx, { id: `withdraw-failed:${w.withdraw_no}`, kind: 'withdraw_failed', entries: [{ account: Account.payoutPending, amountFen: -amount }, { account: Account.user(Number(w.user_id)), amountFen: amount }], now });
    }
    return 'applied';
  });
}

/** pageListWithdraw: mine, newest first. */
export async function listWithdrawals(ctx: AppContext, userId: number, pageNum: number, pageSize: number) {
  const rows = await ctx.db.kysely.selectFrom('payout_withdrawals').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').limit(pageSize).offset((pageNum - 1) * pageSize).execute();
  const total = await ctx.db.kysely.selectFrom('payout_withdrawals').select(sql<number>`count(*)`.as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return { list: rows.map(withdrawalView), total: Number(total.n), pageNum, pageSize };
}
