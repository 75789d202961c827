import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';

/**
 * Load shedding of the primary sale, in this process (docs/drops.md "Under load"):
 * - attempts: at most DROP_ATTEMPTS_PER_SECOND createOrder calls for drops per user and per
 *   real-name identity in any one-second window (on the cache clock, ctx.monotonicNow: in memory,
 *   never stored), else 1021 dropTooFrequent;
 * - admission: at most DROP_MAX_IN_FLIGHT reservations of one release run at once, else 1021
 *   dropQueueing — the database never sees more than that from one process, so a burst is answered
 *   fast with "排队中" instead of piling up lock waits and timeouts.
 * Both answers carry a Retry-After hint (DropBusy).
 */
export class DropBusy extends ApiError {
  constructor(key: 'dropQueueing' | 'dropTooFrequent', readonly retryAfterMs: number) {
    super(Status.DROP_QUEUEING, key);
  }
}

interface State {
  inFlight: Map<number, number>;
  /**
   * The attempt windows, keyed by the raw keys (hashed once, no string composed per attempt): a user by
   * its numeric id, a real-name identity by its digest string — a Map never takes 1 and '1' for one key.
   */
  windows: Map<number | string, { start: number; n: number }>;
  /** When the ended windows were last forgotten, and how many times (tests read it). */
  sweptAt: number;
  sweeps: number;
  /** When a reservation was last admitted (cache clock). */
  admittedAt: number;
}
const states = new WeakMap<object, State>();
function stateOf(ctx: Pick<AppContext, 'db'>): State {
  let s = states.get(ctx.db);
  if (!s) states.set(ctx.db, (s = { inFlight: new Map(), windows: new Map(), sweptAt: -Infinity, sweeps: 0, admittedAt: -Infinity }));
  return s;
}

/** Above this many keys the ended windows are forgotten (at most once a second). */
const WINDOWS_KEPT = 50_000;

/** The attempt windows of this process: how many keys, how many sweeps so far. */
export function attemptWindows(ctx: Pick<AppContext, 'db'>): { keys: number; sweeps: number } {
  const s = stateOf(ctx);
  return { keys: s.windows.size, sweeps: s.sweeps };
}

/** Counts an attempt of a user (its numeric id) or of a real-name identity (its digest); throws DropBusy beyond the per-second budget. */
export function countAttempt(ctx: Pick<AppContext, 'db' | 'monotonicNow' | 'config'>, userIdOrIdentity: number | string) {
  const s = stateOf(ctx);
  const now = ctx.monotonicNow();
  // At most once a second: when more than WINDOWS_KEPT keys attempted within one second (a drop's first
  // second), a sweep on every call would cost each attempt a walk over all of them and free nothing.
  if (s.windows.size > WINDOWS_KEPT && now - s.sweptAt >= 1000) {
    s.sweptAt = now;
    s.sweeps++;
    for (const [k, w] of s.windows) if (now - w.start >= 1000) s.windows.delete(k);
  }
  const w = s.windows.get(userIdOrIdentity);
  if (!w || now - w.start >= 1000) {
    s.windows.set(userIdOrIdentity, { start: now, n: 1 });
    return;
  }
  w.n++;
  if (w.n > ctx.config.drops.attemptsPerSecond) throw new DropBusy('dropTooFrequent', Math.ceil(1000 - (now - w.start)));
}

/** Runs `fn` as one of the release's admitted reservations, or throws DropBusy when the release is full. */
export async function admitted<T>(ctx: AppContext, projectId: number, fn: () => Promise<T>): Promise<T> {
  const s = stateOf(ctx);
  const n = s.inFlight.get(projectId) ?? 0;
  if (n >= ctx.config.drops.maxInFlight) throw new DropBusy('dropQueueing', ctx.config.drops.retryAfterMs);
  s.inFlight.set(projectId, n + 1);
  s.admittedAt = ctx.monotonicNow();
  if (sharedSelling) sharedSelling[0] = performance.timeOrigin + performance.now();
  try {
    return await fn();
  } finally {
    const left = (s.inFlight.get(projectId) ?? 1) - 1;
    if (left <= 0) s.inFlight.delete(projectId);
    else s.inFlight.set(projectId, left);
  }
}

/** How long after the last admitted reservation this process still counts as selling (reservationsFlowing). */
export const SELLING_QUIET_MS = 1000;

/**
 * Whether this process admitted a reservation within the last SELLING_QUIET_MS: a sale's flood is
 * running here. The job worker holds back the fulfilment of paid drop orders meanwhile
 * (registerDropJobs), so the buyers' reservations and payments get the event loop and the write lock.
 */
export function reservationsFlowing(ctx: Pick<AppContext, 'db' | 'monotonicNow'>): boolean {
  if (ctx.monotonicNow() - stateOf(ctx).admittedAt < SELLING_QUIET_MS) return true;
  return sharedSelling !== undefined && performance.timeOrigin + performance.now() - sharedSelling[0]! < SELLING_QUIET_MS;
}

/**
 * With WORKER_THREAD=1 the reservations are admitted on the request thread and the fulfilment runs in the
 * worker thread, each with an app (and state) of its own: this one 8-byte shared buffer, handed to the
 * thread in its workerData, carries the moment (epoch ms, on the real clock) of the process's last
 * admitted reservation, so that the thread's reservationsFlowing sees the request thread's sale.
 */
let sharedSelling: Float64Array | undefined;

/** Joins the process's shared selling signal: creates it (the request thread) or adopts the given one (the worker thread). */
export function shareSellingSignal(buffer: SharedArrayBuffer = new SharedArrayBuffer(8)): SharedArrayBuffer {
  sharedSelling = new Float64Array(buffer);
  return buffer;
}

/** Database contention that a reservation answers with 1021 instead of an error: SQLite busy/locked, PostgreSQL serialization, deadlock, lock or statement timeout, too many connections. */
export function isContention(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  if (typeof code !== 'string') return false;
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') || ['40001', '40P01', '55P03', '57014', '53300'].includes(code);
}
