import { sql, type Kysely, type Migration } from 'kysely';
import type { Db } from '../database.ts';

/**
 * A partial index of burned collectibles (opened boxes, composed fragments, refunded drop units), so
 * the search index can keep them out of its results by reading only those rows each refresh
 * (modules/search/search-index.ts). Same DDL on SQLite and PostgreSQL (both have partial indexes).
 */
export function migration(_db: Db): Migration {
  return {
    async up(k: Kysely<any>) {
      await k.schema.createIndex('goods_burned_idx').on('goods').column('id').where(sql.ref('status'), '=', 'burned').execute();
    },
    async down(k: Kysely<any>) {
      await k.schema.dropIndex('goods_burned_idx').execute();
    },
  };
}
