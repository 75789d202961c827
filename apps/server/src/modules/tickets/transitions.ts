import { Status } from '@cfx/contract/envelope.ts';
import { reopenDeadline, TICKET_LIMITS, validTicketAttachments, validTicketContent } from '@cfx/contract/ticket-rules.ts';
import type { TicketDetail } from '@cfx/contract/tickets.ts';
import type { AppContext } from '../../context.ts';
import type { TicketAuthor, TicketStatusDb } from '../../db/schema.ts';
import { changed, inTx, isUniqueViolation, lockKey, type Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { attachUploads } from './attachments.ts';
import { checkMessageCap } from './create-ticket.ts';
import { notifyStaffReply } from './notify.ts';
import { TICKET_COLUMNS, ticketDetailOf, type TicketRow } from './ticket-view.ts';

/*
 * Every state change of a ticket is one conditional UPDATE (`WHERE status IN (…)`) in a
 * transaction with its event row: two actors at once (the user closing while staff reply) cannot
 * both act on a state that one of them already left; the loser gets 1041.
 *
 *   user reply   open | answered → open        staff reply  open | answered → answered (+1 unread)
 *   user close   open | answered → closed      staff close  open | answered → closed
 *   user reopen  closed → open, within TICKET_LIMITS.reopenDays of closing
 */
const notFound = () => new ApiError(Status.NOT_FOUND_ITEM, 'ticketNotFound', {}, 404);

/** The ticket, for its owner only (another user's ticket is the same 1404 as a missing one). */
async function ticketOf(trx: Q, id: number, userId?: number): Promise<TicketRow & { user_id: number }> {
  let q = trx.selectFrom('tickets').select([...TICKET_COLUMNS, 'user_id']).where('id', '=', id);
  if (userId !== undefined) q = q.where('user_id', '=', userId);
  const row = await q.executeTakeFirst();
  if (!row) throw notFound();
  return { ...row, id: Number(row.id), user_unread: Number(row.user_unread), user_id: Number(row.user_id) };
}

async function move(
  trx: Q,
  t: { id: number; status: TicketStatusDb },
  from: TicketStatusDb[],
  to: TicketStatusDb,
  actor: TicketAuthor,
  actorUserId: number,
  now: number,
  set: Record<string, unknown> = {},
): Promise<boolean> {
  const r = await trx
    .updateTable('tickets')
    .set({ status: to, updated_at: now, ...set })
    .where('id', '=', t.id)
    .where('status', 'in', from)
    .executeTakeFirst();
  if (changed(r) !== 1) return false;
  if (t.status !== to) {
    await trx.insertInto('ticket_events').values({ ticket_id: t.id, from_status: t.status, to_status: to, actor, actor_user_id: actorUserId, created_at: now }).execute();
  }
  return true;
}

function checkText(content: string, keys: string[]) {
  if (!validTicketContent(content)) throw new ApiError(Status.INVALID, 'ticketBadContent');
  if (!validTicketAttachments(keys)) throw new ApiError(Status.INVALID, 'ticketBadAttachments');
}

async function reread(ctx: AppContext, trx: Q, id: number): Promise<TicketDetail> {
  return ticketDetailOf(ctx, await ticketOf(trx, id), trx);
}

/** Unique upload_id lost to a parallel message: the same answer as an upload already attached. */
async function attachmentsRace<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(Status.INVALID, 'ticketBadAttachments');
    throw err;
  }
}

/** POST …/ticket/reply — the user writes again (an answered ticket is open again); closed: 1041, reopen first. */
export async function replyAsUser(ctx: AppContext, userId: number, id: number, content: string, keys: string[]): Promise<TicketDetail> {
  checkText(content, keys);
  const now = ctx.now();
  return attachmentsRace(() =>
    inTx(ctx, async (trx) => {
      await lockKey(ctx, trx, `tickets:${userId}`);
      const t = await ticketOf(trx, id, userId);
      if (t.status === 'closed') throw new ApiError(Status.TICKET_STATE, 'ticketClosed');
      await checkMessageCap(trx, userId, now);
      if (!(await move(trx, t, ['open', 'answered'], 'open', 'user', userId, now, { last_message_at: now }))) {
        throw new ApiError(Status.TICKET_STATE, 'ticketClosed');
      }
      const m = await trx.insertInto('ticket_messages').values({ ticket_id: id, author: 'user', author_user_id: userId, content: content.trim(), created_at: now }).returning('id').executeTakeFirstOrThrow();
      await attachUploads(ctx, trx, userId, Number(m.id), keys);
      return reread(ctx, trx, id);
    }),
  );
}

