import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import { keyList } from '../db/key-list.ts';
import type { Database, JobKind } from '../db/schema.ts';
import type { Job, JobDefinition, JobHandler, JobResult } from './define-job.ts';
import { checkFence, LeaseLostError, type FenceSource, type LeaseFence } from './worker-lease.ts';

/** A Kysely handle inside a transaction (db/tx.ts's Q, without importing the app context). */
type Q = Kysely<Database>;

/**
 * Durable jobs in the `jobs` table, run by one worker process (the one that also runs the chain
 * queue). A job is inserted in the same database transaction as the business change that needs
 * it (e.g. an order turning `paid` inserts its `settle:<orderNo>` job), so a crash can never lose
 * it. The worker claims due rows with a conditional UPDATE (pending → running, with a lease),
 * runs their handler and then marks them done or schedules the next run. On start, rows left
 * `running` by a dead process are made due again. Handlers must be idempotent: every step they
 * take is a conditional update or keyed by an idempotency key.
 *
 * Besides jobs the runner drives periodic sweeps (order expiry, payment reconciliation).
 * Job timing uses the real clock (Date.now); business times use ctx.now.
 *
 * Under the worker lease (jobs/worker-lease.ts; `fenced(source)`, set by worker-role.ts) the claim is
 * conditional on the lease's token and records it on the row (`lease_token`), and the finishing
 * updates are written only in a transaction that still holds the token and only to rows claimed
 * under it: a holder that was paused past its lease neither claims nor finishes a job. Rows left
 * `running` under an older token (their claimer lost the lease) are due again for the new holder.
 */
export type { Job, JobHandler, JobResult } from './define-job.ts';

export interface RunnerOptions {
  intervalMs: number;
  /** Jobs in flight at once (handlers may wait for chain receipts). */
  maxInFlight?: number;
  /** A claimed job whose worker died becomes due again after this long. */
  leaseMs?: number;
  log?: (msg: string, extra?: unknown) => void;
}

const CLAIM_BATCH = 500;

/** Inserts a job unless one with the same key exists (idempotent). Call inside the business transaction. */
export async function enqueueJob(q: Q, input: JobInput): Promise<void> {
  await enqueueJobs(q, [input]);
}

type JobInput = { kind: JobKind; key: string; payload?: Record<string, unknown>; runAt?: number };

/** Several jobs in one multi-row insert (the caller keeps the list to a statement's size); a key already queued is skipped. */
export async function enqueueJobs(q: Q, inputs: readonly JobInput[]): Promise<void> {
  if (!inputs.length) return;
  const now = Date.now();
  await q
    .insertInto('jobs')
    .values(inputs.map((input) => ({ kind: input.kind, job_key: input.key, payload: JSON.stringify(input.payload ?? {}), status: 'pending' as const, run_at: input.runAt ?? now, last_error: null, created_at: now, updated_at: now })))
    .onConflict((oc) => oc.column('job_key').doNothing())
    .execute();
}

export class JobRunner {
  private handlers = new Map<JobKind, JobHandler>();
  private periodics: { name: string; everyMs: number; fn: () => Promise<unknown>; next: number; running: boolean }[] = [];
  private inFlight = new Map<number, Promise<void>>();
  private periodicRuns = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private ticking = false;
  private wakeRequested = false;
  private readonly maxInFlight: number;
  private readonly leaseMs: number;
  private readonly log: (msg: string, extra?: unknown) => void;
  private fence: FenceSource | undefined;
  /** Job results this runner did not write because its lease had moved on (tests, logs). */
  fencedRefusals = 0;
  private lastOrphanCheck = 0;
  private holds: { kinds: JobKind[]; busy: () => boolean; maxMs: number }[] = [];
  /**
   * Runs a tick in the async context of start() (the worker role's, db.asWorker), whoever asked for
   * it: a wake() from a request must not move the loop onto the request pool.
   */
  private inStartContext: <R>(fn: () => R) => R = (fn) => fn();

  constructor(private readonly db: Db, private readonly opts: RunnerOptions) {
    this.maxInFlight = opts.maxInFlight ?? 2000;
    this.leaseMs = opts.leaseMs ?? 120_000;
    this.log = opts.log ?? (() => {});
  }

  /**
   * The handler of a job kind. Register every kind before start() (buildApp does, then starts the
   * worker): a job of a kind without a handler is never claimed — it is "not yet", not a failed attempt.
   */
  register(kind: JobKind, handler: JobHandler) {
    this.handlers.set(kind, handler);
  }

