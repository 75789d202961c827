import { sql, type Kysely, type Migration } from 'kysely';
import type { Db } from '../database.ts';

/**
 * PostgreSQL only: the change triggers of the change feed (db/change-feed.ts). A change to what the
 * session and trading-gate caches keep — a session revoked or its expiry moved, a user's real-name
 * flag, wallet, freeze, account id or nickname, a real-name row — sends `NOTIFY cfx_table_changed,
 * '<table>'` at COMMIT, whichever connection or process made it; every server process listens and
 * forgets its cached rows. One notification per statement (and PostgreSQL folds repeats within a
 * transaction). The session's last-seen time, updated on use, fires nothing. SQLite needs no trigger:
 * there another process's commit shows in `PRAGMA data_version`.
 */
export function migration(db: Db): Migration {
  const triggers: [string, string][] = [
    ['users', 'after update of is_realname, wallet_address, frozen_at, account_id, nickname or delete on users'],
    ['realname', 'after insert or update or delete on realname'],
    ['sessions', 'after update of revoked_at, expires_at, user_id or delete on sessions'],
  ];
  return {
    async up(k: Kysely<any>) {
      if (db.dialect !== 'postgres') return;
      await sql`create or replace function cfx_notify_table_changed() returns trigger language plpgsql as $$
        begin
          perform pg_notify('cfx_table_changed', TG_TABLE_NAME);
          return null;
        end $$`.execute(k);
      for (const [table, when] of triggers) {
        await sql.raw(`create trigger ${table}_changed_notify ${when} for each statement execute function cfx_notify_table_changed()`).execute(k);
      }
    },
    async down(k: Kysely<any>) {
      if (db.dialect !== 'postgres') return;
      for (const [table] of triggers) await sql.raw(`drop trigger if exists ${table}_changed_notify on ${table}`).execute(k);
      await sql`drop function if exists cfx_notify_table_changed()`.execute(k);
    },
  };
}
