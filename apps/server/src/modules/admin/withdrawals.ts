import type { FastifyInstance } from 'fastify';
import { Status } from '@cfx/contract/envelope.ts';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import * as A from '@cfx/contract/admin.ts';
import type { AdminWithdrawalRow, Page } from '@cfx/contract/admin.ts';
import type { AppContext } from '../../context.ts';
import type { WithdrawalStatus } from '../../db/schema.ts';
import type { Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { findWithdrawal, submitWithdrawal } from '../payout/index.ts';
import { adminRoute } from './admin-route.ts';

/**
 * Withdrawals (money out to bank cards, modules/payout) for finance: the list by status, newest
 * first, with the bank and the masked card the payout module stored; and "submit again" for a
 * withdrawal still `requested` (the provider never confirmed receiving it) — the same call the
 * payout module's reconciliation makes a minute after the request, now. The provider is
 * idempotent per withdrawal number, and the answer is applied by the payout module exactly once,
 * so a retry racing the reconciliation pays nothing twice. There is no approval step: a withdrawal
 * goes to the provider when the user requests it (docs/payouts.md).
 */
function rowView(r: {
  withdraw_no: string; user_id: number; nickname: string; amount_fen: number; fee_fen: number; net_fen: number; status: WithdrawalStatus;
  bank_name: string; card_masked: string; fail_reason: string | null; created_at: number; finished_at: number | null;
}): AdminWithdrawalRow {
  return {
    withdrawNo: r.withdraw_no,
    userId: Number(r.user_id),
    nickname: r.nickname,
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

const COLUMNS = ['w.withdraw_no', 'w.user_id', 'u.nickname', 'w.amount_fen', 'w.fee_fen', 'w.net_fen', 'w.status', 'w.bank_name', 'w.card_masked', 'w.fail_reason', 'w.created_at', 'w.finished_at'] as const;
const base = (q: Q) => q.selectFrom('payout_withdrawals as w').innerJoin('users as u', 'u.id', 'w.user_id');

export async function listWithdrawals(ctx: AppContext, input: { status?: WithdrawalStatus | null; pageNum: number; pageSize: number }): Promise<Page<AdminWithdrawalRow>> {
  let q = base(ctx.db.kysely);
  if (input.status) q = q.where('w.status', '=', input.status);
  const total = Number((await q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q.select([...COLUMNS]).orderBy('w.id', 'desc').limit(input.pageSize).offset((input.pageNum - 1) * input.pageSize).execute();
  return { list: rows.map(rowView), total, pageNum: input.pageNum, pageSize: input.pageSize };
}

async function oneWithdrawal(q: Q, withdrawNo: string): Promise<AdminWithdrawalRow> {
  const r = await base(q).select([...COLUMNS]).where('w.withdraw_no', '=', withdrawNo).executeTakeFirst();
  if (!r) throw new ApiError(Status.NOT_FOUND_ITEM, 'withdrawNotFound', {}, 404);
  return rowView(r);
}

export function withdrawalRoutes(scope: FastifyInstance, ctx: AppContext) {
  adminRoute(scope, ctx, { path: AdminPaths.withdrawalsList, access: 'withdrawals.read', audit: false, body: A.withdrawalsListBody, handler: (c) => listWithdrawals(ctx, c.body) });
  adminRoute(scope, ctx, {
    path: AdminPaths.withdrawalRetry, access: 'withdrawals.act', audit: true, body: A.withdrawNoBody, okKey: 'withdrawRetried',
    handler: async (c) => {
      const { withdrawNo } = c.body;
      const w = await findWithdrawal(ctx.db.kysely, withdrawNo);
      if (!w) throw new ApiError(Status.NOT_FOUND_ITEM, 'withdrawNotFound', {}, 404);
      if (w.status !== 'requested') throw new ApiError(Status.PAYOUT_STATE, 'withdrawNotRetryable');
      await c.call(
        (cx) => submitWithdrawal(cx, withdrawNo),
        async (_inner, trx) => {
          const now = await oneWithdrawal(trx, withdrawNo);
          return { action: 'withdrawal.retry', targetType: 'withdrawal', targetId: withdrawNo, summary: { before: { status: 'requested' }, after: { status: now.status }, amountFen: now.amountFen, userId: now.userId } };
        },
      );
      return oneWithdrawal(ctx.db.kysely, withdrawNo);
    },
  });
}
