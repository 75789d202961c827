import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql, type ExpressionBuilder, type Kysely, type RawBuilder } from 'kysely';
import type { Db, DialectName } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

type Q = Kysely<Database>;

/**
 * The worker role's lease (table `worker_lease`, one row, id 1; migration 0031). Any number of
 * identical server processes share one database; the one holding the lease runs the worker role
 * (worker-role.ts), the others stand by and try to take it over.
 *
 * - Acquire is one conditional UPDATE: the lease is free or expired → it becomes mine and its `token`
 *   rises by one. The token is the fencing token: every acquisition gets a larger one.
 * - The holder renews it every `renewMs` (a conditional UPDATE on holder + token + not yet expired).
 *   A holder that fails to renew in time, or finds another holder, loses it and must stop at once.
 * - Times are the database's clock (one clock for all processes), so the processes' clocks need not
 *   agree. Locally, a holder also counts the lease as gone `ttlMs` after it *sent* its last
 *   successful renewal (a lower bound of the row's expiry): `fence` returns undefined from then on,
 *   so a process that was paused past its lease refuses fenced work before it even asks the database.
 * - Fencing: work that must not be done by a stale holder checks the token in the database in the
 *   same transaction that records the work (`checkFence`), so that a takeover waits for that
 *   transaction and sees what it wrote. On PostgreSQL the check takes a shared advisory lock and reads
 *   the row (`worker_fence`, migration 0037): the holder's fenced transactions run side by side and
 *   the renewal waits for none of them, while a takeover takes the same lock exclusively before it
 *   moves the token. On SQLite (one writer at a time anyway) it is an UPDATE of the lease row on its
 *   token and holder, which locks the row until commit.
 */
export interface LeaseFence {
  holder: string;
  token: number;
  /** The lease's database: on 'postgres' the check is `worker_fence`; otherwise (and for hand-made fences) the row lock. */
  dialect?: DialectName;
}

/** The advisory lock (two-key form) that fenced transactions hold shared and a takeover exclusive (migration 0037). */
const FENCE_LOCK = sql`74201, 1`;

/** Where fenced code asks for the current fence; undefined = the lease is not (or no longer) held. */
export type FenceSource = () => LeaseFence | undefined;

export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
}

