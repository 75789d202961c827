import type { Kysely, Migration } from 'kysely';
import type { Db } from '../database.ts';

/** Wallet-link challenges (proof of ownership) and the per-session "wallet connected" flag. */
export function migration(_db: Db): Migration {
  return {
    async up(k: Kysely<any>) {
      await k.schema
        .createTable('wallet_challenges')
        .addColumn('nonce', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('address', 'varchar(80)', (c) => c.notNull())
        .addColumn('message', 'varchar(600)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await k.schema.createIndex('wallet_challenges_user').on('wallet_challenges').columns(['user_id', 'address']).execute();
      await k.schema.alterTable('sessions').addColumn('wallet_connected', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
    async down(k: Kysely<any>) {
      await k.schema.alterTable('sessions').dropColumn('wallet_connected').execute();
      await k.schema.dropTable('wallet_challenges').execute();
    },
  };
}
