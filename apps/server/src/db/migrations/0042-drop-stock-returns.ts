import { sql, type Kysely, type Migration } from 'kysely';
import type { Db } from '../database.ts';
import { serialId } from '../serial-id.ts';

/**
 * `drop_stock_returns`: units of a release given back by unpaid drop orders that closed (cancelled,
 * expired), not yet folded into its `drop_stock` row (modules/drops/stock.ts).
 *
 * On PostgreSQL the transaction that closes an order wrote `taken = taken - n` on the release's
 * stock row and held that row until its COMMIT came back from a busy server process, while every
 * reservation batch of every process queued behind it (bench/drop.ts: a give-back 48 ms a call, a
 * reservation batch 29 ms, most of it waiting for the row). The closing transaction now inserts a
 * row here — a row of its own, which nothing waits for — and once it has committed, one statement
 * (autocommit, no round trip inside) deletes the release's pending rows and subtracts their sum
 * from `taken`; a periodic sweep folds what a crash between the two left. SQLite keeps the direct
 * update: there every transaction runs alone anyway. Same DDL on both.
 *
 * `drop_stock.taken >= 0` becomes a CHECK on PostgreSQL, so a fold that would drive it below zero
 * fails whole (its rows stay) instead of deleting returns it did not count.
 */
export function migration(db: Db): Migration {
  const id = serialId(db);
  return {
    async up(k: Kysely<any>) {
      await k.schema
        .createTable('drop_stock_returns')
        .addColumn('id', id.type, id.pk)
        .addColumn('project_id', 'bigint', (c) => c.notNull())
        .addColumn('units', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('drop_stock_returns_project').on('drop_stock_returns').column('project_id').execute();
      if (db.dialect === 'postgres') await sql`alter table drop_stock add constraint drop_stock_taken_nonneg check (taken >= 0)`.execute(k);
    },
    async down(k: Kysely<any>) {
      if (db.dialect === 'postgres') await sql`alter table drop_stock drop constraint if exists drop_stock_taken_nonneg`.execute(k);
      await k.schema.dropTable('drop_stock_returns').ifExists().execute();
    },
  };
}
