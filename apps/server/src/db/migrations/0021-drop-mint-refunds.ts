import type { Kysely, Migration } from 'kysely';
import type { Db } from '../database.ts';

/**
 * Drop units that can never be minted are refunded (modules/drops/refund-undeliverable.ts, docs/drops.md
 * "Units that cannot be minted"):
 * - `goods.mint_failures` / `goods.mint_failed_at`: failed single mints of a pending collectible and
 *   when the last one failed (business time; the next try waits a minute); the mint job gives up on
 *   a drop unit after DROP_MINT_MAX_FAILURES and refunds it;
 * - `drop_stock.voided`: units whose serials were allocated to a paid order but which were refunded
 *   instead of minted — still taken (their serials and token ids are used up), no longer sold.
 * Only adds columns (0 for every existing row); same DDL on SQLite and PostgreSQL.
 */
export function migration(_db: Db): Migration {
  return {
    async up(k: Kysely<any>) {
      await k.schema.alterTable('goods').addColumn('mint_failures', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await k.schema.alterTable('goods').addColumn('mint_failed_at', 'bigint').execute();
      await k.schema.alterTable('drop_stock').addColumn('voided', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
    async down(k: Kysely<any>) {
      await k.schema.alterTable('drop_stock').dropColumn('voided').execute();
      await k.schema.alterTable('goods').dropColumn('mint_failed_at').execute();
      await k.schema.alterTable('goods').dropColumn('mint_failures').execute();
    },
  };
}
