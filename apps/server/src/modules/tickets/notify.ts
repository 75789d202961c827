import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';
import { notifyUser } from '../messages/index.ts';

/**
 * Tells the user that customer service answered: a `service_reply` message (message center, and an
 * SMS only if the user switched that on), inserted in replyTicket's transaction — a reply that rolls
 * back leaves no message — and deduplicated per reply. The ticket list's unread dot and the
 * personal-center menu's indicator (POST …/ticket/unread) show it as well.
 */
export async function notifyStaffReply(ctx: AppContext, trx: Q, reply: { ticketId: number; messageId: number; userId: number; subject: string }): Promise<void> {
  await notifyUser(ctx, trx, reply.userId, 'service_reply', { subject: reply.subject, ticketId: reply.ticketId }, {
    dedupeKey: `ticket-reply:${reply.messageId}`,
    link: `/personal-center/contact-service?id=${reply.ticketId}`,
  });
}
