import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';
import { TimedCache } from '../../util/timed-cache.ts';

/**
 * A release's primary-sale settings: its `drop_config` row, else the defaults of config/drops.ts.
 * Later features (sale phases, whitelists, lottery, blind boxes) add their settings to the same row.
 */
export interface DropSettings {
  perIdentityLimit: number;
  maxPerOrder: number;
  commissionPermille: number;
}

/**
 * Read through a per-process cache (kept up to MAX_AGE_MS of the cache clock, like the release in
 * release.ts): this process's own writes forget the entry at once (setDropSettings, and every
 * forgetDropReleases — the console's release edit, a new release), another process's show within a
 * second. A read inside a transaction (`q` given) always goes to the database.
 */
export function dropSettings(ctx: AppContext, projectId: number, q?: Q): Promise<DropSettings> {
  if (q) return loadSettings(ctx, projectId, q);
  let c = caches.get(ctx.db);
  if (!c) caches.set(ctx.db, (c = new TimedCache(MAX_AGE_MS, () => ctx.monotonicNow())));
  return c.get(projectId, () => loadSettings(ctx, projectId, ctx.db.kysely));
}

const MAX_AGE_MS = 1000;
const caches = new WeakMap<object, TimedCache<number, DropSettings>>();

/** Forget cached settings (of one release, or all: a release was created or edited in this process). */
export function forgetDropSettings(ctx: AppContext, projectId?: number) {
  caches.get(ctx.db)?.forget(projectId);
}

async function loadSettings(ctx: AppContext, projectId: number, q: Q): Promise<DropSettings> {
  const d = ctx.config.drops;
  const row = await q.selectFrom('drop_config').selectAll().where('project_id', '=', projectId).executeTakeFirst();
  return {
    perIdentityLimit: row ? Number(row.per_identity_limit) : d.perIdentityLimit,
    maxPerOrder: Math.min(row ? Number(row.max_per_order) : d.maxPerOrder, row ? Number(row.per_identity_limit) : d.perIdentityLimit),
    commissionPermille: row?.primary_commission_permille ?? d.commissionPermille,
  };
}

/** Sets a release's settings (the dev route, tests; an admin UI later). */
export async function setDropSettings(ctx: AppContext, projectId: number, s: Partial<DropSettings>, q?: Q) {
  forgetDropSettings(ctx, projectId);
  const cur = await dropSettings(ctx, projectId, q ?? ctx.db.kysely);
  const v = { ...cur, ...s };
  const now = ctx.now();
  await (q ?? ctx.db.kysely)
    .insertInto('drop_config')
    .values({ project_id: projectId, per_identity_limit: v.perIdentityLimit, max_per_order: v.maxPerOrder, primary_commission_permille: s.commissionPermille ?? null, updated_at: now })
    .onConflict((oc) => oc.column('project_id').doUpdateSet({ per_identity_limit: v.perIdentityLimit, max_per_order: v.maxPerOrder, updated_at: now }))
    .execute();
  forgetDropSettings(ctx, projectId);
}

/** The commission split of a drop order total: the platform's per-mille share (rounded down), the creator the rest. */
export function primarySplit(totalFen: number, permille: number) {
  const commissionFen = Math.floor((totalFen * permille) / 1000);
  return { commissionFen, creatorFen: totalFen - commissionFen };
}
