import { sql } from 'kysely';
import type { Q } from '../../db/tx.ts';

/**
 * Units taken in the priority phases per release, bucket and real-name identity
 * (`drop_phase_quota`): bucket 'whitelist' (whitelist and claim phases share the whitelist entry's
 * quota) and 'lottery' (the winner's quota in the rights window). The public phase keeps the core's
 * `drop_quota` with the release limit. Same conditional upsert as quota.ts, in the reservation
 * transaction before the order and the stock (lock order: quota rows → orders → drop_stock):
 *
 *   INSERT (p, bucket, identity, n) ON CONFLICT DO UPDATE SET taken = taken + n WHERE taken + n <= limit
 *
 * An order records its bucket (`orders.quota_bucket`), so closing it unpaid gives the units back
 * to the same bucket (release-drop-order.ts).
 */
export type QuotaBucket = 'whitelist' | 'lottery';

export async function takePhaseQuota(trx: Q, projectId: number, bucket: QuotaBucket, identity: string, n: number, limit: number, now: number): Promise<boolean> {
  if (n > limit) return false;
  const row = await trx
    .insertInto('drop_phase_quota')
    .values({ project_id: projectId, bucket, identity_digest: identity, taken: n, updated_at: now })
    .onConflict((oc) =>
      oc
        .columns(['project_id', 'bucket', 'identity_digest'])
        .doUpdateSet({ taken: sql`drop_phase_quota.taken + excluded.taken`, updated_at: now })
        .where(sql<boolean>`drop_phase_quota.taken + excluded.taken <= ${limit}`),
    )
    .returning('taken')
    .executeTakeFirst();
  return row !== undefined;
}

export async function givePhaseQuota(trx: Q, projectId: number, bucket: string, identity: string, n: number, now: number): Promise<void> {
  await trx
    .updateTable('drop_phase_quota')
    .set({ taken: sql`taken - ${n}`, updated_at: now })
    .where('project_id', '=', projectId)
    .where('bucket', '=', bucket)
    .where('identity_digest', '=', identity)
    .where('taken', '>=', n)
    .execute();
}

export async function phaseQuotaTaken(q: Q, projectId: number, bucket: QuotaBucket, identity: string): Promise<number> {
  const row = await q
    .selectFrom('drop_phase_quota')
    .select('taken')
    .where('project_id', '=', projectId)
    .where('bucket', '=', bucket)
    .where('identity_digest', '=', identity)
    .executeTakeFirst();
  return Number(row?.taken ?? 0);
}
