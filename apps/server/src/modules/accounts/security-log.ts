import type { SecurityEventKind } from '@cfx/contract/account-security.ts';
import type { AppContext } from '../../context.ts';
import type { SecurityEventKindDb } from '../../db/schema.ts';
import type { Q } from '../../db/tx.ts';
import type { ClientMeta } from './client-info.ts';
import { deviceSummary, maskIp } from './client-info.ts';

// The database's kinds and the API's kinds are the same set (compile-time check).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const kindsMatch: Same<SecurityEventKindDb, SecurityEventKind> = true;
void kindsMatch;

/**
 * The security log: one row per security-relevant change of an account, written in the same
 * transaction as the change. `detail` holds no secret and no clear personal data (masked phones,
 * counts, ids of our own rows).
 */
export async function recordSecurityEvent(
  q: Q,
  e: { userId: number; kind: SecurityEventKind; meta?: ClientMeta | null; detail?: Record<string, unknown>; at: number },
): Promise<void> {
  await q
    .insertInto('security_events')
    .values({
      user_id: e.userId,
      kind: e.kind,
      ip: e.meta?.ip ?? null,
      user_agent: e.meta?.userAgent ? e.meta.userAgent.slice(0, 300) : null,
      detail: e.detail ? JSON.stringify(e.detail) : null,
      created_at: e.at,
    })
    .execute();
}

/** My latest security log entries (newest first), with a device summary and the IP masked. */
export async function listSecurityEvents(ctx: AppContext, userId: number, limit = 20) {
  const rows = await ctx.db.kysely
    .selectFrom('security_events')
    .select(['kind', 'ip', 'user_agent', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ kind: r.kind, device: deviceSummary(r.user_agent), ip: maskIp(r.ip), at: Number(r.created_at) }));
}
