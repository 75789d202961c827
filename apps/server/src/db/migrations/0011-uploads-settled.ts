import { sql, type Kysely, type Migration } from 'kysely';
import type { Db } from '../database.ts';
import { serialId } from '../serial-id.ts';

/**
 * Uploads and project applications (issue #11):
 * - `uploads`: one row per stored file (the bytes live in the storage provider under `key`), with
 *   the sniffed content type, size, SHA-256 and the sanitised original name (metadata only);
 * - `settled_applications`: the project application form, status submitted → reviewing →
 *   approved | rejected; a partial unique index keeps one open (submitted or reviewing) per user;
 * - `settled_application_files`: the uploads attached to an application (artwork / qualification);
 * - `settled_application_events`: every status change, by whom, with the reason.
 * Same DDL on SQLite and PostgreSQL; times epoch ms, money integer fen.
 */
export function migration(db: Db): Migration {
  const id = serialId(db);
  return {
    async up(k: Kysely<any>) {
      await k.schema
        .createTable('uploads')
        .addColumn('id', id.type, id.pk)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('key', 'varchar(200)', (c) => c.notNull().unique())
        /** image | document */
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('content_type', 'varchar(100)', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
        .addColumn('original_name', 'varchar(255)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      // The per-user daily quota sums this user's recent rows.
      await k.schema.createIndex('uploads_user_time').on('uploads').columns(['user_id', 'created_at']).execute();

      await k.schema
        .createTable('settled_applications')
        .addColumn('id', id.type, id.pk)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('project_name', 'varchar(160)', (c) => c.notNull())
        .addColumn('creator_name', 'varchar(160)', (c) => c.notNull())
        .addColumn('category', 'varchar(16)', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('supply', 'bigint', (c) => c.notNull())
        .addColumn('price_fen', 'bigint', (c) => c.notNull())
        .addColumn('contact_name', 'varchar(80)', (c) => c.notNull())
        .addColumn('mobile', 'varchar(11)', (c) => c.notNull())
        .addColumn('email', 'varchar(100)', (c) => c.notNull())
        /** submitted → reviewing → approved | rejected */
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('reject_reason', 'varchar(2000)')
        .addColumn('reviewed_by', 'bigint', (c) => c.references('users.id'))
        .addColumn('reviewed_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      // One open application per user, whatever two parallel submits do.
      await sql`create unique index settled_one_open on settled_applications (user_id) where status in ('submitted', 'reviewing')`.execute(k);
      await k.schema.createIndex('settled_user').on('settled_applications').columns(['user_id', 'id']).execute();
      await k.schema.createIndex('settled_status').on('settled_applications').columns(['status', 'id']).execute();

      await k.schema
        .createTable('settled_application_files')
        .addColumn('application_id', 'bigint', (c) => c.notNull().references('settled_applications.id'))
        .addColumn('upload_id', 'bigint', (c) => c.notNull().references('uploads.id'))
        /** artwork | qualification */
        .addColumn('role', 'varchar(16)', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('settled_application_files_pk', ['application_id', 'upload_id'])
        .execute();

      await k.schema
        .createTable('settled_application_events')
        .addColumn('id', id.type, id.pk)
        .addColumn('application_id', 'bigint', (c) => c.notNull().references('settled_applications.id'))
        .addColumn('from_status', 'varchar(16)')
        .addColumn('to_status', 'varchar(16)', (c) => c.notNull())
        .addColumn('actor_user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('reason', 'varchar(2000)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('settled_events_app').on('settled_application_events').columns(['application_id', 'id']).execute();
    },
    async down(k: Kysely<any>) {
      await k.schema.dropTable('settled_application_events').execute();
      await k.schema.dropTable('settled_application_files').execute();
      await k.schema.dropTable('settled_applications').execute();
      await k.schema.dropTable('uploads').execute();
    },
  };
}
