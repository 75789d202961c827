import { sql, type Kysely, type Migration } from 'kysely';
import type { Db } from '../database.ts';

/**
 * PostgreSQL only: the worker lease's fence check without a row lock (jobs/worker-lease.ts).
 *
 * The check was `UPDATE worker_lease SET token = token WHERE token = … AND holder = …`, which locks
 * the lease row until the fenced transaction commits: a takeover then waits for that transaction and
 * sees what it wrote. But every fenced transaction of the holder (job claims and finishes, the chain
 * queue's sends) queued for that one row, and so did the lease's own renewal: under the drop bench's
 * load `pg_stat_statements` showed the check waiting 26–29 ms on average and the renewal 9.5–21 ms.
 *
 * `worker_fence(token, holder)` takes a SHARED transaction-level advisory lock (the two-key form,
 * class 74201, key 1: apart from `lockKey`'s one-key locks) and then reads the lease row. Shared locks do
 * not wait for each other, and the renewal takes none. A takeover (WorkerLease.tryAcquire) takes the
 * same lock EXCLUSIVE before it moves the token: it waits for every fenced transaction in flight, and
 * a fenced transaction that starts meanwhile queues behind it (PostgreSQL queues a lock request behind
 * a waiting conflicting one), then reads the new token and is refused. The read runs after the lock is
 * granted and, in a PL/pgSQL function at READ COMMITTED, with a snapshot of its own. Under REPEATABLE
 * READ or SERIALIZABLE the transaction's snapshot may predate a takeover, so there the function falls
 * back to the row lock of before.
 */
export function migration(db: Db): Migration {
  return {
    async up(k: Kysely<any>) {
      if (db.dialect !== 'postgres') return;
      await sql`
create function worker_fence(p_token bigint, p_holder text) returns boolean
language plpgsql volatile
as $fn$
declare
  v_n int;
begin
  if current_setting('transaction_isolation') <> 'read committed' then
    update worker_lease set token = token where id = 1 and token = p_token and holder = p_holder;
    get diagnostics v_n = row_count;
    return v_n = 1;
  end if;
  perform pg_advisory_xact_lock_shared(74201, 1);
  return exists (select 1 from worker_lease where id = 1 and token = p_token and holder = p_holder);
end
$fn$`.execute(k);
    },
    async down(k: Kysely<any>) {
      if (db.dialect !== 'postgres') return;
      await sql`drop function if exists worker_fence(bigint, text)`.execute(k);
    },
  };
}
