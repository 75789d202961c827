import type { AppContext } from './context.ts';
import { startMintJob } from './chain/mint-job.ts';
import { openDatabase } from './db/database.ts';
import { WorkerLease } from './jobs/worker-lease.ts';

type Log = (msg: string, extra?: unknown) => void;

export interface WorkerRole {
  /** The lease of this process (undefined with MARKET_JOBS=0: this process never runs the role). */
  lease: WorkerLease | undefined;
  /** True while this process runs the worker role. */
  readonly active: boolean;
  stop(): Promise<void>;
}

/**
 * The worker role: the background work of a process — the chain workers (whenever there is a
 * chain: the operator's transaction queue, the event indexer, the mint worker that mints pending
 * collectibles) and the durable job worker (ctx.jobs, with every job handler and sweep attached
 * before this starts it). Started once by buildApp after every module and flow attached its jobs;
 * `stop()` ends all of them (the chain node itself stays until ctx.chain.stop()).
 * This is the one place where the role starts and stops.
 *
 * Any number of identical processes may share one database: the role runs only in the process that
 * holds the worker lease (jobs/worker-lease.ts, WORKER_LEASE_MS). Every process with MARKET_JOBS=1
 * tries to take it at start and then every third of the lease; the holder renews it as often. A
 * holder that cannot renew in time (or finds another holder) stops the role at once — without waiting
 * for handlers in flight, whose results its fenced job runner refuses — and goes back to standing by.
 * The job runner and the operator queue are fenced with the lease's token, so even a holder paused
 * past its lease (which learns only later that it lost it) claims, finishes, signs and sends nothing.
 * A clean shutdown releases the lease, so a standby takes over at its next try.
 */
export async function startWorkerRole(ctx: AppContext, log: Log): Promise<WorkerRole> {
  if (!ctx.config.market.jobs) return { lease: undefined, active: false, async stop() {} };
  const ttlMs = ctx.config.market.workerLeaseMs;
  const everyMs = Math.max(200, Math.floor(ttlMs / 3));
  // The lease has its own connection: under a flood the process's pool (PostgreSQL) or its one SQLite
  // connection has a queue of waiting queries, and a renewal stuck behind them would lose the lease.
  const leaseDb = openDatabase({ databaseUrl: ctx.config.databaseUrl, dataDir: ctx.config.dataDir, besideCheckpointThread: !!ctx.db.checkpointer });
  const lease = new WorkerLease(leaseDb, { ttlMs });
  ctx.jobs.fenced(lease.source);
  ctx.chain?.queue.fenced(lease.source);

  type Role = { stop(wait: boolean): Promise<void> };
  /** Set while this process holds the lease: the role starting or running (undefined if its start failed). */
  let role: Promise<Role | undefined> | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let turn: Promise<void> = Promise.resolve();
  let watch: Promise<void> = Promise.resolve();

  // Everything the role starts runs as the worker (db.asWorker): on PostgreSQL its queries use the
  // worker's own connections, not the request pool that a flood of buyers keeps busy.
  const startRole = (): Promise<Role> => ctx.db.asWorker(() => startRoleParts());
  const startRoleParts = async (): Promise<Role> => {
    await ctx.chain?.startWorkers();
    const mintJob = ctx.chain ? startMintJob(ctx, log) : undefined;
    await ctx.jobs.start();
    return {
      async stop(wait: boolean) {
        await ctx.jobs.stop({ wait });
        await mintJob?.stop();
        await ctx.chain?.queue.stop();
        await ctx.chain?.indexer.stop();
      },
    };
  };

  const lost = async (why: string) => {
    const r = role;
    role = undefined;
    if (!r) return;
    log('worker lease lost: stopping the worker role', { holder: lease.holder, why });
    await (await r)?.stop(false);
  };

  /**
   * One turn: the holder renews (or stops the role), a standby tries to take the lease and starts the
   * role. The start is not awaited here, so the renewals go on while it runs (a slow node at takeover).
   */
  const step = async () => {
    if (closed) return;
    try {
      if (role) {
        if (!(await lease.renew())) await lost('renewal refused or too late');
        return;
      }
      const token = await lease.tryAcquire();
      if (token === undefined || closed) return;
      log('worker lease acquired: starting the worker role', { holder: lease.holder, token });
      const starting: Promise<Role | undefined> = startRole().catch(async (err) => {
        log('worker role failed to start', { err: String(err) });
        await ctx.jobs.stop({ wait: false });
        await ctx.chain?.queue.stop();
        await ctx.chain?.indexer.stop();
        if (role === starting) {
          role = undefined;
          await lease.release().catch(() => {});
        }
        return undefined;
      });
      role = starting;
    } catch (err) {
      log('worker lease turn failed', { err: String(err) });
      // A holder that cannot reach the database must not go on past its lease.
      if (role && !lease.held) await lost(String(err));
    }
  };
  const schedule = () => {
    if (closed) return;
    timer = setTimeout(() => {
      turn = step().finally(schedule);
    }, everyMs);
  };
  // A watchdog of the holder: the lease also ends locally when the renewals stopped getting through
  // (a renewal that hangs, the database gone), not only when a renewal is refused.
  const watchdog = setInterval(() => {
    if (role && !lease.held) watch = watch.then(() => (role && !lease.held ? lost('lease expired locally') : undefined));
  }, 100);
  watchdog.unref();

  // At boot the first turn's role start is awaited: a job due at boot runs on the worker's first pass.
  await step();
  await role;
  schedule();
  return {
    lease,
    get active() {
      return role !== undefined;
    },
    async stop() {
      closed = true;
      if (timer) clearTimeout(timer);
      clearInterval(watchdog);
      await turn;
      await watch;
      const r = role;
      role = undefined;
      await (await r)?.stop(true);
      await lease.release().catch((err) => log('worker lease release failed', { err: String(err) }));
      await leaseDb.close();
    },
  };
}
