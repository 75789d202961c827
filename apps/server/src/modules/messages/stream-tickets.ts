import type { AppContext } from '../../context.ts';
import { randomToken, sha256 } from '../../util/crypto.ts';
import './tables.ts';

/**
 * Stream tickets: EventSource cannot send the token header, and the session token must never be in
 * a URL (logs, history, Referer). An authenticated POST gets a random ticket (stored hashed), valid
 * for MessagesConfig.ticketTtlMs and usable once; the stream's GET carries it. The ticket is bound
 * to the session that asked for it, and the stream ends when that session does.
 */
export async function issueStreamTicket(ctx: AppContext, userId: number, sessionToken: string) {
  const k = ctx.db.kysely;
  const now = ctx.now();
  const s = await k.selectFrom('sessions').select('sid').where('token_hash', '=', sha256(sessionToken)).where('user_id', '=', userId).executeTakeFirstOrThrow();
  const ticket = randomToken(24);
  const ttl = ctx.config.messages.ticketTtlMs;
  await k.insertInto('message_stream_tickets').values({ token_hash: sha256(ticket), user_id: userId, session_sid: s.sid!, created_at: now, expires_at: now + ttl, used_at: null }).execute();
  return { ticket, expiresInMs: ttl };
}

/** Uses a ticket (once): the user and session it was issued to, if it is unused, unexpired and its session still live. */
export async function consumeStreamTicket(ctx: AppContext, ticket: string): Promise<{ userId: number; sid: string } | undefined> {
  if (ticket.length > 200) return undefined;
  const k = ctx.db.kysely;
  const now = ctx.now();
  const row = await k
    .updateTable('message_stream_tickets')
    .set({ used_at: now })
    .where('token_hash', '=', sha256(ticket))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'session_sid'])
    .executeTakeFirst();
  if (!row) return undefined;
  const live = await k.selectFrom('sessions').select('sid').where('sid', '=', row.session_sid).where('revoked_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return live ? { userId: Number(row.user_id), sid: row.session_sid } : undefined;
}

/** Drops tickets that expired over an hour ago (the sweep). */
export async function purgeStreamTickets(ctx: AppContext): Promise<void> {
  await ctx.db.kysely.deleteFrom('message_stream_tickets').where('expires_at', '<', ctx.now() - 3600_000).execute();
}
