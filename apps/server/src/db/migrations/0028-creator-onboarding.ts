import type { Kysely, Migration } from 'kysely';
import type { Db } from '../database.ts';

/**
 * Creators onboarded and run from the console (docs/admin.md "Creators"):
 * - `disabled_at`: set by staff; a disabled creator is hidden from the public creator list, page
 *   and search, and no release can be created for them or moved to them (their collectibles stay
 *   tradable). NULL = enabled.
 * - `verified_at`: the verified mark (认证) shown on the public creator page and cards. NULL = not verified.
 * - `application_id`: the project application whose approval made this creator (NULL for creators
 *   made otherwise: demo data, the dev route, before this migration).
 * - `updated_at`: last console edit (NULL = never edited there).
 * Only nullable columns; same DDL on SQLite and PostgreSQL.
 */
export function migration(_db: Db): Migration {
  return {
    async up(k: Kysely<any>) {
      await k.schema.alterTable('creators').addColumn('disabled_at', 'bigint').execute();
      await k.schema.alterTable('creators').addColumn('verified_at', 'bigint').execute();
      await k.schema.alterTable('creators').addColumn('application_id', 'bigint').execute();
      await k.schema.alterTable('creators').addColumn('updated_at', 'bigint').execute();
    },
    async down(k: Kysely<any>) {
      for (const c of ['updated_at', 'application_id', 'verified_at', 'disabled_at']) await k.schema.alterTable('creators').dropColumn(c).execute();
    },
  };
}
