import type { Kysely, Migration } from 'kysely';
import type { Db } from '../database.ts';
import { serialId } from '../serial-id.ts';

/**
 * `register_failures`: wrong SMS codes given to regist, counted per phone and per IP within the
 * login window (modules/accounts/register-user.ts) so that regist cannot be used to probe phones.
 * The phone is stored as a keyed digest (ctx.secrets.digest): most rows are about numbers that have
 * no account. Same DDL on SQLite and PostgreSQL; times epoch ms.
 */
export function migration(db: Db): Migration {
  const id = serialId(db);
  return {
    async up(k: Kysely<any>) {
      await k.schema
        .createTable('register_failures')
        .addColumn('id', id.type, id.pk)
        .addColumn('mobile_digest', 'varchar(64)', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.schema.createIndex('register_failures_mobile').on('register_failures').columns(['mobile_digest', 'created_at']).execute();
      await k.schema.createIndex('register_failures_ip').on('register_failures').columns(['ip', 'created_at']).execute();
    },
    async down(k: Kysely<any>) {
      await k.schema.dropTable('register_failures').ifExists().execute();
    },
  };
}