/** POST …/ticket/close — the user closes the ticket (resolved, or no longer needed). */
export async function closeAsUser(ctx: AppContext, userId: number, id: number): Promise<TicketDetail> {
  const now = ctx.now();
  return inTx(ctx, async (trx) => {
    const t = await ticketOf(trx, id, userId);
    if (!(await move(trx, t, ['open', 'answered'], 'closed', 'user', userId, now, { closed_at: now, closed_by: 'user' }))) {
      throw new ApiError(Status.TICKET_STATE, 'ticketAlreadyClosed');
    }
    return reread(ctx, trx, id);
  });
}

/** POST …/ticket/reopen — a closed ticket is open again, within TICKET_LIMITS.reopenDays of closing (by anyone). */
export async function reopenAsUser(ctx: AppContext, userId: number, id: number): Promise<TicketDetail> {
  const now = ctx.now();
  return inTx(ctx, async (trx) => {
    const t = await ticketOf(trx, id, userId);
    if (t.status !== 'closed') throw new ApiError(Status.TICKET_STATE, 'ticketNotClosed');
    if (now > reopenDeadline(Number(t.closed_at))) throw new ApiError(Status.TICKET_STATE, 'ticketReopenExpired', { d: TICKET_LIMITS.reopenDays });
    if (!(await move(trx, t, ['closed'], 'open', 'user', userId, now, { closed_at: null, closed_by: null }))) {
      throw new ApiError(Status.TICKET_STATE, 'ticketNotClosed');
    }
    return reread(ctx, trx, id);
  });
}

/**
 * Customer service answers a ticket (for the admin console; the caller checks that `staffId` is
 * staff — it is stored as the author but never shown to the user). The ticket becomes `answered`,
 * its unread count grows by one and notify.ts tells the user. A closed ticket is 1041 (the user
 * reopens it, or opens a new one); unknown ids 1404; the text follows the same rule as the user's.
 */
export async function replyTicket(ctx: AppContext, staffId: number, ticketId: number, text: string): Promise<TicketDetail> {
  if (!validTicketContent(text)) throw new ApiError(Status.INVALID, 'ticketBadContent');
  const now = ctx.now();
  return inTx(ctx, async (trx) => {
    const t = await ticketOf(trx, ticketId);
    if (t.status === 'closed') throw new ApiError(Status.TICKET_STATE, 'ticketClosed');
    const r = await trx
      .updateTable('tickets')
      .set((e) => ({ status: 'answered' as const, user_unread: e('user_unread', '+', 1), last_message_at: now, updated_at: now }))
      .where('id', '=', ticketId)
      .where('status', 'in', ['open', 'answered'])
      .executeTakeFirst();
    if (changed(r) !== 1) throw new ApiError(Status.TICKET_STATE, 'ticketClosed');
    if (t.status !== 'answered') {
      await trx.insertInto('ticket_events').values({ ticket_id: ticketId, from_status: t.status, to_status: 'answered', actor: 'staff', actor_user_id: staffId, created_at: now }).execute();
    }
    const m = await trx.insertInto('ticket_messages').values({ ticket_id: ticketId, author: 'staff', author_user_id: staffId, content: text.trim(), created_at: now }).returning('id').executeTakeFirstOrThrow();
    await notifyStaffReply(ctx, trx, { ticketId, messageId: Number(m.id), userId: t.user_id, subject: t.subject });
    return reread(ctx, trx, ticketId);
  });
}

/** Customer service closes a ticket (for the admin console); already closed: 1041; unknown: 1404. */
export async function closeTicket(ctx: AppContext, staffId: number, ticketId: number): Promise<TicketDetail> {
  const now = ctx.now();
  return inTx(ctx, async (trx) => {
    const t = await ticketOf(trx, ticketId);
    if (!(await move(trx, t, ['open', 'answered'], 'closed', 'staff', staffId, now, { closed_at: now, closed_by: 'staff' }))) {
      throw new ApiError(Status.TICKET_STATE, 'ticketAlreadyClosed');
    }
    return reread(ctx, trx, ticketId);
  });
}
