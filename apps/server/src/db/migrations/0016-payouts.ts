import { sql, type Kysely, type Migration } from 'kysely';
import type { Db } from '../database.ts';
import { serialId } from '../serial-id.ts';

/**
 * Money out (issue #11, docs/payouts.md):
 * - `payout_accounts`: the user's payout account ("second account": a sub-merchant of the platform
 *   at the payout provider), opening → active | rejected, one per user;
 * - `payout_identity`: the ID-card photos (private uploads) per side;
 * - `payout_card_requests`: a started binding (add, replace, new reserved phone) that passed the
 *   4-element check and waits for its SMS code; card number and phone sealed;
 * - `payout_cards`: bank cards, active → replaced | unbound; one active card per user and one active
 *   binding per card number (partial unique indexes), the number sealed with a keyed digest;
 * - `payout_withdrawals`: requested → processing → succeeded | failed, unique request number and
 *   unique (provider, provider trade no.);
 * - `payout_merchants` and `payout_split_relations`: a creator's merchant details and split relation;
 * - `stray_refunds`: refunds of stray payments to their original method, one per payment;
 * - `sandbox_payouts` / `sandbox_refunds`: the sandbox bank's own records (dev only).
 * Same DDL on SQLite and PostgreSQL; money integer fen, times epoch ms.
 */
