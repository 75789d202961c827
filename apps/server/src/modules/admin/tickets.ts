import { Status } from '@cfx/contract/envelope.ts';
import type { AdminTicketDetail, AdminTicketRow, Page } from '@cfx/contract/admin.ts';
import type { AppContext } from '../../context.ts';
import type { TicketStatusDb } from '../../db/schema.ts';
import { ApiError } from '../../http/envelope.ts';
import { TICKET_COLUMNS, ticketDetailOf, toSummary } from '../tickets/index.ts';

/**
 * Customer-service tickets for support staff (docs/admin.md "Tickets"): the queue — open tickets
 * waiting longest first, or by status — and one ticket's thread. Answers and closing go through
 * modules/tickets replyTicket / closeTicket (routes.ts), as the staff member's users row.
 */
export async function listTicketsForStaff(ctx: AppContext, input: { status?: TicketStatusDb | null; pageNum: number; pageSize: number }): Promise<Page<AdminTicketRow>> {
  const k = ctx.db.kysely;
  let base = k.selectFrom('tickets as t').innerJoin('users as u', 'u.id', 't.user_id');
  if (input.status) base = base.where('t.status', '=', input.status);
  const total = Number((await base.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await base
    .select(TICKET_COLUMNS.map((c) => `t.${c}` as const))
    .select(['u.id as userId', 'u.account_id', 'u.nickname'])
    .orderBy('t.last_message_at', input.status === 'open' ? 'asc' : 'desc')
    .orderBy('t.id', 'desc')
    .limit(input.pageSize)
    .offset((input.pageNum - 1) * input.pageSize)
    .execute();
  return {
    list: rows.map((r) => ({ ...toSummary({ ...r, id: Number(r.id), user_unread: Number(r.user_unread) }), userId: Number(r.userId), accountId: r.account_id, nickname: r.nickname })),
    total,
    pageNum: input.pageNum,
    pageSize: input.pageSize,
  };
}

export async function ticketForStaff(ctx: AppContext, id: number): Promise<AdminTicketDetail> {
  const r = await ctx.db.kysely
    .selectFrom('tickets as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(TICKET_COLUMNS.map((c) => `t.${c}` as const))
    .select(['u.id as userId', 'u.account_id', 'u.nickname'])
    .where('t.id', '=', id)
    .executeTakeFirst();
  if (!r) throw new ApiError(Status.NOT_FOUND_ITEM, 'ticketNotFound', {}, 404);
  const detail = await ticketDetailOf(ctx, { ...r, id: Number(r.id), user_unread: Number(r.user_unread) });
  return { ...detail, userId: Number(r.userId), accountId: r.account_id, nickname: r.nickname };
}
