import type { Kysely, Migration } from 'kysely';
import type { Db } from '../database.ts';

/**
 * The worker role's lease (jobs/worker-lease.ts): one row `worker_lease` (id 1) naming the process
 * that runs the worker role (`holder`), until when (`expires_at`, epoch ms of the database's clock)
 * and the fencing `token`, raised by one at every acquisition. `jobs.lease_token` is the token under
 * which a running job was claimed: a job claimed under an older token belongs to a holder that lost
 * the lease, and its finishing update is refused. Same DDL on SQLite and PostgreSQL.
 */
export function migration(_db: Db): Migration {
  return {
    async up(k: Kysely<any>) {
      await k.schema
        .createTable('worker_lease')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('holder', 'varchar(100)')
        .addColumn('token', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('acquired_at', 'bigint', (c) => c.notNull())
        .execute();
      await k.insertInto('worker_lease').values({ id: 1, holder: null, token: 0, expires_at: 0, acquired_at: 0 }).execute();
      await k.schema.alterTable('jobs').addColumn('lease_token', 'bigint').execute();
    },
    async down(k: Kysely<any>) {
      await k.schema.alterTable('jobs').dropColumn('lease_token').execute();
      await k.schema.dropTable('worker_lease').execute();
    },
  };
}
