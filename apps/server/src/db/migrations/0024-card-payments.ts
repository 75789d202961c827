import type { Kysely, Migration } from 'kysely';
import type { Db } from '../database.ts';

/**
 * Bank-card quick payment (快捷支付) through the payout provider (docs/payouts.md "Paying with a bank card"):
 * - `card_payments`: one attempt to pay an order with a bound card — started at the provider (which
 *   sends an SMS code to the card's reserved phone), confirmed with the code; the money itself is
 *   applied only through `payments` (provider `card`) by the signed notify or reconciliation;
 * - `payout_cards.quickpay_bind_id`: the provider's quick-pay agreement of the card (YeePay's bindId),
 *   learnt at the first confirmed payment;
 * - `sandbox_quickpays` / `sandbox_quickpay_refunds`: the sandbox bank's own records (dev only).
 * Same DDL on SQLite and PostgreSQL; money integer fen, times epoch ms.
 */
export function migration(_db: Db): Migration {
  return {
    async up(k: Kysely<any>) {
      await k.schema
        .createTable('card_payments')
        .addColumn('pay_no', 'varchar(40)', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('order_no', 'varchar(40)', (c) => c.notNull())
        .addColumn('card_id', 'bigint', (c) => c.notNull().references('payout_cards.id'))
        .addColumn('provider', 'varchar(16)', (c) => c.notNull())
        .addColumn('amount_fen', 'bigint', (c) => c.notNull())
        /** sms_sent → confirming → succeeded | failed */
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('provider_trade_no', 'varchar(64)')
        /** What the provider needs to continue this attempt (YeePay: its token and flow), opaque to us. */
        .addColumn('provider_ref', 'varchar(500)')
        .addColumn('wrong_tries', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('sms_sends', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('last_sms_at', 'bigint', (c) => c.notNull())
        .addColumn('fail_reason', 'varchar(300)')
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('card_payments_order').on('card_payments').columns(['order_no', 'created_at']).execute();
      await k.schema.createIndex('card_payments_status').on('card_payments').columns(['status', 'updated_at']).execute();
      await k.schema.createIndex('card_payments_trade').on('card_payments').columns(['provider', 'provider_trade_no']).unique().execute();
      await k.schema.alterTable('payout_cards').addColumn('quickpay_bind_id', 'varchar(64)').execute();

      await k.schema
        .createTable('sandbox_quickpays')
        .addColumn('trade_no', 'varchar(40)', (c) => c.primaryKey())
        .addColumn('request_no', 'varchar(40)', (c) => c.notNull().unique())
        .addColumn('amount_fen', 'bigint', (c) => c.notNull())
        .addColumn('refunded_fen', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('card_last4', 'varchar(4)', (c) => c.notNull())
        /** sms_sent → success | fail */
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('fail_reason', 'varchar(300)')
        .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('code_expires_at', 'bigint', (c) => c.notNull())
        .addColumn('wrong_tries', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('sms_sends', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('last_sms_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('notify_url', 'varchar(300)', (c) => c.notNull())
        .addColumn('paid_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema
        .createTable('sandbox_quickpay_refunds')
        .addColumn('refund_trade_no', 'varchar(40)', (c) => c.primaryKey())
        .addColumn('out_request_no', 'varchar(40)', (c) => c.notNull().unique())
        .addColumn('trade_no', 'varchar(40)', (c) => c.notNull())
        .addColumn('amount_fen', 'bigint', (c) => c.notNull())
        /** processing → success */
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('notify_url', 'varchar(300)', (c) => c.notNull())
        .addColumn('received_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('sandbox_quickpay_refunds_due').on('sandbox_quickpay_refunds').columns(['status', 'received_at']).execute();
    },
    async down(k: Kysely<any>) {
      await k.schema.dropTable('sandbox_quickpay_refunds').execute();
      await k.schema.dropTable('sandbox_quickpays').execute();
      await k.schema.alterTable('payout_cards').dropColumn('quickpay_bind_id').execute();
      await k.schema.dropTable('card_payments').execute();
    },
  };
}
