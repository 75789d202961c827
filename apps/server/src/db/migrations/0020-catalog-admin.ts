import type { Kysely, Migration } from 'kysely';
import type { Db } from '../database.ts';

/**
 * The console's catalogue and content editors (issue #11, modules/admin/catalog, docs/admin.md):
 * - `news.draft`: 1 = a draft or an unpublished item, never shown on the site (0 for every
 *   existing item); `news.updated_at`: the last edit in the console;
 * - `banners.start_at` / `banners.end_at`: the banner's active window (null = unbounded), applied
 *   by the public banner calls together with `active`.
 * Same DDL on SQLite and PostgreSQL.
 */
export function migration(_db: Db): Migration {
  return {
    async up(k: Kysely<any>) {
      await k.schema.alterTable('news').addColumn('draft', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await k.schema.alterTable('news').addColumn('updated_at', 'bigint').execute();
      await k.schema.alterTable('banners').addColumn('start_at', 'bigint').execute();
      await k.schema.alterTable('banners').addColumn('end_at', 'bigint').execute();
    },
    async down(k: Kysely<any>) {
      await k.schema.alterTable('banners').dropColumn('end_at').execute();
      await k.schema.alterTable('banners').dropColumn('start_at').execute();
      await k.schema.alterTable('news').dropColumn('updated_at').execute();
      await k.schema.alterTable('news').dropColumn('draft').execute();
    },
  };
}
