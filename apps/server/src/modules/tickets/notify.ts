import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';

/**
 * The hook point for telling a user that customer service answered: called by replyTicket inside
 * its transaction, after the reply is stored. The user always sees the reply in the ticket list
 * (unread dot, `user_unread`) and in the personal-center menu's indicator (POST …/ticket/unread);
 * a message-center notice is added here once modules/messages offers one (see docs/api.md).
 */
export async function notifyStaffReply(_ctx: AppContext, _trx: Q, _ticket: { id: number; userId: number; subject: string }): Promise<void> {
  // No message center yet: the unread counters above are the notification.
}