/** The database's clock in epoch ms, as an SQL expression of the dialect. */
export function dbNowMs(dialect: DialectName): RawBuilder<number> {
  return dialect === 'postgres'
    ? sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`
    : sql<number>`cast((julianday('now') - 2440587.5) * 86400000 as integer)`;
}

/**
 * Inside a transaction: refuses with LeaseLostError unless the lease row still has this token and
 * holder (a no-op without a fence source: the process runs without a lease). Until the transaction
 * ends a takeover waits for it: on PostgreSQL through the shared advisory lock, elsewhere the lease
 * row's lock.
 */
export async function checkFence(q: Q, source: FenceSource | undefined): Promise<void> {
  if (!source) return;
  const f = source();
  if (!f) throw new LeaseLostError('the worker lease is not held');
  if (f.dialect === 'postgres') {
    const { rows } = await sql<{ ok: boolean }>`select worker_fence(${f.token}, ${f.holder}) as ok`.execute(q);
    if (!rows[0]?.ok) throw new LeaseLostError(`the worker lease moved on from token ${f.token}`);
    return;
  }
  const r = await q
    .updateTable('worker_lease')
    .set((eb) => ({ token: eb.ref('token') }))
    .where('id', '=', 1)
    .where('token', '=', f.token)
    .where('holder', '=', f.holder)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new LeaseLostError(`the worker lease moved on from token ${f.token}`);
}

export interface WorkerLeaseOptions {
  ttlMs: number;
  /** A holder id unique to this process (default: host, pid and random bytes). */
  holder?: string;
}

export class WorkerLease {
  readonly holder: string;
  readonly ttlMs: number;
  private token: number | undefined;
  /** performance.now() after which the lease counts as gone locally. */
  private deadline = 0;

  constructor(private readonly db: Db, opts: WorkerLeaseOptions) {
    this.ttlMs = opts.ttlMs;
    this.holder = opts.holder ?? `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`.slice(0, 100);
  }

  /** The fence while the lease is held and locally not past its lease; else undefined. */
  get fence(): LeaseFence | undefined {
    if (this.token === undefined || performance.now() >= this.deadline) return undefined;
    return { holder: this.holder, token: this.token, dialect: this.db.dialect };
  }

  /** The source to hand to fenced code (the job runner, the operator queue). */
  readonly source: FenceSource = () => this.fence;

  get held(): boolean {
    return this.fence !== undefined;
  }

  /** Takes the lease if it is free or expired (one conditional UPDATE). Returns the new token or undefined. */
  async tryAcquire(): Promise<number | undefined> {
    const sent = performance.now();
    const now = dbNowMs(this.db.dialect);
    // The lease is free (released) or expired.
    const takeable = (eb: ExpressionBuilder<Database, 'worker_lease'>) => eb.or([eb('holder', 'is', null), eb('expires_at', '<', now)]);
    const take = (q: Q) =>
      q
        .updateTable('worker_lease')
        .set((eb) => ({ holder: this.holder, token: eb('token', '+', 1), expires_at: sql<number>`${now} + ${this.ttlMs}`, acquired_at: now }))
        .where('id', '=', 1)
        .where(takeable)
        .returning('token')
        .executeTakeFirst();
    let row: { token: number } | undefined;
    if (this.db.dialect === 'postgres') {
      // Only a lease that looks free is worth the exclusive lock (a live holder's fenced work would queue behind
      // it); then wait — at most a lease — for the old holder's fenced transactions in flight, and take it if still free.
      row = await this.db.kysely
        .transaction()
        .execute(async (trx) => {
          const free = await trx.selectFrom('worker_lease').select('id').where('id', '=', 1).where(takeable).executeTakeFirst();
          if (!free) return undefined;
          await sql.raw(`set local lock_timeout = '${Math.max(1, Math.round(this.ttlMs))}ms'`).execute(trx);
          await sql`select pg_advisory_xact_lock(${FENCE_LOCK})`.execute(trx);
          return take(trx);
        })
        .catch((err: unknown) => {
          if ((err as { code?: string }).code === '55P03') return undefined; // still held by fenced work: the next turn tries again
          throw err;
        });
    } else {
      row = await this.sqliteWrite(take);
    }
    if (!row) return undefined;
    this.token = Number(row.token);
    this.deadline = sent + this.ttlMs;
    return this.token;
  }

  /** Extends the lease; false (and the lease counts as lost) when it expired or another process holds it. */
  async renew(): Promise<boolean> {
    if (this.token === undefined) return false;
    const sent = performance.now();
    if (sent >= this.deadline) return this.lose();
    const now = dbNowMs(this.db.dialect);
    const token = this.token;
    const r = await this.sqliteWrite((q) =>
      q
        .updateTable('worker_lease')
        .set({ expires_at: sql<number>`${now} + ${this.ttlMs}` })
        .where('id', '=', 1)
        .where('token', '=', token)
        .where('holder', '=', this.holder)
        .where('expires_at', '>=', now)
        .executeTakeFirst(),
    );
    if (Number(r.numUpdatedRows) !== 1) return this.lose();
    this.deadline = sent + this.ttlMs;
    return true;
  }

  /** Gives the lease up (a clean shutdown), so a standby takes over without waiting for the expiry. */
  async release(): Promise<void> {
    const token = this.token;
    this.lose();
    if (token === undefined) return;
    await this.sqliteWrite((q) => q.updateTable('worker_lease').set({ holder: null, expires_at: 0 }).where('id', '=', 1).where('token', '=', token).where('holder', '=', this.holder).execute());
  }

  /**
   * One write of the lease row. On SQLite it runs in a transaction, whose BEGIN waits for another
   * connection's write lock on timers (db/database.ts): as a bare statement it would wait through
   * busy_timeout, asleep inside the call — and when the lock's holder is this process's own request
   * connection in the middle of a transaction that awaits a timer or I/O, that transaction could not
   * finish meanwhile: the event loop stood still for busy_timeout's 5 s and the renewal then failed.
   */
  private sqliteWrite<R>(write: (q: Q) => Promise<R>): Promise<R> {
    return this.db.dialect === 'sqlite' ? this.db.kysely.transaction().execute(write) : write(this.db.kysely);
  }

  private lose(): false {
    this.token = undefined;
    this.deadline = 0;
    return false;
  }
}
