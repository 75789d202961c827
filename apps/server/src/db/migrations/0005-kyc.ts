import type { Kysely, Migration } from 'kysely';
import type { Db } from '../database.ts';

/** Real-name verification: name and ID number sealed (AES-GCM), a keyed digest for uniqueness, the birth date for the age rule. */
export function migration(_db: Db): Migration {
  return {
    async up(k: Kysely<any>) {
      await k.schema
        .createTable('realname')
        .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id'))
        .addColumn('name_sealed', 'text', (c) => c.notNull())
        .addColumn('id_sealed', 'text', (c) => c.notNull())
        .addColumn('id_digest', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('id_masked', 'varchar(32)', (c) => c.notNull())
        .addColumn('name_masked', 'varchar(64)', (c) => c.notNull())
        .addColumn('birth_date', 'varchar(10)', (c) => c.notNull())
        .addColumn('provider', 'varchar(16)', (c) => c.notNull())
        .addColumn('verified_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(k: Kysely<any>) {
      await k.schema.dropTable('realname').execute();
    },
  };
}
