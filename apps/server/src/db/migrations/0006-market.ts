import { sql, type Kysely, type Migration } from 'kysely';
import type { Db } from '../database.ts';
import { serialId } from '../serial-id.ts';

/**
 * The consignment market: listings (the seller's signed order), orders and their events, payments
 * (one row per provider trade number: the idempotency key of notifies), the double-entry ledger,
 * durable jobs, deal records, bids, favourites and the sandbox provider's trades.
 * Money is integer fen (bigint), times epoch ms (bigint). Same DDL on SQLite and PostgreSQL.
 */
export function migration(db: Db): Migration {
  const id = serialId(db);
  return {
    async up(k: Kysely<any>) {
      await k.schema
        .createTable('listings')
        .addColumn('id', id.type, id.pk)
        .addColumn('goods_id', 'bigint', (c) => c.notNull().references('goods.id'))
        .addColumn('seller_user_id', 'bigint', (c) => c.notNull().references('users.id'))
        /** The seller's wallet (base32) that signed the order. */
        .addColumn('seller_address', 'varchar(80)', (c) => c.notNull())
        .addColumn('nft_token', 'varchar(80)', (c) => c.notNull())
        .addColumn('token_id', 'varchar(80)', (c) => c.notNull())
        .addColumn('price_fen', 'bigint', (c) => c.notNull())
        .addColumn('seller_order_id', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('signature', 'varchar(140)')
        /** market (public listing) | bid (signed to accept one bid) */
        .addColumn('kind', 'varchar(8)', (c) => c.notNull())
        .addColumn('bid_id', 'bigint')
        /** draft → on_sale → reserved → sold, or closed / invalid / void (draft never used) */
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('reserved_order_no', 'varchar(40)')
        .addColumn('close_reason', 'varchar(32)')
        .addColumn('draft_expires_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('listed_at', 'bigint')
        .addColumn('closed_at', 'bigint')
        .execute();
      // One live (on sale or reserved) listing per collectible, whatever races happen.
      await sql`create unique index listings_live_goods on listings (goods_id) where status in ('on_sale', 'reserved')`.execute(k);
      await k.schema.createIndex('listings_seller').on('listings').columns(['seller_user_id', 'status', 'id']).execute();
      await k.schema.createIndex('listings_token').on('listings').columns(['token_id', 'status']).execute();
      await k.schema.createIndex('listings_goods').on('listings').columns(['goods_id', 'status']).execute();

      await k.schema
        .createTable('orders')
        .addColumn('id', id.type, id.pk)
        .addColumn('order_no', 'varchar(40)', (c) => c.notNull().unique())
        /** market | bid */
        .addColumn('kind', 'varchar(8)', (c) => c.notNull())
        .addColumn('listing_id', 'bigint', (c) => c.notNull().references('listings.id'))
        .addColumn('goods_id', 'bigint', (c) => c.notNull().references('goods.id'))
        .addColumn('buyer_user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('seller_user_id', 'bigint', (c) => c.notNull().references('users.id'))
        /** The buyer's wallet (base32) the token is delivered to. */
        .addColumn('buyer_address', 'varchar(80)', (c) => c.notNull())
        .addColumn('price_fen', 'bigint', (c) => c.notNull())
        .addColumn('commission_fen', 'bigint', (c) => c.notNull())
        .addColumn('royalty_fen', 'bigint', (c) => c.notNull())
        .addColumn('royalty_user_id', 'bigint')
        .addColumn('seller_income_fen', 'bigint', (c) => c.notNull())
        /** created → paying → paid → settling → completed | cancelled | expired | refunded */
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('pay_method', 'varchar(16)')
        .addColumn('provider_trade_no', 'varchar(80)')
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('chain_tx_id', 'bigint')
        .addColumn('settle_attempt', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('tx_hash', 'varchar(80)')
        .addColumn('fail_reason', 'varchar(200)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('paid_at', 'bigint')
        .addColumn('completed_at', 'bigint')
        .addColumn('closed_at', 'bigint')
        .execute();
      await k.schema.createIndex('orders_buyer').on('orders').columns(['buyer_user_id', 'id']).execute();
      await k.schema.createIndex('orders_seller').on('orders').columns(['seller_user_id', 'id']).execute();
      await k.schema.createIndex('orders_status_expiry').on('orders').columns(['status', 'expires_at']).execute();
      await k.schema.createIndex('orders_chain_tx').on('orders').column('chain_tx_id').execute();
      await k.schema.createIndex('orders_listing').on('orders').column('listing_id').execute();
      await k.schema.createIndex('orders_goods').on('orders').columns(['goods_id', 'status']).execute();

      await k.schema
        .createTable('order_events')
        .addColumn('id', id.type, id.pk)
        .addColumn('order_no', 'varchar(40)', (c) => c.notNull())
        .addColumn('from_status', 'varchar(16)')
        .addColumn('to_status', 'varchar(16)', (c) => c.notNull())
        .addColumn('note', 'varchar(200)')
        .addColumn('at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('order_events_order').on('order_events').columns(['order_no', 'id']).execute();

      await k.schema
        .createTable('payments')
        .addColumn('id', id.type, id.pk)
        .addColumn('provider', 'varchar(16)', (c) => c.notNull())
        .addColumn('provider_trade_no', 'varchar(80)', (c) => c.notNull())
        .addColumn('order_no', 'varchar(40)', (c) => c.notNull())
        .addColumn('user_id', 'bigint')
        .addColumn('amount_fen', 'bigint', (c) => c.notNull())
        /** applied (paid the order) | credited (the order could not take it: credited to the buyer's balance) */
        .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
        .addColumn('raw', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('payments_trade', ['provider', 'provider_trade_no'])
        .execute();
      await k.schema.createIndex('payments_order').on('payments').column('order_no').execute();

      await k.schema
        .createTable('ledger_txns')
        .addColumn('id', 'varchar(120)', (c) => c.primaryKey())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('order_no', 'varchar(40)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema
        .createTable('ledger_entries')
        .addColumn('id', id.type, id.pk)
        .addColumn('txn_id', 'varchar(120)', (c) => c.notNull().references('ledger_txns.id'))
        .addColumn('account', 'varchar(64)', (c) => c.notNull())
        .addColumn('amount_fen', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('ledger_entries_account').on('ledger_entries').columns(['account', 'id']).execute();
      await k.schema.createIndex('ledger_entries_txn').on('ledger_entries').column('txn_id').execute();
      await k.schema
        .createTable('ledger_balances')
        .addColumn('account', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('balance_fen', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await k.schema
        .createTable('jobs')
        .addColumn('id', id.type, id.pk)
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('job_key', 'varchar(120)', (c) => c.notNull().unique())
        .addColumn('payload', 'text', (c) => c.notNull())
        /** pending → running → done | dead */
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('run_at', 'bigint', (c) => c.notNull())
        .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('last_error', 'varchar(500)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('jobs_due').on('jobs').columns(['status', 'run_at']).execute();

      await k.schema
        .createTable('deals')
        .addColumn('id', id.type, id.pk)
        .addColumn('order_no', 'varchar(40)', (c) => c.notNull().unique())
        .addColumn('goods_id', 'bigint', (c) => c.notNull().references('goods.id'))
        .addColumn('project_id', 'bigint', (c) => c.notNull())
        .addColumn('listing_id', 'bigint', (c) => c.notNull())
        .addColumn('seller_user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('buyer_user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('price_fen', 'bigint', (c) => c.notNull())
        .addColumn('commission_fen', 'bigint', (c) => c.notNull())
        .addColumn('royalty_fen', 'bigint', (c) => c.notNull())
        .addColumn('tx_hash', 'varchar(80)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('deals_goods').on('deals').columns(['goods_id', 'id']).execute();
      await k.schema.createIndex('deals_project').on('deals').columns(['project_id', 'id']).execute();
      await k.schema.createIndex('deals_seller').on('deals').columns(['seller_user_id', 'id']).execute();
      await k.schema.createIndex('deals_buyer').on('deals').columns(['buyer_user_id', 'id']).execute();

      await k.schema
        .createTable('bids')
        .addColumn('id', id.type, id.pk)
        .addColumn('goods_id', 'bigint', (c) => c.notNull().references('goods.id'))
        .addColumn('bidder_user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('amount_fen', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        /** active → accepted | cancelled | expired | replaced | closed */
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('order_no', 'varchar(40)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await sql`create unique index bids_one_active on bids (goods_id, bidder_user_id) where status = 'active'`.execute(k);
      await k.schema.createIndex('bids_goods').on('bids').columns(['goods_id', 'status', 'amount_fen']).execute();
      await k.schema.createIndex('bids_bidder').on('bids').columns(['bidder_user_id', 'id']).execute();

      await k.schema
        .createTable('favorites')
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('goods_id', 'bigint', (c) => c.notNull().references('goods.id'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('favorites_pk', ['user_id', 'goods_id'])
        .execute();
      await k.schema.createIndex('favorites_goods').on('favorites').column('goods_id').execute();

      await k.schema
        .createTable('sandbox_trades')
        .addColumn('trade_no', 'varchar(80)', (c) => c.primaryKey())
        .addColumn('out_trade_no', 'varchar(40)', (c) => c.notNull().unique())
        .addColumn('amount_fen', 'bigint', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(k: Kysely<any>) {
      for (const t of ['sandbox_trades', 'favorites', 'bids', 'deals', 'jobs', 'ledger_balances', 'ledger_entries', 'ledger_txns', 'payments', 'order_events', 'orders', 'listings']) {
        await k.schema.dropTable(t).ifExists().execute();
      }
    },
  };
}
