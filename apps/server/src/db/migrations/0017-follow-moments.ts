import type { Kysely, Migration } from 'kysely';
import type { Db } from '../database.ts';
import { serialId } from '../serial-id.ts';

/**
 * Follow and creators' moments (issue #11, modules/creators):
 * - `follows`: who follows which creator, one row per pair (the primary key makes a second follow a
 *   no-op, also when two requests race);
 * - `creator_stats`: the follower count of each creator, changed in the same transaction as the
 *   follows row that changes it (+1 only when a row was inserted, −1 only when one was deleted);
 *   a creator without a row has no followers;
 * - `follow_events`: every follow / unfollow call (also the no-op ones), the per-user rate limit
 *   counts them; an audit of who followed when;
 * - `creator_moments`: a creator's posts (sanitised HTML and its plain text), soft-deleted;
 * - `creator_moment_images`: up to 9 images per moment, each one of the creator's own uploads, with
 *   its URL and pixel size as read from the stored file when the moment was posted.
 * Same DDL on SQLite and PostgreSQL; times epoch ms.
 */
export function migration(db: Db): Migration {
  const id = serialId(db);
  return {
    async up(k: Kysely<any>) {
      await k.schema
        .createTable('follows')
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('creator_id', 'bigint', (c) => c.notNull().references('creators.id'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('follows_pk', ['user_id', 'creator_id'])
        .execute();
      // My follow list, newest first; a creator's followers.
      await k.schema.createIndex('follows_user_time').on('follows').columns(['user_id', 'created_at']).execute();
      await k.schema.createIndex('follows_creator').on('follows').columns(['creator_id', 'created_at']).execute();

      await k.schema
        .createTable('creator_stats')
        .addColumn('creator_id', 'bigint', (c) => c.primaryKey().references('creators.id'))
        .addColumn('followers', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await k.schema
        .createTable('follow_events')
        .addColumn('id', id.type, id.pk)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('creator_id', 'bigint', (c) => c.notNull().references('creators.id'))
        /** 1 follow, 0 unfollow */
        .addColumn('follow', 'integer', (c) => c.notNull())
        /** 1 when the call changed the state, 0 for a repeated call */
        .addColumn('changed', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('follow_events_user_time').on('follow_events').columns(['user_id', 'created_at']).execute();

      await k.schema
        .createTable('creator_moments')
        .addColumn('id', id.type, id.pk)
        .addColumn('creator_id', 'bigint', (c) => c.notNull().references('creators.id'))
        .addColumn('author_user_id', 'bigint', (c) => c.notNull().references('users.id'))
        /** Sanitised on write (modules/creators/moment-html.ts). */
        .addColumn('content_html', 'text', (c) => c.notNull())
        .addColumn('content_text', 'text', (c) => c.notNull())
        .addColumn('image_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('deleted_at', 'bigint')
        .execute();
      // A creator's moments newest first (and the daily cap's count); the feed joins follows on creator_id.
      await k.schema.createIndex('creator_moments_creator').on('creator_moments').columns(['creator_id', 'id']).execute();
      await k.schema.createIndex('creator_moments_creator_time').on('creator_moments').columns(['creator_id', 'created_at']).execute();

      await k.schema
        .createTable('creator_moment_images')
        .addColumn('moment_id', 'bigint', (c) => c.notNull().references('creator_moments.id'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('upload_id', 'bigint', (c) => c.notNull().references('uploads.id'))
        .addColumn('url', 'varchar(400)', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('creator_moment_images_pk', ['moment_id', 'position'])
        .execute();
    },
    async down(k: Kysely<any>) {
      for (const t of ['creator_moment_images', 'creator_moments', 'follow_events', 'creator_stats', 'follows']) {
        await k.schema.dropTable(t).execute();
      }
    },
  };
}
