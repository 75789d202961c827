import { sql, type Kysely, type Migration } from 'kysely';
import type { Db } from '../database.ts';

/**
 * PostgreSQL only: the two batch functions (drop_reserve_batch, 0035; pay_balance_batch, 0036/0038)
 * run with `enable_seqscan = off`, so no plan they cache reads a table whole.
 *
 * PL/pgSQL caches each statement's plan per connection, and from a connection's sixth call keeps a
 * generic plan made for the tables' sizes at that moment. On a new site's first drop `orders` has a
 * few pages when the first payments arrive; the generic plan then reads it whole (cheaper than the
 * unique index on order_no for a table that small), and only an analyse replaces it — which
 * autovacuum does not run within a sale's seconds. In bench/drop.ts (auto_explain, 2 % of calls)
 * 8 of 42 sampled calls of pay_balance_batch read all of `orders` twice (the locking read and the
 * update to `paid`), ≈ 1,000 buffers and 2 ms each, while the table grew to 10,000 orders. Every
 * statement of both functions reaches its rows through a key (order numbers, the release's stock
 * row, an identity's quota, an account's balance), so a sequential scan is never the right plan in
 * them. test/pay-batch.test.ts checks it on a real server.
 */
const FUNCTIONS = ['drop_reserve_batch(bigint, bigint, jsonb)', 'pay_balance_batch(bigint, bigint, jsonb)'];

export function migration(db: Db): Migration {
  return {
    async up(k: Kysely<any>) {
      if (db.dialect !== 'postgres') return;
      for (const f of FUNCTIONS) await sql.raw(`alter function ${f} set enable_seqscan = off`).execute(k);
    },
    async down(k: Kysely<any>) {
      if (db.dialect !== 'postgres') return;
      for (const f of FUNCTIONS) await sql.raw(`alter function ${f} reset enable_seqscan`).execute(k);
    },
  };
}
