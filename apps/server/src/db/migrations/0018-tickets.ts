import type { Kysely, Migration } from 'kysely';
import type { Db } from '../database.ts';
import { serialId } from '../serial-id.ts';

/**
 * Customer-service tickets (issue #11, modules/tickets):
 * - `tickets`: one conversation of a user with customer service — category, subject, an optional
 *   related order of the user's, status open → answered → closed (reopenable for a while), the
 *   number of staff replies the user has not opened (`user_unread`), who closed it and when;
 * - `ticket_messages`: the thread, written by the user or by staff (`author_user_id` is the staff
 *   member's user id, never shown to the user);
 * - `ticket_attachments`: the user's uploads (private images) attached to a message; an upload is
 *   attached at most once (unique upload_id);
 * - `ticket_events`: every status change, by whom and when (the admin console's audit trail).
 * Same DDL on SQLite and PostgreSQL; times epoch ms.
 */
export function migration(db: Db): Migration {
  const id = serialId(db);
  return {
    async up(k: Kysely<any>) {
      await k.schema
        .createTable('tickets')
        .addColumn('id', id.type, id.pk)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('category', 'varchar(16)', (c) => c.notNull())
        .addColumn('subject', 'varchar(200)', (c) => c.notNull())
        .addColumn('order_no', 'varchar(64)')
        /** open | answered | closed */
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('user_unread', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_message_at', 'bigint', (c) => c.notNull())
        .addColumn('closed_at', 'bigint')
        /** user | staff */
        .addColumn('closed_by', 'varchar(8)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      // My tickets by latest activity; the daily cap counts my recent ones; the staff queue by status.
      await k.schema.createIndex('tickets_user_activity').on('tickets').columns(['user_id', 'last_message_at']).execute();
      await k.schema.createIndex('tickets_user_created').on('tickets').columns(['user_id', 'created_at']).execute();
      await k.schema.createIndex('tickets_status').on('tickets').columns(['status', 'last_message_at']).execute();

      await k.schema
        .createTable('ticket_messages')
        .addColumn('id', id.type, id.pk)
        .addColumn('ticket_id', 'bigint', (c) => c.notNull().references('tickets.id'))
        /** user | staff */
        .addColumn('author', 'varchar(8)', (c) => c.notNull())
        .addColumn('author_user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('ticket_messages_ticket').on('ticket_messages').columns(['ticket_id', 'id']).execute();
      // The per-user message cap counts this user's recent messages.
      await k.schema.createIndex('ticket_messages_author').on('ticket_messages').columns(['author_user_id', 'created_at']).execute();

      await k.schema
        .createTable('ticket_attachments')
        .addColumn('message_id', 'bigint', (c) => c.notNull().references('ticket_messages.id'))
        .addColumn('upload_id', 'bigint', (c) => c.notNull().references('uploads.id').unique())
        .addColumn('position', 'integer', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('ticket_attachments_message').on('ticket_attachments').columns(['message_id', 'position']).execute();

      await k.schema
        .createTable('ticket_events')
        .addColumn('id', id.type, id.pk)
        .addColumn('ticket_id', 'bigint', (c) => c.notNull().references('tickets.id'))
        .addColumn('from_status', 'varchar(16)')
        .addColumn('to_status', 'varchar(16)', (c) => c.notNull())
        /** user | staff */
        .addColumn('actor', 'varchar(8)', (c) => c.notNull())
        .addColumn('actor_user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('ticket_events_ticket').on('ticket_events').columns(['ticket_id', 'id']).execute();
    },
    async down(k: Kysely<any>) {
      await k.schema.dropTable('ticket_events').execute();
      await k.schema.dropTable('ticket_attachments').execute();
      await k.schema.dropTable('ticket_messages').execute();
      await k.schema.dropTable('tickets').execute();
    },
  };
}
