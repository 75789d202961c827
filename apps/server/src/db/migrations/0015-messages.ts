import { sql, type Kysely, type Migration } from 'kysely';
import type { Db } from '../database.ts';
import { serialId } from '../serial-id.ts';

/**
 * The message center (issue #11, modules/messages):
 * - `messages`: one row per notification of a user — kind, i18n template keys and JSON parameters
 *   (rendered in the reader's language when read), a site link, read_at; `dedupe_key` is unique
 *   per user, so a replayed event never makes a second message. `in_app` 0: the user switched the
 *   kind off in the message center (the row still exists for dedupe and the SMS); `sms_status`:
 *   null (no SMS) → pending → sending → sent | skipped | failed (exactly one SMS per message);
 * - `message_settings`: per user per kind, in-app and SMS switches (no row = the defaults);
 * - `message_stream_tickets`: single-use, short-lived tickets for the SSE stream (hashed), bound to
 *   the session that asked for them;
 * - `drop_reminders`: "remind me" subscriptions to a release's sale start, notified once;
 * - `sms_notice_outbox`: what the sandbox SMS provider "sent" (one row per message; masked phone).
 * Same DDL on SQLite and PostgreSQL; times epoch ms.
 */
export function migration(db: Db): Migration {
  const id = serialId(db);
  return {
    async up(k: Kysely<any>) {
      await k.schema
        .createTable('messages')
        .addColumn('id', id.type, id.pk)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('kind', 'varchar(24)', (c) => c.notNull())
        .addColumn('title_key', 'varchar(48)', (c) => c.notNull())
        .addColumn('body_key', 'varchar(48)', (c) => c.notNull())
        .addColumn('params', 'text', (c) => c.notNull())
        .addColumn('link', 'varchar(300)')
        .addColumn('in_app', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('read_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('dedupe_key', 'varchar(120)', (c) => c.notNull())
        .addColumn('sms_status', 'varchar(12)')
        .addColumn('sms_at', 'bigint')
        .execute();
      await k.schema.createIndex('messages_dedupe').on('messages').columns(['user_id', 'dedupe_key']).unique().execute();
      await k.schema.createIndex('messages_user').on('messages').columns(['user_id', 'in_app', 'id']).execute();
      await k.schema.createIndex('messages_user_kind').on('messages').columns(['user_id', 'kind', 'id']).execute();
      await sql`create index messages_unread on messages (user_id, kind) where read_at is null and in_app = 1`.execute(k);

      await k.schema
        .createTable('message_settings')
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('kind', 'varchar(24)', (c) => c.notNull())
        .addColumn('in_app', 'integer', (c) => c.notNull())
        .addColumn('sms', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('message_settings_pk', ['user_id', 'kind'])
        .execute();

      await k.schema
        .createTable('message_stream_tickets')
        .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('session_sid', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await k.schema.createIndex('message_stream_tickets_expiry').on('message_stream_tickets').column('expires_at').execute();

      await k.schema
        .createTable('drop_reminders')
        .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id'))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('notified_at', 'bigint')
        .addPrimaryKeyConstraint('drop_reminders_pk', ['project_id', 'user_id'])
        .execute();
      await sql`create index drop_reminders_due on drop_reminders (project_id) where notified_at is null`.execute(k);
      await k.schema.createIndex('drop_reminders_user').on('drop_reminders').columns(['user_id', 'project_id']).execute();

      await k.schema
        .createTable('sms_notice_outbox')
        .addColumn('id', id.type, id.pk)
        .addColumn('message_id', 'bigint', (c) => c.notNull().unique())
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('mobile_masked', 'varchar(20)', (c) => c.notNull())
        .addColumn('template', 'varchar(32)', (c) => c.notNull())
        .addColumn('text', 'varchar(500)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(k: Kysely<any>) {
      for (const t of ['sms_notice_outbox', 'drop_reminders', 'message_stream_tickets', 'message_settings', 'messages']) await k.schema.dropTable(t).execute();
    },
  };
}
