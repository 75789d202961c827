import type { TicketDetail, TicketMessage, TicketSummary } from '@cfx/contract/tickets.ts';
import { reopenDeadline, type TicketCategory, type TicketStatus } from '@cfx/contract/ticket-rules.ts';
import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';
import type { TicketsTable, TicketStatusDb } from '../../db/schema.ts';
import type { Assert, SameValues } from '../../db/api-guards.ts';
import { uploadUrl } from '../uploads/index.ts';

/** tickets.status → TicketSummary.status: the same values (fails tsc if they drift apart). */
export type TicketStatusGuard = Assert<SameValues<TicketStatusDb, TicketStatus>>;

export type TicketRow = Pick<TicketsTable, 'category' | 'subject' | 'order_no' | 'status' | 'last_message_at' | 'closed_at' | 'closed_by' | 'created_at'> & {
  id: number;
  user_unread: number;
};

export const TICKET_COLUMNS = ['id', 'category', 'subject', 'order_no', 'status', 'user_unread', 'last_message_at', 'closed_at', 'closed_by', 'created_at'] as const;

export function toSummary(r: TicketRow): TicketSummary {
  const closedAt = r.closed_at === null ? null : Number(r.closed_at);
  return {
    id: Number(r.id),
    category: r.category as TicketCategory,
    subject: r.subject,
    status: r.status,
    orderNo: r.order_no,
    unread: Number(r.user_unread),
    createdAt: Number(r.created_at),
    lastMessageAt: Number(r.last_message_at),
    closedAt,
    closedBy: r.closed_by,
    reopenUntil: r.status === 'closed' && closedAt !== null ? reopenDeadline(closedAt) : null,
  };
}

/** The thread of a ticket, oldest first, with each message's attachments (owner download paths). */
export async function ticketMessages(ctx: AppContext, ticketId: number, q: Q = ctx.db.kysely): Promise<TicketMessage[]> {
  const msgs = await q
    .selectFrom('ticket_messages')
    .select(['id', 'author', 'content', 'created_at'])
    .where('ticket_id', '=', ticketId)
    .orderBy('id')
    .execute();
  if (!msgs.length) return [];
  const files = await q
    .selectFrom('ticket_attachments')
    .innerJoin('uploads', 'uploads.id', 'ticket_attachments.upload_id')
    .select(['ticket_attachments.message_id', 'uploads.key', 'uploads.original_name', 'uploads.content_type', 'uploads.size'])
    .where(
      'ticket_attachments.message_id',
      'in',
      msgs.map((m) => Number(m.id)),
    )
    .orderBy('ticket_attachments.message_id')
    .orderBy('ticket_attachments.position')
    .execute();
  const byMessage = new Map<number, TicketMessage['attachments']>();
  for (const f of files) {
    const list = byMessage.get(Number(f.message_id)) ?? [];
    list.push({ key: f.key, url: uploadUrl(ctx, f.key), name: f.original_name, type: f.content_type, size: Number(f.size) });
    byMessage.set(Number(f.message_id), list);
  }
  return msgs.map((m) => ({
    id: Number(m.id),
    author: m.author,
    content: m.content,
    attachments: byMessage.get(Number(m.id)) ?? [],
    createdAt: Number(m.created_at),
  }));
}

export async function ticketDetailOf(ctx: AppContext, row: TicketRow, q: Q = ctx.db.kysely): Promise<TicketDetail> {
  return { ...toSummary(row), messages: await ticketMessages(ctx, Number(row.id), q) };
}
