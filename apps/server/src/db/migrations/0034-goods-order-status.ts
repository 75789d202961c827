import { type Kysely, type Migration } from 'kysely';
import type { Db } from '../database.ts';

/**
 * The goods of a drop order by their chain status: one index on (drop_order_no, chain_status)
 * instead of the one on drop_order_no alone. The drop completion (complete-drop-order.ts) asks per
 * order "are all its goods minted, which is its last mint" — during a drop, thousands of times a
 * second, on tables that grew from nothing within the minute, so PostgreSQL's statistics are
 * stale. With only single-column indexes it combined goods_drop_order with goods_chain_status
 * (a bitmap AND reading every pending or minted row of the whole table per order): the completion
 * sweep and the completion UPDATE took 215–320 ms on average (up to 1.6 s) in bench/drop.ts on
 * PostgreSQL: ≈ 25 s of the database's time in a 70 s run. The two-column index answers each question with one index probe; it also serves every
 * lookup by drop_order_no alone, so the old index goes.
 */
export function migration(_db: Db): Migration {
  return {
    async up(k: Kysely<any>) {
      await k.schema.createIndex('goods_drop_order_status').on('goods').columns(['drop_order_no', 'chain_status']).execute();
      await k.schema.dropIndex('goods_drop_order').execute();
    },
    async down(k: Kysely<any>) {
      await k.schema.createIndex('goods_drop_order').on('goods').column('drop_order_no').execute();
      await k.schema.dropIndex('goods_drop_order_status').execute();
    },
  };
}
