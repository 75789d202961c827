import type { Kysely, Migration } from 'kysely';
import type { Db } from '../database.ts';

/**
 * Video and 3D collectibles: `projects.media_kind` ('image' | 'video' | 'model') and
 * `projects.media_key` (the storage key of the release's artwork media, a `public/media/…` upload).
 * The poster of a video or model is the existing cover image. Both NULL (every existing release):
 * the release is shown by its cover image as before. Same DDL on SQLite and PostgreSQL.
 */
export function migration(_db: Db): Migration {
  return {
    async up(k: Kysely<any>) {
      await k.schema.alterTable('projects').addColumn('media_kind', 'varchar(8)').execute();
      await k.schema.alterTable('projects').addColumn('media_key', 'varchar(200)').execute();
    },
    async down(k: Kysely<any>) {
      await k.schema.alterTable('projects').dropColumn('media_key').execute();
      await k.schema.alterTable('projects').dropColumn('media_kind').execute();
    },
  };
}
