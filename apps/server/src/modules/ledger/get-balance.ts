import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { Account, balanceOf } from './ledger.ts';

/** The user's available platform balance (from the ledger), money of theirs held for orders still settling, and the latest movements. */
export async function getBalance(ctx: AppContext, userId: number) {
  const account = Account.user(userId);
  const held = await ctx.db.kysely
    .selectFrom('orders')
    .select(sql<string>`coalesce(sum(price_fen), 0)`.as('s'))
    .where('buyer_user_id', '=', userId)
    .where('status', 'in', ['paid', 'settling'])
    .executeTakeFirstOrThrow();
  const recent = await ctx.db.kysely
    .selectFrom('ledger_entries')
    .innerJoin('ledger_txns', 'ledger_txns.id', 'ledger_entries.txn_id')
    .select(['ledger_entries.txn_id', 'ledger_txns.kind', 'ledger_txns.order_no', 'ledger_entries.amount_fen', 'ledger_entries.created_at'])
    .where('ledger_entries.account', '=', account)
    .orderBy('ledger_entries.id', 'desc')
    .limit(20)
    .execute();
  return {
    availableFen: await balanceOf(ctx.db.kysely, account),
    inSettlementFen: Number(held.s),
    recent: recent.map((r) => ({ txnId: r.txn_id, kind: r.kind, orderNo: r.order_no, amountFen: Number(r.amount_fen), at: Number(r.created_at) })),
  };
}
