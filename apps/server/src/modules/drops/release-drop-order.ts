import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';
import type { ClosableOrder } from '../orders/index.ts';
import { givePhaseQuota } from './phase-quota.ts';
import { giveQuota } from './quota.ts';
import { dropStockSnapshot, giveStock, giveStockAfterCommit } from './stock.ts';
import { compareText } from '../../util/compare.ts';

/**
 * Unpaid drop orders closed (expired or cancelled), each once and as its closing transaction read
 * it: their units go back to the release's stock and to the buyer identities' quotas. Call it in the transaction that moved the orders out of
 * created / paying — that conditional move happens exactly once, so the units come back exactly
 * once. Market orders among them are left alone. Returns how many drop orders gave units back.
 *
 * Lock order, as the reservation batches take them: orders (the moves, before this) → the quotas,
 * sorted by release, bucket and identity → each release's stock row once, for the sum of its units
 * (SQLite). On PostgreSQL the stock rows are not locked here at all: the units go into a returns row
 * per release, folded into the stock once the transaction has committed (stock.ts,
 * giveStockAfterCommit). An expiry sweep that closes a hundred orders of one release so writes one
 * return for them.
 */
export async function releaseDropOrders(ctx: AppContext, trx: Q, rows: readonly ClosableOrder[], now: number): Promise<number> {
  const drops = rows
    .filter((o) => o.kind === 'drop' && o.project_id !== null && o.quantity !== null)
    .map((o) => ({ projectId: Number(o.project_id), n: Number(o.quantity), identity: o.identity_digest, bucket: o.quota_bucket }))
    .sort((a, b) => a.projectId - b.projectId || compareText(a.bucket ?? '', b.bucket ?? '') || compareText(a.identity ?? '', b.identity ?? ''));
  const units = new Map<number, number>();
  for (const o of drops) {
    // Back to the bucket the units came from (a whitelist / lottery phase, else the release limit).
    if (o.identity && o.bucket) await givePhaseQuota(trx, o.projectId, o.bucket, o.identity, o.n, now);
    else if (o.identity) await giveQuota(trx, o.projectId, o.identity, o.n, now);
    units.set(o.projectId, (units.get(o.projectId) ?? 0) + o.n);
  }
  // PostgreSQL: no stock row locked until the commit's round trip (giveStockAfterCommit); SQLite's transactions run alone anyway.
  if (ctx.db.dialect === 'postgres') await giveStockAfterCommit(ctx, trx, units, now);
  else
    for (const [projectId, n] of units) {
      await giveStock(trx, projectId, n, now);
      dropStockSnapshot(ctx, projectId);
    }
  return drops.length;
}
