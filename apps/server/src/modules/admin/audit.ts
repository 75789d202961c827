import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import type { Q } from '../../db/tx.ts';

/**
 * The audit log: one `audit_log` row per mutating staff action, written in the SAME database
 * transaction as the action (so there is never an action without its row, nor a row for an action
 * that rolled back). Two ways to get there:
 * - actions of this module run their own transaction and call `writeAudit(trx, …)` in it;
 * - actions done through another module's domain function (which opens its own transaction:
 *   reviewApplication, replyTicket, closeUnpaidOrder, refundOrder, …) run through `withTxHook`,
 *   which writes the row inside that function's transaction, after its work and before its commit.
 * Summaries never hold secrets, and personal data in them is masked (`cleanSummary`).
 */
export interface AuditEntry {
  /** `<area>.<verb>`, e.g. `user.freeze`, `order.refund`, `staff.create`. */
  action: string;
  targetType: string;
  targetId?: string | number | null;
  /** Before / after and the reason; cleaned before it is stored. */
  summary?: Record<string, unknown>;
}

export interface AuditActor {
  /** null: the bootstrap CLI. */
  staffId: number | null;
  /** Already masked (maskIp). */
  ipMasked: string;
}

/** Keys whose values are never stored, whatever their value. */
const SECRET_KEY = /pass(word)?|pwd|secret|token|otp|totp|code|sign|key|idnumber|id_sealed|name_sealed|birth/i;
const PHONE = /(?<!\d)(1\d{2})\d{4}(\d{4})(?!\d)/g;
const ID_NUMBER = /(?<![0-9A-Za-z])(\d{6})\d{8}(\d{3}[\dXx])(?![0-9A-Za-z])/g;
const EMAIL = /([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g;

/** Masks phone numbers, ID-card numbers and e-mail addresses inside free text, and bounds its length. */
export function maskText(s: string): string {
  return s.replace(ID_NUMBER, '$1********$2').replace(PHONE, '$1****$2').replace(EMAIL, '$1***@$2').slice(0, 300);
}

/** A summary fit for the log: secret-looking keys dropped, strings masked, depth and size bounded. */
export function cleanSummary(v: unknown, depth = 0): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return maskText(v);
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  if (depth >= 3) return null;
  if (Array.isArray(v)) return v.slice(0, 20).map((x) => cleanSummary(x, depth + 1));
  if (typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>).slice(0, 30)) {
      if (SECRET_KEY.test(k)) continue;
      out[k] = cleanSummary(x, depth + 1);
    }
    return out;
  }
  return null;
}

/** Writes an audit row in `trx` for the request's staff member (or `staffId`: the one signing in). */
export type AuditWrite = (trx: Q, entry: AuditEntry, staffId?: number) => Promise<void>;

/** Writes one audit row inside the caller's transaction. */
export async function writeAudit(trx: Q, actor: AuditActor, entry: AuditEntry, now: number): Promise<void> {
  const summary = JSON.stringify(cleanSummary(entry.summary ?? {}));
  await trx
    .insertInto('audit_log')
    .values({
      staff_id: actor.staffId,
      action: entry.action.slice(0, 64),
      target_type: entry.targetType.slice(0, 32),
      target_id: entry.targetId === undefined || entry.targetId === null ? null : String(entry.targetId).slice(0, 64),
      summary: summary.length > 4000 ? JSON.stringify({ truncated: true }) : summary,
      ip_masked: actor.ipMasked.slice(0, 64),
      created_at: now,
    })
    .execute();
}

/** The audited call running in this async context (audit.ts withTxHook). */
interface HookState {
  hook: (trx: Q, result: unknown) => Promise<void>;
  committed: boolean;
  done: boolean;
}
const calls = new AsyncLocalStorage<HookState>();
const patched = new WeakSet<object>();

/**
 * Makes `kysely.transaction()` hook-aware, once per database handle: inside an audited call (see
 * withTxHook) the first transaction that commits runs the hook inside itself; everywhere else —
 * every other request, every background task — it is Kysely's own, untouched. The handle, the
 * database object and the context keep their identity (modules key caches and event buses on them).
 */
function installHook(kysely: Kysely<Database>) {
  if (patched.has(kysely)) return;
  patched.add(kysely);
  const original = kysely.transaction.bind(kysely);
  (kysely as { transaction: typeof kysely.transaction }).transaction = () => {
    const builder = original();
    const state = calls.getStore();
    if (!state || state.done || state.committed) return builder;
    const execute = builder.execute.bind(builder);
    return new Proxy(builder, {
      get(target, prop) {
        if (prop === 'execute') {
          return async <R>(inner: (trx: Kysely<Database>) => Promise<R>): Promise<R> => {
            const out = await execute(async (trx) => {
              const r = await inner(trx);
              await state.hook(trx, r);
              return r;
            });
            state.committed = true;
            return out;
          };
        }
        const v = Reflect.get(target, prop, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  };
}

/**
 * Runs `fn` — a domain operation that makes its change in its first database transaction (inTx or
 * kysely.transaction()) — so that `hook(trx, result)` runs inside that transaction, after the
 * operation's work and before it commits. The hook writes the audit row, and may refuse (throw),
 * which rolls the whole operation back. An attempt that is retried (deadlock, busy) runs the hook
 * again in the new attempt; transactions after the first committed one are left alone. An
 * operation that returns without committing one (it refused before changing anything) has its
 * result handed to the hook in a transaction of the hook's own, where the hook refuses it or
 * records it. Only code running in this call's async context is affected (AsyncLocalStorage).
 */
export async function withTxHook<T>(ctx: AppContext, hook: (trx: Q, result: unknown) => Promise<void>, fn: (ctx: AppContext) => Promise<T>): Promise<T> {
  installHook(ctx.db.kysely);
  const state: HookState = { hook, committed: false, done: false };
  try {
    const result = await calls.run(state, () => fn(ctx));
    state.done = true;
    if (!state.committed) await ctx.db.kysely.transaction().execute((trx) => hook(trx, result));
    return result;
  } finally {
    state.done = true;
  }
}
