import type { FastifyInstance } from 'fastify';
import { AdminPaths } from '@cfx/contract/admin-rules.ts';
import * as A from '@cfx/contract/admin.ts';
import type { AdminWithdrawalRow, Page } from '@cfx/contract/admin.ts';
import type { AppContext } from '../../context.ts';
import type { WithdrawalStatus } from '../../db/schema.ts';
import { adminRoute } from './admin-route.ts';

/**
 * Withdrawals (money out to bank cards, modules/payout) for finance: the list by status, newest
 * first, with the bank and the masked card the payout module stored. Read-only: a withdrawal goes
 * to the payout provider when the user requests it and is settled by its notifications and the
 * module's reconciliation (docs/payouts.md) — there is no approval step to take here.
 */
export async function listWithdrawals(ctx: AppContext, input: { status?: WithdrawalStatus | null; pageNum: number; pageSize: number }): Promise<Page<AdminWithdrawalRow>> {
  const k = ctx.db.kysely;
  let base = k.selectFrom('payout_withdrawals as w').innerJoin('users as u', 'u.id', 'w.user_id');
  if (input.status) base = base.where('w.status', '=', input.status);
  const total = Number((await base.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await base
    .select(['w.withdraw_no', 'w.user_id', 'u.nickname', 'w.amount_fen', 'w.fee_fen', 'w.net_fen', 'w.status', 'w.bank_name', 'w.card_masked', 'w.fail_reason', 'w.created_at', 'w.finished_at'])
    .orderBy('w.id', 'desc')
    .limit(input.pageSize)
    .offset((input.pageNum - 1) * input.pageSize)
    .execute();
  return {
    list: rows.map((r) => ({
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
    })),
    total,
    pageNum: input.pageNum,
    pageSize: input.pageSize,
  };
}

export function withdrawalRoutes(scope: FastifyInstance, ctx: AppContext) {
  adminRoute(scope, ctx, { path: AdminPaths.withdrawalsList, access: 'withdrawals.read', audit: false, body: A.withdrawalsListBody, handler: (c) => listWithdrawals(ctx, c.body) });
}