export function migration(db: Db): Migration {
  const id = serialId(db);
  return {
    async up(k: Kysely<any>) {
      await k.schema
        .createTable('payout_accounts')
        .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id'))
        .addColumn('provider', 'varchar(16)', (c) => c.notNull())
        /** opening → active | rejected */
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('request_no', 'varchar(40)', (c) => c.notNull().unique())
        .addColumn('merchant_no', 'varchar(40)', (c) => c.unique())
        .addColumn('province_code', 'varchar(12)', (c) => c.notNull())
        .addColumn('city_code', 'varchar(12)', (c) => c.notNull())
        .addColumn('address_sealed', 'text', (c) => c.notNull())
        .addColumn('reject_reason', 'varchar(500)')
        .addColumn('opened_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('payout_accounts_state').on('payout_accounts').columns(['state', 'updated_at']).execute();

      await k.schema
        .createTable('payout_identity')
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        /** front (人像面) | back (国徽面) */
        .addColumn('side', 'varchar(8)', (c) => c.notNull())
        .addColumn('upload_id', 'bigint', (c) => c.notNull().references('uploads.id'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('payout_identity_pk', ['user_id', 'side'])
        .execute();

      await k.schema
        .createTable('payout_card_requests')
        .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        /** bind | replace | mobile */
        .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
        /** The card a `mobile` request changes. */
        .addColumn('card_id', 'bigint')
        /** pending → done | void */
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('card_sealed', 'text', (c) => c.notNull())
        .addColumn('card_digest', 'varchar(64)', (c) => c.notNull())
        .addColumn('bank_code', 'varchar(16)', (c) => c.notNull())
        .addColumn('bank_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('card_masked', 'varchar(40)', (c) => c.notNull())
        .addColumn('last4', 'varchar(4)', (c) => c.notNull())
        .addColumn('mobile_sealed', 'text', (c) => c.notNull())
        .addColumn('mobile_masked', 'varchar(16)', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('done_at', 'bigint')
        .execute();
      await k.schema.createIndex('payout_card_requests_user').on('payout_card_requests').columns(['user_id', 'status']).execute();

      await k.schema
        .createTable('payout_cards')
        .addColumn('id', id.type, id.pk)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        /** active → replaced | unbound */
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('card_sealed', 'text', (c) => c.notNull())
        .addColumn('card_digest', 'varchar(64)', (c) => c.notNull())
        .addColumn('bank_code', 'varchar(16)', (c) => c.notNull())
        .addColumn('bank_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('card_masked', 'varchar(40)', (c) => c.notNull())
        .addColumn('last4', 'varchar(4)', (c) => c.notNull())
        .addColumn('mobile_sealed', 'text', (c) => c.notNull())
        .addColumn('mobile_masked', 'varchar(16)', (c) => c.notNull())
        /** The provider's id of the card (Yeepay bindId), when it has one. */
        .addColumn('provider_bind_id', 'varchar(64)')
        .addColumn('bound_at', 'bigint', (c) => c.notNull())
        .addColumn('ended_at', 'bigint')
        .execute();
      // One active card per user, and one active binding per card number, whatever concurrent calls do.
      await sql`create unique index payout_cards_one_active on payout_cards (user_id) where status = 'active'`.execute(k);
      await sql`create unique index payout_cards_digest_active on payout_cards (card_digest) where status = 'active'`.execute(k);
      await k.schema.createIndex('payout_cards_user').on('payout_cards').columns(['user_id', 'id']).execute();

      await k.schema
        .createTable('payout_withdrawals')
        .addColumn('id', id.type, id.pk)
        .addColumn('withdraw_no', 'varchar(40)', (c) => c.notNull().unique())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('card_id', 'bigint', (c) => c.notNull().references('payout_cards.id'))
        .addColumn('provider', 'varchar(16)', (c) => c.notNull())
        .addColumn('amount_fen', 'bigint', (c) => c.notNull())
        .addColumn('fee_fen', 'bigint', (c) => c.notNull())
        .addColumn('net_fen', 'bigint', (c) => c.notNull())
        /** requested → processing → succeeded | failed */
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('provider_trade_no', 'varchar(64)')
        .addColumn('fail_reason', 'varchar(300)')
        .addColumn('bank_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('card_masked', 'varchar(40)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .addUniqueConstraint('payout_withdrawals_trade', ['provider', 'provider_trade_no'])
        .execute();
      await k.schema.createIndex('payout_withdrawals_user').on('payout_withdrawals').columns(['user_id', 'created_at']).execute();
      await k.schema.createIndex('payout_withdrawals_status').on('payout_withdrawals').columns(['status', 'updated_at']).execute();

      await k.schema
        .createTable('payout_merchants')
        .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id'))
        .addColumn('merchant_no', 'varchar(40)', (c) => c.notNull().unique())
        .addColumn('short_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('sign_name_masked', 'varchar(64)', (c) => c.notNull())
        .addColumn('service_phone', 'varchar(32)', (c) => c.notNull())
        .addColumn('category', 'varchar(32)', (c) => c.notNull())
        .addColumn('province_code', 'varchar(12)', (c) => c.notNull())
        .addColumn('city_code', 'varchar(12)', (c) => c.notNull())
        .addColumn('address', 'varchar(200)', (c) => c.notNull())
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await k.schema
        .createTable('payout_split_relations')
        .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id'))
        .addColumn('creator_id', 'bigint', (c) => c.notNull().unique())
        .addColumn('merchant_no', 'varchar(40)', (c) => c.notNull())
        .addColumn('ratio_permille', 'integer', (c) => c.notNull())
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('bound_at', 'bigint', (c) => c.notNull())
        .execute();

      await k.schema
        .createTable('stray_refunds')
        .addColumn('id', id.type, id.pk)
        .addColumn('refund_no', 'varchar(40)', (c) => c.notNull().unique())
        /** One refund per stray payment, whatever a user and the automatic job do at once. */
        .addColumn('payment_id', 'bigint', (c) => c.notNull().unique().references('payments.id'))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('provider', 'varchar(16)', (c) => c.notNull())
        .addColumn('provider_trade_no', 'varchar(64)', (c) => c.notNull())
        .addColumn('order_no', 'varchar(64)', (c) => c.notNull())
        .addColumn('amount_fen', 'bigint', (c) => c.notNull())
        /** requested → processing → succeeded | failed */
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('automatic', 'integer', (c) => c.notNull())
        .addColumn('provider_refund_no', 'varchar(64)')
        .addColumn('fail_reason', 'varchar(300)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .execute();
      await k.schema.createIndex('stray_refunds_status').on('stray_refunds').columns(['status', 'updated_at']).execute();
      await k.schema.createIndex('payments_user_outcome').on('payments').columns(['user_id', 'outcome']).execute();

      await k.schema
        .createTable('sandbox_payouts')
        .addColumn('trade_no', 'varchar(40)', (c) => c.primaryKey())
        .addColumn('withdraw_no', 'varchar(40)', (c) => c.notNull().unique())
        .addColumn('amount_fen', 'bigint', (c) => c.notNull())
        .addColumn('card_last4', 'varchar(4)', (c) => c.notNull())
        /** processing → success | fail */
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('fail_reason', 'varchar(300)')
        .addColumn('notify_url', 'varchar(300)', (c) => c.notNull())
        .addColumn('received_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('sandbox_payouts_due').on('sandbox_payouts').columns(['status', 'received_at']).execute();

      await k.schema
        .createTable('sandbox_refunds')
        .addColumn('refund_trade_no', 'varchar(40)', (c) => c.primaryKey())
        .addColumn('out_request_no', 'varchar(40)', (c) => c.notNull().unique())
        .addColumn('trade_no', 'varchar(64)', (c) => c.notNull())
        .addColumn('amount_fen', 'bigint', (c) => c.notNull())
        /** processing → success | fail */
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('fail_reason', 'varchar(300)')
        .addColumn('notify_url', 'varchar(300)', (c) => c.notNull())
        .addColumn('received_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('sandbox_refunds_due').on('sandbox_refunds').columns(['status', 'received_at']).execute();
    },
    async down(k: Kysely<any>) {
      await k.schema.dropTable('sandbox_refunds').execute();
      await k.schema.dropTable('sandbox_payouts').execute();
      await k.schema.dropIndex('payments_user_outcome').execute();
      await k.schema.dropTable('stray_refunds').execute();
      await k.schema.dropTable('payout_split_relations').execute();
      await k.schema.dropTable('payout_merchants').execute();
      await k.schema.dropTable('payout_withdrawals').execute();
      await k.schema.dropTable('payout_cards').execute();
      await k.schema.dropTable('payout_card_requests').execute();
      await k.schema.dropTable('payout_identity').execute();
      await k.schema.dropTable('payout_accounts').execute();
    },
  };
}
