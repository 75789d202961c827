import type { CreatorBrief } from '@cfx/contract/catalog.ts';
import type { AppContext } from '../../context.ts';
import { SOLD, SUPPLY } from './stock-sql.ts';

/**
 * The releases with their creators, kept in memory per database. Collectible pages and lists need
 * a release's name, supply, price, sale window and creator for every card; reading them from this
 * map instead of joining three more tables per row is what keeps goods/v1/details/ and list/index
 * fast (bench/RESULTS.md). Releases are few and change rarely: the map is reloaded in the
 * background when older than MAX_AGE_MS (so a sold count or rename shows within about a second in
 * every process), and at once when an unknown release id is asked for. Writers in this process
 * call invalidateProjectInfo to see their change immediately. A reload keeps the object of a release
 * that did not change, so a cache may compare ProjectInfo objects by identity. The age is measured
 * on the cache clock (ctx.monotonicNow, see context.ts).
 */
const MAX_AGE_MS = 1000;

export interface ProjectInfo {
  id: number;
  name: string;
  cover: string;
  category: string;
  price_fen: number;
  supply: number;
  sold: number;
  sale_start_at: number;
  sale_end_at: number | null;
  holding_days: number;
  /** Artwork media (migration 0029); null = the cover only. */
  media_kind: string | null;
  media_key: string | null;
  creator: CreatorBrief;
}

interface Holder {
  map: Map<number, ProjectInfo>;
  byCategory: Map<string, number[]>;
  loadedAt: number;
  loading?: Promise<void>;
}
const holders = new WeakMap<object, Holder>();

async function load(ctx: AppContext, h: Holder) {
  // The map is as fresh as the moment its query started.
  const loadStartedAt = ctx.monotonicNow();
  const rows = await ctx.db.kysely
    .selectFrom('projects')
    .leftJoin('drop_stock', 'drop_stock.project_id', 'projects.id')
    .innerJoin('creators', 'creators.id', 'projects.creator_id')
    .innerJoin('users', 'users.id', 'creators.user_id')
    .select([
      'projects.id', 'projects.name', 'projects.cover', 'projects.category', 'projects.price_fen', SUPPLY.as('supply'), SOLD.as('sold'),
      'projects.sale_start_at', 'projects.sale_end_at', 'projects.holding_days', 'projects.media_kind', 'projects.media_key',
      'creators.id as creator_id', 'creators.name as creator_name', 'creators.avatar as creator_avatar', 'users.account_id as creator_account_id',
    ])
    .execute();
  const map = new Map<number, ProjectInfo>();
  const byCategory = new Map<string, number[]>();
  for (const r of rows) {
    const id = Number(r.id);
    const info: ProjectInfo = {
      id,
      name: r.name,
      cover: r.cover,
      category: r.category,
      price_fen: Number(r.price_fen),
      supply: Number(r.supply),
      sold: Number(r.sold),
      sale_start_at: Number(r.sale_start_at),
      sale_end_at: r.sale_end_at === null ? null : Number(r.sale_end_at),
      holding_days: Number(r.holding_days),
      media_kind: r.media_kind ?? null,
      media_key: r.media_key ?? null,
      creator: { id: Number(r.creator_id), accountId: r.creator_account_id, name: r.creator_name, avatar: r.creator_avatar },
    };
    // An unchanged release keeps its object, so caches built from it can tell "unchanged" by identity.
    const before = h.map.get(id);
    map.set(id, before && sameInfo(before, info) ? before : info);
    const c = byCategory.get(r.category);
    if (c) c.push(id);
    else byCategory.set(r.category, [id]);
  }
  h.map = map;
  h.byCategory = byCategory;
  h.loadedAt = loadStartedAt;
}

function sameInfo(a: ProjectInfo, b: ProjectInfo): boolean {
  for (const k of Object.keys(b) as (keyof ProjectInfo)[]) {
    if (k !== 'creator' && a[k] !== b[k]) return false;
  }
  const x = a.creator;
  const y = b.creator;
  return x.id === y.id && x.accountId === y.accountId && x.name === y.name && x.avatar === y.avatar;
}

function reload(ctx: AppContext, h: Holder): Promise<void> {
  h.loading ??= load(ctx, h).finally(() => {
    h.loading = undefined;
  });
  return h.loading;
}

async function holder(ctx: AppContext): Promise<Holder> {
  let h = holders.get(ctx.db);
  if (!h) {
    h = { map: new Map(), byCategory: new Map(), loadedAt: -Infinity };
    holders.set(ctx.db, h);
    await reload(ctx, h);
  } else if (ctx.monotonicNow() - h.loadedAt > MAX_AGE_MS) {
    reload(ctx, h).catch(() => undefined);
  }
  return h;
}

/** The release of `id`, or undefined when there is none. */
export async function projectInfo(ctx: AppContext, id: number): Promise<ProjectInfo | undefined> {
  const h = await holder(ctx);
  let p = h.map.get(id);
  if (!p) {
    await reload(ctx, h);
    p = h.map.get(id);
  }
  return p;
}

/** Releases of these ids (missing ones reload the map once). */
export async function projectInfos(ctx: AppContext, ids: Iterable<number>): Promise<Map<number, ProjectInfo>> {
  const h = await holder(ctx);
  const want = [...new Set(ids)];
  if (want.some((id) => !h.map.has(id))) await reload(ctx, h);
  return h.map;
}

/** Ids of the releases of a category. */
export async function projectIdsOfCategory(ctx: AppContext, category: string): Promise<number[]> {
  return (await holder(ctx)).byCategory.get(category) ?? [];
}

/** Resolves when a reload of the release map that is under way has finished (tests; at once when none is). */
export async function projectInfoSettled(ctx: AppContext): Promise<void> {
  await holders.get(ctx.db)?.loading;
}

export function invalidateProjectInfo(ctx: AppContext) {
  holders.delete(ctx.db);
}
