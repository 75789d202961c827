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

/**
 * Runs `fn` (a domain operation that opens exactly one database transaction of its own, through
 * inTx or kysely.transaction()) with a context whose `transaction()` runs `hook(trx, result)`
 * inside that transaction, after the operation's work and before it commits. The hook writes the
 * audit row — and may refuse (throw), which rolls the whole operation back. A retried attempt
 * (deadlock, busy) runs the hook again in the new attempt. Opening a second transaction after one
 * committed is a programming error and throws: an audited action must be one atomic step. An
 * operation that returns without opening one (it refused before changing anything) has its result
 * handed to the hook in a transaction of the hook's own, where the hook refuses it.
 */
export async function withTxHook<T>(ctx: AppContext, hook: (trx: Q, result: unknown) => Promise<void>, fn: (hooked: AppContext) => Promise<T>): Promise<T> {
  const real = ctx.db.kysely;
  let committed = 0;
  const transaction = () => {
    if (committed > 0) throw new Error('an audited action opened a second transaction');
    return {
      execute: async <R>(inner: (trx: Kysely<Database>) => Promise<R>): Promise<R> => {
        const out = await real.transaction().execute(async (trx) => {
          const r = await inner(trx);
          await hook(trx, r);
          return r;
        });
        committed++;
        return out;
      },
    };
  };
  const kysely = new Proxy(real, {
    get(target, prop) {
      if (prop === 'transaction') return transaction;
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  const hooked: AppContext = { ...ctx, db: { ...ctx.db, kysely } };
  const result = await fn(hooked);
  // Returned without a transaction: the operation decided before changing anything (e.g. closeUnpaidOrder
  // answering false for an order that is no longer unpaid). The hook sees that result in a transaction
  // of its own and refuses it, or records it.
  if (committed === 0) await real.transaction().execute((trx) => hook(trx, result));
  return result;
}
