import type { Kysely, Migration } from 'kysely';
import type { Db } from '../database.ts';
import { serialId } from '../serial-id.ts';

/** Chain state: settings (contract addresses, next nonce, indexer checkpoint), the operator's durable transaction queue and the indexed chain records. */
export function migration(db: Db): Migration {
  const id = serialId(db);
  return {
    async up(k: Kysely<any>) {
      await k.schema
        .createTable('chain_meta')
        .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
      await k.schema
        .createTable('chain_txs')
        .addColumn('id', id.type, id.pk)
        .addColumn('idempotency_key', 'varchar(200)', (c) => c.notNull().unique())
        .addColumn('kind', 'varchar(32)', (c) => c.notNull())
        .addColumn('to_address', 'varchar(80)', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('nonce', 'bigint')
        .addColumn('tx_hash', 'varchar(80)')
        .addColumn('raw_tx', 'text')
        .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('rounds', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_check_at', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('outcome_status', 'integer')
        .addColumn('epoch', 'bigint')
        .addColumn('error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('sent_at', 'bigint')
        .addColumn('done_at', 'bigint')
        .execute();
      await k.schema.createIndex('chain_txs_status').on('chain_txs').columns(['status', 'id']).execute();
      await k.schema
        .createTable('chain_records')
        .addColumn('id', id.type, id.pk)
        .addColumn('tx_hash', 'varchar(80)', (c) => c.notNull())
        .addColumn('log_index', 'integer', (c) => c.notNull())
        .addColumn('epoch', 'bigint', (c) => c.notNull())
        .addColumn('block_time', 'bigint', (c) => c.notNull())
        .addColumn('contract', 'varchar(80)', (c) => c.notNull())
        .addColumn('event', 'varchar(32)', (c) => c.notNull())
        .addColumn('from_address', 'varchar(80)')
        .addColumn('to_address', 'varchar(80)')
        .addColumn('token_id', 'varchar(80)')
        .addColumn('data', 'text', (c) => c.notNull())
        .addUniqueConstraint('chain_records_log', ['tx_hash', 'log_index'])
        .execute();
      await k.schema.createIndex('chain_records_token').on('chain_records').columns(['contract', 'token_id', 'epoch']).execute();
    },
    async down(k: Kysely<any>) {
      for (const t of ['chain_records', 'chain_txs', 'chain_meta']) await k.schema.dropTable(t).ifExists().execute();
    },
  };
}
