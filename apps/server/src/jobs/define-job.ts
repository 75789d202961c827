import type { JobKind } from '../db/schema.ts';

/** A claimed row of the `jobs` table, as its handler gets it (jobs/runner.ts). */
export interface Job {
  id: number;
  kind: JobKind;
  key: string;
  payload: Record<string, unknown>;
  attempts: number;
}
/** done: finished for good; retryAt: run again at that time (epoch ms). */
export type JobResult = { done: true } | { retryAt: number };
export type JobHandler = (job: Job) => Promise<JobResult>;

/**
 * A durable job kind, defined once by the module that owns its work: the kind (a `jobs.kind` value),
 * the payload's type, and the idempotency key a payload maps to. The module's handler is attached to
 * the definition at start-up (`ctx.jobs.handle(def, handler)`), and the code that needs the work
 * enqueues it with `jobOf(def, payload)` inside its business transaction (`enqueueJob`). The
 * compiler then ties each kind to one payload type on both sides.
 */
export interface JobDefinition<K extends JobKind, P extends Record<string, unknown>> {
  readonly kind: K;
  /** One job per key, ever: enqueueJob inserts nothing when a job with this key exists. */
  key(payload: P): string;
  /** The payload of a claimed row (rows from older versions may carry the id only in their key). */
  read(job: Job): P;
}

export function defineJob<K extends JobKind, P extends Record<string, unknown>>(
  kind: K,
  spec: { key: (payload: P) => string; read: (job: Job) => P },
): JobDefinition<K, P> {
  return { kind, key: spec.key, read: spec.read };
}

/** The row enqueueJob inserts for `payload` of `def` (optionally due at `runAt`, epoch ms). */
export function jobOf<K extends JobKind, P extends Record<string, unknown>>(def: JobDefinition<K, P>, payload: P, runAt?: number): { kind: K; key: string; payload: P; runAt?: number } {
  return runAt === undefined ? { kind: def.kind, key: def.key(payload), payload } : { kind: def.kind, key: def.key(payload), payload, runAt };
}
