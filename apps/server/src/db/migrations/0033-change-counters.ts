import { sql, type Kysely, type Migration } from 'kysely';
import type { Db } from '../database.ts';

/**
 * SQLite only: per-table change counters for the change feed (db/change-feed.ts), the SQLite
 * counterpart of migration 0032's NOTIFY triggers. Another connection's commit (another server
 * process, the worker lease's own connection, a plain SQL client) shows only as a new `PRAGMA
 * data_version`, which says nothing about *what* changed: the lease's renewal every few seconds
 * made every process forget its whole session and trading-gate caches. These triggers count the
 * changes of what those caches keep — a session revoked or its expiry moved, a user's gate columns
 * or freeze, a real-name row — so that on a new data_version the feed reads the counters and
 * forgets only what moved. One row per table; a trigger adds one per changed row.
 */
const counted: [string, string][] = [
  ['users_changed_count', 'after update of is_realname, wallet_address, frozen_at, account_id, nickname on users'],
  ['users_deleted_count', 'after delete on users'],
  ['realname_inserted_count', 'after insert on realname'],
  ['realname_changed_count', 'after update on realname'],
  ['realname_deleted_count', 'after delete on realname'],
  ['sessions_changed_count', 'after update of revoked_at, expires_at, user_id on sessions'],
  ['sessions_deleted_count', 'after delete on sessions'],
];
/** The table a trigger counts: the word after the last " on ". */
const tableOf = (when: string) => when.slice(when.lastIndexOf(' on ') + 4);

export function migration(db: Db): Migration {
  return {
    async up(k: Kysely<any>) {
      if (db.dialect !== 'sqlite') return;
      await sql`create table change_counters (tbl text primary key, n integer not null default 0)`.execute(k);
      for (const t of new Set(counted.map(([, when]) => tableOf(when)))) await sql`insert into change_counters (tbl, n) values (${t}, 0)`.execute(k);
      for (const [name, when] of counted) {
        await sql.raw(`create trigger ${name} ${when} begin update change_counters set n = n + 1 where tbl = '${tableOf(when)}'; end`).execute(k);
      }
    },
    async down(k: Kysely<any>) {
      if (db.dialect !== 'sqlite') return;
      for (const [name] of counted) await sql.raw(`drop trigger if exists ${name}`).execute(k);
      await sql`drop table if exists change_counters`.execute(k);
    },
  };
}
