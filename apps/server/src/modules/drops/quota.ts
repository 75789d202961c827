import { sql } from 'kysely';
import type { Q } from '../../db/tx.ts';

/**
 * Units of a release held by one real-name identity (`drop_quota`, keyed by the keyed digest of the
 * ID number, so every account verified with that number shares it): reserved by unpaid orders plus
 * paid. A reservation is one conditional upsert in the order's transaction —
 *
 *   INSERT (p, identity, n) ON CONFLICT DO UPDATE SET taken = taken + n WHERE taken + n <= limit
 *
 * — which returns no row when it would go over the limit (the transaction then rolls back).
 * Closing an unpaid order gives the units back (in the transaction of its status move).
 */
export async function takeQuota(trx: Q, projectId: number, identity: string, n: number, limit: number, now: number): Promise<boolean> {
  if (n > limit) return false;
  const row = await trx
    .insertInto('drop_quota')
    .values({ project_id: projectId, identity_digest: identity, taken: n, updated_at: now })
    .onConflict((oc) =>
      oc
        .columns(['project_id', 'identity_digest'])
        .doUpdateSet({ taken: sql`drop_quota.taken + excluded.taken`, updated_at: now })
        .where(sql<boolean>`drop_quota.taken + excluded.taken <= ${limit}`),
    )
    .returning('taken')
    .executeTakeFirst();
  return row !== undefined;
}

export async function giveQuota(trx: Q, projectId: number, identity: string, n: number, now: number): Promise<void> {
  await trx
    .updateTable('drop_quota')
    .set({ taken: sql`taken - ${n}`, updated_at: now })
    .where('project_id', '=', projectId)
    .where('identity_digest', '=', identity)
    .where('taken', '>=', n)
    .execute();
}

/** Units this identity holds of the release (reserved + paid). */
export async function quotaTaken(q: Q, projectId: number, identity: string): Promise<number> {
  const row = await q.selectFrom('drop_quota').select('taken').where('project_id', '=', projectId).where('identity_digest', '=', identity).executeTakeFirst();
  return Number(row?.taken ?? 0);
}
