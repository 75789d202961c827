import { Status } from '@cfx/contract/envelope.ts';
import { TICKET_LIMITS, type TicketStatus } from '@cfx/contract/ticket-rules.ts';
import type { TicketDetail, TicketSummary } from '@cfx/contract/tickets.ts';
import type { Page } from '@cfx/contract/paging.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { ticketsToday } from './create-ticket.ts';
import { TICKET_COLUMNS, ticketDetailOf, toSummary } from './ticket-view.ts';

/** Tickets of mine with an unread staff reply. */
export async function countUnreadTickets(ctx: AppContext, userId: number): Promise<number> {
  const r = await ctx.db.kysely
    .selectFrom('tickets')
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('user_unread', '>', 0)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** POST …/ticket/list — my tickets, latest activity first, optionally of one status. */
export async function listTickets(
  ctx: AppContext,
  userId: number,
  q: { pageNum: number; pageSize: number; status?: TicketStatus | null },
): Promise<Page<TicketSummary> & { unreadTickets: number; remainingToday: number }> {
  const k = ctx.db.kysely;
  let base = k.selectFrom('tickets').where('user_id', '=', userId);
  if (q.status) base = base.where('status', '=', q.status);
  const [total, rows, unreadTickets, today] = await Promise.all([
    base.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    base
      .select(TICKET_COLUMNS)
      .orderBy('last_message_at', 'desc')
      .orderBy('id', 'desc')
      .limit(q.pageSize)
      .offset((q.pageNum - 1) * q.pageSize)
      .execute(),
    countUnreadTickets(ctx, userId),
    ticketsToday(k, userId, ctx.now()),
  ]);
  return {
    list: rows.map((r) => toSummary({ ...r, id: Number(r.id), user_unread: Number(r.user_unread) })),
    total: Number(total.n),
    pageNum: q.pageNum,
    pageSize: q.pageSize,
    unreadTickets,
    remainingToday: Math.max(0, TICKET_LIMITS.newPerDay - today),
  };
}

/** POST …/ticket/detail — my ticket with its thread; opening it marks the staff replies read. */
export async function getTicket(ctx: AppContext, userId: number, id: number): Promise<TicketDetail> {
  const k = ctx.db.kysely;
  const row = await k.selectFrom('tickets').select(TICKET_COLUMNS).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw new ApiError(Status.NOT_FOUND_ITEM, 'ticketNotFound', {}, 404);
  if (Number(row.user_unread) > 0) {
    await k.updateTable('tickets').set({ user_unread: 0 }).where('id', '=', id).where('user_id', '=', userId).execute();
  }
  return ticketDetailOf(ctx, { ...row, id: Number(row.id), user_unread: 0 });
}
