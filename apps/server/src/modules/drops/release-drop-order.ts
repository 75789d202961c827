import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';
import { givePhaseQuota } from './phase-quota.ts';
import { giveQuota } from './quota.ts';
import { dropStockSnapshot, giveStock } from './stock.ts';

/**
 * An unpaid drop order closed (expired or cancelled): its units go back to the release's stock and
 * to the buyer identity's quota. Call it in the transaction that moved the order out of
 * created / paying — that conditional move happens exactly once, so the units come back exactly
 * once. Lock order: orders (the move) → drop_quota → drop_stock. A market order is left alone.
 */
export async function releaseDropOrder(ctx: AppContext, trx: Q, orderNo: string, now: number): Promise<boolean> {
  const o = await trx.selectFrom('orders').select(['kind', 'project_id', 'quantity', 'identity_digest', 'quota_bucket']).where('order_no', '=', orderNo).executeTakeFirst();
  if (!o || o.kind !== 'drop' || o.project_id === null || o.quantity === null) return false;
  const projectId = Number(o.project_id);
  const n = Number(o.quantity);
  // Back to the bucket the units came from (a whitelist / lottery phase, else the release limit).
  if (o.identity_digest && o.quota_bucket) await givePhaseQuota(trx, projectId, o.quota_bucket, o.identity_digest, n, now);
  else if (o.identity_digest) await giveQuota(trx, projectId, o.identity_digest, n, now);
  await giveStock(trx, projectId, n, now);
  dropStockSnapshot(ctx, projectId);
  return true;
}
