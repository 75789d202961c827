import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Q } from '../../db/tx.ts';

/**
 * "Something changed in this user's messages" — how a new message or a read reaches the SSE
 * streams (stream-hub.ts), whichever process holds them.
 *
 * PostgreSQL: `pg_notify('cfx_messages', '<userId>')` inside the caller's transaction. PostgreSQL
 * delivers a notification only when that transaction commits (never on rollback) to every session
 * that LISTENs on the channel — each server process holds one such connection. So a stream held by
 * another process learns of the message as soon as it is visible.
 *
 * SQLite (one process by design): an in-process emitter per database. The signal is emitted on the
 * next turn of the event loop; the hub then reads the user's messages through Kysely, whose single
 * SQLite connection is held by the caller's transaction until it commits or rolls back — so the
 * read sees the committed state: the new message, or (rolled back) nothing new, and then nothing
 * is pushed.
 */
export const MESSAGE_CHANNEL = 'cfx_messages';

const buses = new WeakMap<Db, EventEmitter>();

/** The in-process signal emitter of a SQLite database (event 'user', argument the user id). */
export function localBus(db: Db): EventEmitter {
  let bus = buses.get(db);
  if (!bus) {
    bus = new EventEmitter();
    bus.setMaxListeners(0);
    buses.set(db, bus);
  }
  return bus;
}

export async function signalUser(db: Db, q: Q, userId: number): Promise<void> {
  await signalUsers(db, q, [userId]);
}

/** signalUser for several users at once: on PostgreSQL one statement (a notice batch of a hundred buyers was a hundred round trips). */
export async function signalUsers(db: Db, q: Q, userIds: readonly number[]): Promise<void> {
  if (!userIds.length) return;
  if (db.dialect === 'postgres') {
    await sql`select pg_notify(${MESSAGE_CHANNEL}, u) from unnest(${userIds.map(String)}::text[]) as u`.execute(q);
    return;
  }
  const bus = localBus(db);
  setImmediate(() => {
    for (const id of userIds) bus.emit('user', id);
  });
}
