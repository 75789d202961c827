import type { Kysely, Migration } from 'kysely';

/**
 * Issue #9, safe by default on the consignment market:
 * - `listings.chain_cancelled_at`: when the chain was seen to have cancelled the listing's signed
 *   order (`Exchange.cancelOrder`, from the indexer's OrderCancelled events or a read of
 *   `sellerOrderIdState`). A seller can list a collectible again only once every earlier signed
 *   order of it is filled or cancelled on chain, so an old signature can never fill.
 * - `orders.closed_by`: why an unpaid order closed — `buyer` (cancelled by the buyer), `expiry`
 *   (not paid in time) or null (the listing became invalid, …). The first two count for the
 *   buyer's re-order cooldown and daily cap. Existing rows are backfilled.
 */
export function migration(): Migration {
  return {
    async up(k: Kysely<any>) {
      await k.schema.alterTable('listings').addColumn('chain_cancelled_at', 'bigint').execute();
      await k.schema.alterTable('orders').addColumn('closed_by', 'varchar(16)').execute();
      await k.updateTable('orders').set({ closed_by: 'expiry' }).where('status', '=', 'expired').execute();
      await k.updateTable('orders').set({ closed_by: 'buyer' }).where('status', '=', 'cancelled').where('fail_reason', '=', 'cancelled by the buyer').execute();
      await k.schema.createIndex('orders_buyer_closed').on('orders').columns(['buyer_user_id', 'closed_at']).execute();
      await k.schema.createIndex('listings_seller_goods').on('listings').columns(['seller_user_id', 'goods_id']).execute();
    },
  };
}
