import type { Kysely, Migration } from 'kysely';
import type { Db } from '../database.ts';

/**
 * Royalties per release: `projects.royalty_permille` is the creator's royalty on every resale of the
 * release's collectibles, 0–100 per mille (0–10 %); NULL = the platform default (ROYALTY_PERMILLE).
 * Only adds a nullable column (NULL for every existing release); same DDL on SQLite and PostgreSQL.
 */
export function migration(_db: Db): Migration {
  return {
    async up(k: Kysely<any>) {
      await k.schema.alterTable('projects').addColumn('royalty_permille', 'integer').execute();
    },
    async down(k: Kysely<any>) {
      await k.schema.alterTable('projects').dropColumn('royalty_permille').execute();
    },
  };
}
