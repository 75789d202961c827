import { sql, type Kysely, type Migration } from 'kysely';
import type { Db } from '../database.ts';
import { serialId } from '../serial-id.ts';

/**
 * Security and privacy of the personal center (issue #11):
 * - `sessions` gain a public id (`sid`, what the session list shows and revoke takes — never the
 *   token hash), the user agent and IP captured at login, and `last_seen_at` (touched at most once
 *   a minute by the session check). Existing sessions get a random sid and last_seen_at = created_at;
 * - `users.cancelled_at`: when the account was anonymised after a cancellation;
 * - `privacy_settings`: the privacy switches (no row = the defaults, both on);
 * - `security_events`: the security log (password / phone changed, sessions revoked, cancellation,
 *   data export), with the client's IP and user agent, never a secret;
 * - `mobile_change_tickets`: step 1 of a phone change (the current phone proved by its security
 *   code), hashed, short-lived, single use, bound to the user, the old phone and the new phone;
 * - `account_cancellations`: requests with their cooling-off period; at most one `cooling` per user;
 * - `data_exports`: personal-data export links (hashed token, short-lived), one per day per user.
 * Same DDL on SQLite and PostgreSQL; times epoch ms.
 */
export function migration(db: Db): Migration {
  const id = serialId(db);
  const sqlite = db.dialect === 'sqlite';
  return {
    async up(k: Kysely<any>) {
      await k.schema.alterTable('sessions').addColumn('sid', 'varchar(32)').execute();
      await k.schema.alterTable('sessions').addColumn('user_agent', 'varchar(300)').execute();
      await k.schema.alterTable('sessions').addColumn('ip', 'varchar(64)').execute();
      await k.schema.alterTable('sessions').addColumn('last_seen_at', 'bigint').execute();
      // A random public id for every existing session (32 hex characters, like new ones).
      if (sqlite) await sql`update sessions set sid = lower(hex(randomblob(16))), last_seen_at = created_at`.execute(k);
      else await sql`update sessions set sid = md5(token_hash || random()::text || clock_timestamp()::text), last_seen_at = created_at`.execute(k);
      await k.schema.createIndex('sessions_sid').on('sessions').column('sid').unique().execute();

      await k.schema.alterTable('users').addColumn('cancelled_at', 'bigint').execute();

      await k.schema
        .createTable('privacy_settings')
        .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id'))
        .addColumn('show_collection', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('personalized_recommend', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await k.schema
        .createTable('security_events')
        .addColumn('id', id.type, id.pk)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('kind', 'varchar(32)', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)')
        .addColumn('user_agent', 'varchar(300)')
        /** JSON without secrets or clear personal data (masked phones, counts). */
        .addColumn('detail', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('security_events_user').on('security_events').columns(['user_id', 'id']).execute();
      await k.schema.createIndex('security_events_kind').on('security_events').columns(['user_id', 'kind', 'created_at']).execute();

      await k.schema
        .createTable('mobile_change_tickets')
        .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('old_mobile', 'varchar(20)', (c) => c.notNull())
        /** The number the last type-5 code went to; step 3 must name the same. */
        .addColumn('new_mobile', 'varchar(20)')
        .addColumn('sends', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await k.schema.createIndex('mobile_change_tickets_user').on('mobile_change_tickets').columns(['user_id', 'created_at']).execute();

      await k.schema
        .createTable('account_cancellations')
        .addColumn('id', id.type, id.pk)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        /** cooling → revoked (by the user) | blocked (assets found at the end) | done (anonymised) */
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('requested_at', 'bigint', (c) => c.notNull())
        .addColumn('effective_at', 'bigint', (c) => c.notNull())
        .addColumn('closed_at', 'bigint')
        /** blocked: JSON array of {kind, count, amountFen}. */
        .addColumn('blockers', 'text')
        .execute();
      await sql`create unique index account_cancellations_one_cooling on account_cancellations (user_id) where status = 'cooling'`.execute(k);
      await k.schema.createIndex('account_cancellations_user').on('account_cancellations').columns(['user_id', 'id']).execute();
      await k.schema.createIndex('account_cancellations_due').on('account_cancellations').columns(['status', 'effective_at']).execute();

      await k.schema
        .createTable('data_exports')
        .addColumn('id', id.type, id.pk)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        /** 1: the owner proved a fresh security code, the export holds the full name and ID number. */
        .addColumn('include_id', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('downloads', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('data_exports_user').on('data_exports').columns(['user_id', 'created_at']).execute();
    },
    async down(k: Kysely<any>) {
      await k.schema.dropTable('data_exports').execute();
      await k.schema.dropTable('account_cancellations').execute();
      await k.schema.dropTable('mobile_change_tickets').execute();
      await k.schema.dropTable('security_events').execute();
      await k.schema.dropTable('privacy_settings').execute();
      await k.schema.dropIndex('sessions_sid').execute();
      for (const c of ['sid', 'user_agent', 'ip', 'last_seen_at']) await k.schema.alterTable('sessions').dropColumn(c).execute();
      await k.schema.alterTable('users').dropColumn('cancelled_at').execute();
    },
  };
}