  /** The handler of a defined job kind (jobs/define-job.ts), given the payload as its definition types it. */
  handle<K extends JobKind, P extends Record<string, unknown>>(def: JobDefinition<K, P>, handler: (payload: P, job: Job) => Promise<JobResult>) {
    this.register(def.kind, (job) => handler(def.read(job), job));
  }

  /** The kinds that had a handler when the worker started (undefined before start; a boot check of the tests). */
  kindsAtStart: JobKind[] | undefined;

  /** Runs `fn` every `everyMs` (never two at once). */
  periodic(name: string, everyMs: number, fn: () => Promise<unknown>) {
    this.periodics.push({ name, everyMs, fn, next: 0, running: false });
  }

  /**
   * Lets due jobs of `kinds` wait while `busy()` says the process has better things to do (a drop's
   * reservations: registerDropJobs), each at most `maxMs` past its due time, so a long flood delays
   * them by that much and never starves them. Meanwhile wake() waits for the next interval tick:
   * the wakes of a flood are its payments, whose jobs are the held ones. runOnce (tests) holds nothing.
   */
  holdWhile(kinds: JobKind[], busy: () => boolean, maxMs: number) {
    if (maxMs > 0 && kinds.length) this.holds.push({ kinds, busy, maxMs });
  }

  /** The kinds held now, and how long past due each may wait (holdWhile). */
  private heldNow(): Map<JobKind, number> {
    const held = new Map<JobKind, number>();
    for (const h of this.holds) if (h.busy()) for (const k of h.kinds) held.set(k, Math.max(held.get(k) ?? 0, h.maxMs));
    return held;
  }

  /** Claims and finishes jobs only under the worker lease's current token (undefined: no lease, one worker per database). */
  fenced(source: FenceSource | undefined) {
    this.fence = source;
  }

  async start() {
    this.stopped = false;
    this.inStartContext = AsyncLocalStorage.snapshot();
    this.kindsAtStart = [...this.handlers.keys()];
    // A previous holder died (or lost the lease) while running these: they are due again.
    await this.db.kysely.transaction().execute(async (trx) => {
      await checkFence(trx, this.fence);
      const f = this.fence?.();
      await trx
        .updateTable('jobs')
        .set({ status: 'pending', run_at: Date.now(), lease_until: 0 })
        .where('status', '=', 'running')
        .$if(f !== undefined, (qb) => qb.where((eb) => eb.or([eb('lease_token', 'is', null), eb('lease_token', '<', f!.token)])))
        .execute();
    });
    this.schedule(0);
  }

  /**
   * Stops claiming. `wait: false` (the lease was lost) does not wait for the handlers in flight: their
   * finishing updates are refused by the fence anyway, and the new holder runs those jobs again.
   */
  async stop(opts: { wait?: boolean } = {}) {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (opts.wait === false) return;
    while (this.ticking) await new Promise((r) => setTimeout(r, 5));
    await Promise.allSettled([...this.inFlight.values(), ...this.periodicRuns]);
  }

  get running() {
    return !this.stopped;
  }

  /** Look for due work now (after enqueueing a job or when a chain transaction finished). */
  wake() {
    if (this.stopped) return;
    if (this.holds.some((h) => h.busy())) return; // the interval tick comes soon enough (holdWhile)
    if (this.ticking) {
      this.wakeRequested = true;
      return;
    }
    this.schedule(0);
  }

