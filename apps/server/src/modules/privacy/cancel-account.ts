import { sql } from 'kysely';
import type { CancelBlocker } from '@cfx/contract/account-security.ts';
import { Status } from '@cfx/contract/envelope.ts';
import { formatMessage, type Lang } from '@cfx/contract/messages.ts';
import { SmsType } from '@cfx/contract/user.ts';
import type { AppContext } from '../../context.ts';
import type { CancellationStatus } from '../../db/schema.ts';
import { inTx, isUniqueViolation, lockKey, type Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import type { ClientMeta } from '../accounts/index.ts';
import { checkSmsCode } from '../accounts/index.ts';
import { findUserById } from '../accounts/index.ts';
import { recordSecurityEvent } from '../accounts/index.ts';
import { consumeSmsCode } from '../accounts/index.ts';
import { Account } from '../ledger/index.ts';

const DAY_MS = 24 * 3600_000;

/** Order states whose money or goods are still moving (unpaid, paid, settling). */
const OPEN_ORDER = ['created', 'paying', 'paid', 'settling'] as const;

/**
 * What would be lost if the account were cancelled now, each with its count: live listings
 * (on sale or reserved by an order), collectibles not minted to the wallet yet, unfinished orders
 * (as buyer or seller), active bids, a positive platform balance, money on its way out (withdrawals
 * requested or processing, refunds of stray payments to their original method not finished: the
 * money has left the balance but has not arrived, and the outcome may bring it back), and a creator
 * account (its releases need the platform). Collectibles already minted to the user's own wallet
 * are NOT a blocker: they stay the user's on chain. Customer-service tickets do not block: an open
 * ticket holds neither money nor goods (it stays, with its thread, after the cancellation).
 */
export async function findCancelBlockers(q: Q, userId: number, now: number): Promise<CancelBlocker[]> {
  const count = async (qb: { executeTakeFirstOrThrow(): Promise<{ n: unknown }> }) => Number((await qb.executeTakeFirstOrThrow()).n);
  const n = sql<number>`count(*)`.as('n');
  const IN_FLIGHT = ['requested', 'processing'] as const;
  const [listed, unminted, orders, bids, balance, user, withdrawals, refunds] = await Promise.all([
    count(q.selectFrom('listings').select(n).where('seller_user_id', '=', userId).where('status', 'in', ['on_sale', 'reserved'])),
    count(q.selectFrom('goods').select(n).where('owner_user_id', '=', userId).where('chain_status', '=', 'pending')),
    count(
      q
        .selectFrom('orders')
        .select(n)
        .where((e) => e.or([e('buyer_user_id', '=', userId), e('seller_user_id', '=', userId)]))
        .where('status', 'in', [...OPEN_ORDER]),
    ),
    count(q.selectFrom('bids').select(n).where('bidder_user_id', '=', userId).where('status', '=', 'active').where('expires_at', '>', now)),
    q.selectFrom('ledger_balances').select('balance_fen').where('account', '=', Account.user(userId)).executeTakeFirst(),
    q.selectFrom('users').select('is_creator').where('id', '=', userId).executeTakeFirst(),
    count(q.selectFrom('payout_withdrawals').select(n).where('user_id', '=', userId).where('status', 'in', [...IN_FLIGHT])),
    count(q.selectFrom('stray_refunds').select(n).where('user_id', '=', userId).where('status', 'in', [...IN_FLIGHT])),
  ]);
  const out: CancelBlocker[] = [];
  if (listed > 0) out.push({ kind: 'listed', count: listed, amountFen: null });
  if (unminted > 0) out.push({ kind: 'unminted', count: unminted, amountFen: null });
  if (orders > 0) out.push({ kind: 'orders', count: orders, amountFen: null });
  if (bids > 0) out.push({ kind: 'bids', count: bids, amountFen: null });
  const fen = Number(balance?.balance_fen ?? 0);
  if (fen > 0) out.push({ kind: 'balance', count: 1, amountFen: fen });
  if (withdrawals + refunds > 0) out.push({ kind: 'payouts', count: withdrawals + refunds, amountFen: null });
  if (Number(user?.is_creator ?? 0) === 1) out.push({ kind: 'creator', count: 1, amountFen: null });
  return out;
}

const yuan = (fen: number) => `￥${(fen / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** The refusal's message: the blockers named in the request's language. */
export function blockersText(blockers: CancelBlocker[], lang: Lang): string {
  const items = blockers.map((b) => {
    switch (b.kind) {
      case 'listed': return formatMessage('cancelItemListed', lang, { n: b.count });
      case 'unminted': return formatMessage('cancelItemUnminted', lang, { n: b.count });
      case 'orders': return formatMessage('cancelItemOrders', lang, { n: b.count });
      case 'bids': return formatMessage('cancelItemBids', lang, { n: b.count });
      case 'balance': return formatMessage('cancelItemBalance', lang, { amount: yuan(b.amountFen ?? 0) });
      case 'payouts': return formatMessage('cancelItemPayouts', lang, { n: b.count });
      case 'creator': return formatMessage('cancelItemCreator', lang);
    }
  });
  return formatMessage('cancelBlocked', lang, { items: items.join(formatMessage('cancelItemSeparator', lang)) });
}

interface RequestRow {
  id: number;
  status: CancellationStatus;
  requested_at: number;
  effective_at: number;
  blockers: string | null;
}

function requestView(r: RequestRow) {
  let blockers: CancelBlocker[];
  try {
    blockers = r.blockers ? (JSON.parse(r.blockers) as CancelBlocker[]) : [];
  } catch {
    blockers = [];
  }
  return { status: r.status, requestedAt: Number(r.requested_at), effectiveAt: Number(r.effective_at), blockers };
}

async function latestRequest(q: Q, userId: number): Promise<RequestRow | undefined> {
  const r = await q
    .selectFrom('account_cancellations')
    .select(['id', 'status', 'requested_at', 'effective_at', 'blockers'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r && { ...r, id: Number(r.id) };
}

/** cancel/status: the cooling-off length, what blocks a cancellation now, and the latest request. */
export async function getCancelStatus(ctx: AppContext, userId: number) {
  const now = ctx.now();
  const [blockers, latest] = await Promise.all([findCancelBlockers(ctx.db.kysely, userId, now), latestRequest(ctx.db.kysely, userId)]);
  return {
    coolingDays: Math.round(ctx.config.privacy.cancelCoolingMs / DAY_MS),
    blockers,
    request: latest && latest.status !== 'revoked' ? requestView(latest) : null,
    serverTime: now,
  };
}

/** A refusal that carries the blockers as data (the route answers 1032 with them). */
export class CancelBlockedError extends Error {
  constructor(readonly blockers: CancelBlocker[]) {
    super('cancel blocked');
  }
}

/**
 * cancel/apply {smsCode, confirm}: needs the explicit confirmation (the UI shows the notice first:
 * collectibles in the user's own wallet stay theirs on chain, the rest is gone) and a fresh
 * security code (type 4). Refused (1032, with the blockers) while anything would be lost; one
 * pending request per user (1033). The account stays usable during the cooling-off period
 * (ACCOUNT_CANCEL_COOLING_DAYS); the user may withdraw the request until it ends.
 */
export async function applyCancellation(ctx: AppContext, userId: number, input: { smsCode: string; confirm: boolean }, meta: ClientMeta) {
  if (input.confirm !== true) throw new ApiError(Status.INVALID, 'cancelConfirmRequired');
  const user = await findUserById(ctx, userId);
  if (!user || user.cancelled_at !== null) throw new ApiError(Status.SESSION_LOST, 'sessionLost');
  const code = checkSmsCode(input.smsCode);
  const pending = await latestRequest(ctx.db.kysely, userId);
  if (pending?.status === 'cooling') throw new ApiError(Status.ACCOUNT_CANCEL_STATE, 'cancelPending');
  const early = await findCancelBlockers(ctx.db.kysely, userId, ctx.now());
  if (early.length) throw new CancelBlockedError(early);
  await consumeSmsCode(ctx, user.mobile, SmsType.SECURITY, code);
  const now = ctx.now();
  const effectiveAt = now + ctx.config.privacy.cancelCoolingMs;
  try {
    return await inTx(ctx, async (trx) => {
      await lockKey(ctx, trx, `cancel:${userId}`);
      const blockers = await findCancelBlockers(trx, userId, now);
      if (blockers.length) throw new CancelBlockedError(blockers);
      await trx
        .insertInto('account_cancellations')
        .values({ user_id: userId, status: 'cooling', requested_at: now, effective_at: effectiveAt, closed_at: null, blockers: null })
        .execute();
      await recordSecurityEvent(trx, { userId, kind: 'cancel_requested', meta, detail: { effectiveAt }, at: now });
      return { status: 'cooling' as const, requestedAt: now, effectiveAt, blockers: [] };
    });
  } catch (err) {
    // Two requests at once: the partial unique index keeps one cooling request per user.
    if (isUniqueViolation(err)) throw new ApiError(Status.ACCOUNT_CANCEL_STATE, 'cancelPending');
    throw err;
  }
}

/** cancel/revoke: withdraws the pending request during its cooling-off period (1033 when there is none). */
export async function revokeCancellation(ctx: AppContext, userId: number, meta: ClientMeta) {
  const now = ctx.now();
  await inTx(ctx, async (trx) => {
    await lockKey(ctx, trx, `cancel:${userId}`);
    const res = await trx
      .updateTable('account_cancellations')
      .set({ status: 'revoked', closed_at: now })
      .where('user_id', '=', userId)
      .where('status', '=', 'cooling')
      .where('effective_at', '>', now)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw new ApiError(Status.ACCOUNT_CANCEL_STATE, 'cancelNone');
    await recordSecurityEvent(trx, { userId, kind: 'cancel_revoked', meta, at: now });
  });
}
