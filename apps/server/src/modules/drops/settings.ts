import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';

/**
 * A release's primary-sale settings: its `drop_config` row, else the defaults of config/drops.ts.
 * Later features (sale phases, whitelists, lottery, blind boxes) add their settings to the same row.
 */
export interface DropSettings {
  perIdentityLimit: number;
  maxPerOrder: number;
  commissionPermille: number;
}

export async function dropSettings(ctx: AppContext, projectId: number, q: Q = ctx.db.kysely): Promise<DropSettings> {
  const d = ctx.config.drops;
  const row = await q.selectFrom('drop_config').selectAll().where('project_id', '=', projectId).executeTakeFirst();
  return {
    perIdentityLimit: row ? Number(row.per_identity_limit) : d.perIdentityLimit,
    maxPerOrder: Math.min(row ? Number(row.max_per_order) : d.maxPerOrder, row ? Number(row.per_identity_limit) : d.perIdentityLimit),
    commissionPermille: row?.primary_commission_permille ?? d.commissionPermille,
  };
}

/** Sets a release's settings (the dev route, tests; an admin UI later). */
export async function setDropSettings(ctx: AppContext, projectId: number, s: Partial<DropSettings>, q: Q = ctx.db.kysely) {
  const cur = await dropSettings(ctx, projectId, q);
  const v = { ...cur, ...s };
  const now = ctx.now();
  await q
    .insertInto('drop_config')
    .values({ project_id: projectId, per_identity_limit: v.perIdentityLimit, max_per_order: v.maxPerOrder, primary_commission_permille: s.commissionPermille ?? null, updated_at: now })
    .onConflict((oc) => oc.column('project_id').doUpdateSet({ per_identity_limit: v.perIdentityLimit, max_per_order: v.maxPerOrder, updated_at: now }))
    .execute();
}

/** The commission split of a drop order total: the platform's per-mille share (rounded down), the creator the rest. */
export function primarySplit(totalFen: number, permille: number) {
  const commissionFen = Math.floor((totalFen * permille) / 1000);
  return { commissionFen, creatorFen: totalFen - commissionFen };
}