  /** Makes a pending job due now and wakes the worker. */
  async expedite(key: string) {
    await this.db.kysely.updateTable('jobs').set({ run_at: 0 }).where('job_key', '=', key).where('status', '=', 'pending').execute();
    this.wake();
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.inStartContext(() => void this.tick());
    }, ms);
  }

  private async tick() {
    if (this.ticking || this.stopped) return;
    this.ticking = true;
    let claimed = 0;
    try {
      claimed = await this.claimAndStart();
      await this.runPeriodics(false);
    } catch (err) {
      this.log('job runner tick failed', { err: String(err) });
    } finally {
      this.ticking = false;
      const again = this.wakeRequested || (claimed === CLAIM_BATCH && this.inFlight.size < this.maxInFlight);
      this.wakeRequested = false;
      this.schedule(again ? 0 : this.opts.intervalMs);
    }
  }

  /**
   * Claims due jobs of the kinds that have a handler and starts their handlers (not awaited). Returns
   * how many were claimed. A due job of a kind nobody registered stays pending, its attempts untouched.
   */
  async claimAndStart(opts: { hold?: boolean } = {}): Promise<number> {
    const room = Math.min(CLAIM_BATCH, this.maxInFlight - this.inFlight.size);
    const kinds = [...this.handlers.keys()];
    if (room <= 0 || !kinds.length) return 0;
    let fence: LeaseFence | undefined;
    if (this.fence) {
      fence = this.fence();
      if (!fence) return 0;
    }
    const now = Date.now();
    const holding = opts.hold === false ? new Map<JobKind, number>() : this.heldNow();
    if (fence && now - this.lastOrphanCheck > 2000) {
      // Claimed under an older token by a holder that lost the lease after this one started: due again.
      this.lastOrphanCheck = now;
      const held = await this.db.kysely
        .transaction()
        .execute(async (trx) => {
          await checkFence(trx, this.fence);
          await trx.updateTable('jobs').set({ status: 'pending', run_at: now, lease_until: 0 }).where('status', '=', 'running').where('lease_token', '<', fence!.token).execute();
          return true;
        })
        .catch((err) => {
          if (err instanceof LeaseLostError) return false;
          throw err;
        });
      if (!held) return 0;
    }
    const due = await this.db.kysely
      .selectFrom('jobs')
      .select('id')
      .where('status', '=', 'pending')
      .where('run_at', '<=', now)
      .where('kind', 'in', kinds)
      // A held kind only once it is overdue by its bound (holdWhile).
      .$if(holding.size > 0, (qb) =>
        qb.where((eb) => eb.or([eb('kind', 'not in', [...holding.keys()]), ...[...holding].map(([k, ms]) => eb.and([eb('kind', '=', k), eb('run_at', '<=', now - ms)]))])),
      )
      .orderBy('run_at')
      .limit(room)
      .execute();
    if (!due.length) return 0;
    const rows = await this.db.kysely
      .updateTable('jobs')
      .set((eb) => ({ status: 'running', lease_until: now + this.leaseMs, attempts: eb('attempts', '+', 1), updated_at: now, ...(fence ? { lease_token: fence.token } : {}) }))
      .where('id', 'in', keyList({ db: this.db }, due.map((d) => Number(d.id))))
      .where('status', '=', 'pending')
      .$if(fence !== undefined, (qb) =>
        qb.where(({ exists, selectFrom }) =>
          exists(selectFrom('worker_lease').select('worker_lease.id').where('worker_lease.id', '=', 1).where('worker_lease.token', '=', fence!.token).where('worker_lease.holder', '=', fence!.holder)),
        ),
      )
      .returning(['id', 'kind', 'job_key', 'payload', 'attempts'])
      .execute();
    for (const r of rows) {
      const job: Job = { id: Number(r.id), kind: r.kind, key: r.job_key, payload: safeJson(r.payload), attempts: Number(r.attempts) };
      const p = this.runJob(job, fence?.token).finally(() => this.inFlight.delete(job.id));
      this.inFlight.set(job.id, p);
    }
    return rows.length;
  }

  /** Claims and runs every due job and periodic task, waiting for them (tests). */
  async runOnce(): Promise<void> {
    for (;;) {
      const n = await this.claimAndStart({ hold: false });
      await Promise.allSettled([...this.inFlight.values()]);
      if (n === 0) break;
    }
    await this.runPeriodics(true);
  }

  private async runJob(job: Job, token: number | undefined) {
    const handler = this.handlers.get(job.kind);
    let result: JobResult;
    let error: string | null = null;
    if (!handler) {
      // Not claimable without a handler (claimAndStart); should one be missing anyway, give the attempt back.
      await this.db.kysely.updateTable('jobs').set((eb) => ({ status: 'pending', run_at: Date.now() + 1000, lease_until: 0, attempts: eb('attempts', '-', 1) })).where('id', '=', job.id).where('status', '=', 'running').$if(token !== undefined, (qb) => qb.where('lease_token', '=', token!)).execute();
      return;
    }
    try {
      result = await handler(job);
    } catch (err) {
      error = String((err as Error)?.stack ?? err).slice(0, 500);
      this.log('job failed', { key: job.key, attempts: job.attempts, err: String(err) });
      result = { retryAt: Date.now() + Math.min(60_000, 250 * 2 ** Math.min(job.attempts, 8)) };
    }
    await this.record(job.id, result, error, token);
  }

  /** Job bookkeeping is written in batches (one transaction per turn of the event loop). */
  private pendingRecords: { id: number; result: JobResult; error: string | null; token: number | undefined; resolve: () => void }[] = [];
  private recordScheduled = false;
  private record(id: number, result: JobResult, error: string | null, token: number | undefined): Promise<void> {
    return new Promise((resolve) => {
      this.pendingRecords.push({ id, result, error, token, resolve });
      if (this.recordScheduled) return;
      this.recordScheduled = true;
      setImmediate(() => void this.flushRecords());
    });
  }

  private async flushRecords() {
    this.recordScheduled = false;
    const all = this.pendingRecords;
    this.pendingRecords = [];
    if (!all.length) return;
    const now = Date.now();
    // Under the lease: only jobs claimed under the current token are finished, in a transaction that
    // still holds it (checkFence), and only rows that still carry it (`mine`).
    const fence = this.fence ? this.fence() : undefined;
    const batch = this.fence ? all.filter((b) => fence !== undefined && b.token === fence.token) : all;
    if (batch.length < all.length) {
      this.fencedRefusals += all.length - batch.length;
      this.log('job results refused: the worker lease moved on', { jobs: all.length - batch.length });
    }
    const mine = <Q extends { where: (...a: any[]) => Q }>(qb: Q): Q => (fence ? qb.where('lease_token', '=', fence.token) : qb);
    try {
      if (batch.length) await this.db.kysely.transaction().execute(async (trx) => {
        await checkFence(trx, this.fence);
        const done = batch.filter((b) => 'done' in b.result && b.error === null).map((b) => b.id);
        for (let i = 0; i < done.length; i += 500) {
          await mine(trx.updateTable('jobs').set({ status: 'done', updated_at: now }).where('id', 'in', keyList({ db: this.db }, done.slice(i, i + 500))).where('status', '=', 'running')).execute();
        }
        for (const b of batch) {
          if ('done' in b.result) {
            if (b.error !== null) await mine(trx.updateTable('jobs').set({ status: 'done', updated_at: now, last_error: b.error }).where('id', '=', b.id).where('status', '=', 'running')).execute();
          } else {
            await mine(
              trx
                .updateTable('jobs')
                .set({ status: 'pending', run_at: b.result.retryAt, lease_until: 0, updated_at: now, last_error: b.error })
                .where('id', '=', b.id)
                .where('status', '=', 'running'),
            ).execute();
          }
        }
      });
    } catch (err) {
      // The lease runs out and the jobs are claimed again: handlers are idempotent.
      if (err instanceof LeaseLostError) this.fencedRefusals += batch.length;
      this.log(err instanceof LeaseLostError ? 'job results refused: the worker lease moved on' : 'job bookkeeping failed', { err: String(err) });
    }
    for (const b of all) b.resolve();
    if (batch.some((b) => !('done' in b.result) && b.result.retryAt <= now)) this.wake();
  }

  /**
   * Starts the due periodic tasks. The worker's tick does not wait for them (`force` — runOnce, the
   * tests — runs them one after the other and waits): a slow sweep must not hold back the claiming
   * of due jobs. Under a drop's flood on PostgreSQL (bench/drop.ts) the expiry and message sweeps
   * took 11–38 s a pass — their queries run one after another, each waiting its turn for the
   * process's pool connections — and the fulfilment of paid drop orders stalled that long between
   * claims (mint lag 98–132 s after the sell-out; 4 s with this). Each task still never runs twice
   * at once; a pass over 10 s is logged.
   */
  private async runPeriodics(force: boolean) {
    const now = Date.now();
    for (const p of this.periodics) {
      if (p.running || (!force && now < p.next)) continue;
      p.running = true;
      p.next = now + p.everyMs;
      const run = (async () => {
        const t0 = Date.now();
        try {
          await p.fn();
        } catch (err) {
          this.log('periodic task failed', { name: p.name, err: String(err) });
        } finally {
          p.running = false;
          if (Date.now() - t0 > 10_000) this.log('periodic task slow', { name: p.name, ms: Date.now() - t0 });
        }
      })();
      this.periodicRuns.add(run);
      void run.finally(() => this.periodicRuns.delete(run));
      if (force) await run;
    }
  }
}

function safeJson(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}
