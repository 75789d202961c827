import { sql, type Kysely, type Migration } from 'kysely';
import type { Db } from '../database.ts';

/**
 * The consignment market's indexes of `orders` — by listing, by collectible (with the status) and by
 * settlement transaction — become partial: only orders that have the column set. A drop order has
 * none of the three, yet each drop order was entered in all three, and on PostgreSQL its every
 * status change (paid, settling, completed: the status is indexed, so no update is HOT) entered it
 * again: three of the ten index entries a drop order writes per row version. Every query of these
 * columns compares them with `=`, `in` or a join, which implies `is not null`, so both databases
 * still use the indexes for them (test/orders-indexes.test.ts checks the plans).
 */
const INDEXES: [name: string, columns: string[]][] = [
  ['orders_listing', ['listing_id']],
  ['orders_goods', ['goods_id', 'status']],
  ['orders_chain_tx', ['chain_tx_id']],
];

export function migration(_db: Db): Migration {
  return {
    async up(k: Kysely<any>) {
      for (const [name, columns] of INDEXES) {
        await k.schema.dropIndex(name).execute();
        await k.schema.createIndex(name).on('orders').columns(columns).where(sql.ref(columns[0]!), 'is not', null).execute();
      }
    },
    async down(k: Kysely<any>) {
      for (const [name, columns] of INDEXES) {
        await k.schema.dropIndex(name).execute();
        await k.schema.createIndex(name).on('orders').columns(columns).execute();
      }
    },
  };
}
