import { Status } from '@cfx/contract/envelope.ts';
import { invalidTicketFields, TICKET_FIELD_MESSAGES, TICKET_LIMITS, type TicketInput } from '@cfx/contract/ticket-rules.ts';
import type { TicketDetail } from '@cfx/contract/tickets.ts';
import type { AppContext } from '../../context.ts';
import { inTx, isUniqueViolation, lockKey, type Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { attachUploads } from './attachments.ts';
import { TICKET_COLUMNS, ticketDetailOf } from './ticket-view.ts';

export const DAY_MS = 86_400_000;

/** New tickets of the user in the last 24 hours. */
export async function ticketsToday(q: Q, userId: number, now: number): Promise<number> {
  const r = await q
    .selectFrom('tickets')
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('created_at', '>', now - DAY_MS)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Refuses a message when the user wrote TICKET_LIMITS.messagesPerDay in the last 24 hours (1006). */
export async function checkMessageCap(q: Q, userId: number, now: number): Promise<void> {
  const r = await q
    .selectFrom('ticket_messages')
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('author_user_id', '=', userId)
    .where('author', '=', 'user')
    .where('created_at', '>', now - DAY_MS)
    .executeTakeFirstOrThrow();
  if (Number(r.n) >= TICKET_LIMITS.messagesPerDay) throw new ApiError(Status.RATE_LIMITED, 'ticketMessageCap');
}

/**
 * POST /api/user/service/v1/ticket/create — a new ticket with its first message.
 * - The form's rules (ticket-rules.ts): the first broken one answers 1001 with its message.
 * - A related order, when given, must be one the user bought or sold (else 1012, the same answer
 *   for an unknown number and someone else's: order numbers are not probed through this call).
 * - Attachments: the user's own image uploads, at most three, each attached once (attachments.ts).
 * - At most TICKET_LIMITS.newPerDay new tickets in any 24 hours (1006), and the message cap; the
 *   count and the insert run under a per-user lock, so parallel submits cannot pass it together.
 */
export async function createTicket(ctx: AppContext, userId: number, input: TicketInput): Promise<TicketDetail> {
  const bad = invalidTicketFields(input);
  if (bad.length) throw new ApiError(Status.INVALID, TICKET_FIELD_MESSAGES[bad[0]!]);
  const subject = input.subject.trim();
  const content = input.content.trim();
  const orderNo = input.orderNo.trim() || null;
  const now = ctx.now();
  try {
    return await inTx(ctx, async (trx) => {
      await lockKey(ctx, trx, `tickets:${userId}`);
      if ((await ticketsToday(trx, userId, now)) >= TICKET_LIMITS.newPerDay) {
        throw new ApiError(Status.RATE_LIMITED, 'ticketDailyCap', { n: TICKET_LIMITS.newPerDay });
      }
      await checkMessageCap(trx, userId, now);
      if (orderNo) {
        const order = await trx
          .selectFrom('orders')
          .select('id')
          .where('order_no', '=', orderNo)
          .where((e) => e.or([e('buyer_user_id', '=', userId), e('seller_user_id', '=', userId)]))
          .executeTakeFirst();
        if (!order) throw new ApiError(Status.FORBIDDEN, 'ticketOrderNotYours');
      }
      const t = await trx
        .insertInto('tickets')
        .values({
          user_id: userId,
          category: input.category,
          subject,
          order_no: orderNo,
          status: 'open',
          user_unread: 0,
          last_message_at: now,
          closed_at: null,
          closed_by: null,
          created_at: now,
          updated_at: now,
        })
        .returning(TICKET_COLUMNS)
        .executeTakeFirstOrThrow();
      const ticketId = Number(t.id);
      const m = await trx
        .insertInto('ticket_messages')
        .values({ ticket_id: ticketId, author: 'user', author_user_id: userId, content, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await attachUploads(ctx, trx, userId, Number(m.id), input.attachmentKeys);
      await trx
        .insertInto('ticket_events')
        .values({ ticket_id: ticketId, from_status: null, to_status: 'open', actor: 'user', actor_user_id: userId, created_at: now })
        .execute();
      return ticketDetailOf(ctx, { ...t, id: ticketId, user_unread: Number(t.user_unread) }, trx);
    });
  } catch (err) {
    // Two messages racing for one upload: the loser hits ticket_attachments' unique upload_id.
    if (isUniqueViolation(err)) throw new ApiError(Status.INVALID, 'ticketBadAttachments');
    throw err;
  }
}
