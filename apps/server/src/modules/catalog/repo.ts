import { sql } from 'kysely';
import type { CreatorBrief, GoodsCard, ProjectCard, ProjectStatus, SaleWindow } from '@cfx/contract/catalog.ts';
import { Status } from '@cfx/contract/envelope.ts';
import type { MessageKey } from '@cfx/contract/messages.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { saleWindowsOf } from './phase-windows.ts';
import { projectInfos, type ProjectInfo } from './project-info.ts';
import { SOLD, SUPPLY } from './stock-sql.ts';

/** Shared reads of the catalog: card columns, row mappers, the derived release status. */

export const notFound = (key: MessageKey) => new ApiError(Status.NOT_FOUND_ITEM, key, {}, 404);

/** Status of a release at `now`: before the start upcoming; sold out; after the end ended; else on sale. */
export function projectStatusOf(p: { sale_start_at: number; sale_end_at: number | null; sold: number; supply: number }, now: number): ProjectStatus {
  if (now < Number(p.sale_start_at)) return 'upcoming';
  if (Number(p.sold) >= Number(p.supply)) return 'sold_out';
  if (p.sale_end_at !== null && now >= Number(p.sale_end_at)) return 'ended';
  return 'on_sale';
}
export const STATUS_RANK: Record<ProjectStatus, number> = { on_sale: 0, upcoming: 1, sold_out: 2, ended: 3 };

/** The same rule in SQL (0 on sale, 1 upcoming, 2 sold out, 3 ended) for filters and sorting. */
export function projectStatusRank(now: number) {
  return sql<number>`(case when projects.sale_start_at > ${now} then 1 when ${SOLD} >= ${SUPPLY} then 2 when projects.sale_end_at is not null and projects.sale_end_at <= ${now} then 3 else 0 end)`;
}

export { SOLD, SUPPLY } from './stock-sql.ts';

export function projectCardQuery(ctx: AppContext) {
  return ctx.db.kysely
    .selectFrom('projects')
    .leftJoin('drop_stock', 'drop_stock.project_id', 'projects.id')
    .innerJoin('creators', 'creators.id', 'projects.creator_id')
    .innerJoin('users as cu', 'cu.id', 'creators.user_id')
    .select([
      'projects.id',
      'projects.name',
      'projects.cover',
      'projects.category',
      'projects.price_fen',
      SUPPLY.as('supply'),
      SOLD.as('sold'),
      'projects.sale_start_at',
      'projects.sale_end_at',
      'projects.holding_days',
      'creators.id as creator_id',
      'creators.name as creator_name',
      'creators.avatar as creator_avatar',
      'cu.account_id as creator_account_id',
    ]);
}
export interface ProjectCardRow {
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
  creator_id: number;
  creator_name: string;
  creator_avatar: string;
  creator_account_id: string;
}

export function creatorBriefOf(r: { creator_id: number; creator_name: string; creator_avatar: string; creator_account_id: string }): CreatorBrief {
  return { id: Number(r.creator_id), accountId: r.creator_account_id, name: r.creator_name, avatar: r.creator_avatar };
}

export function toProjectCard(r: ProjectCardRow, now: number, phases: SaleWindow[] = []): ProjectCard {
  const supply = Number(r.supply);
  const sold = Math.min(Number(r.sold), supply);
  return {
    id: Number(r.id),
    name: r.name,
    cover: r.cover,
    category: r.category,
    priceFen: Number(r.price_fen),
    supply,
    sold,
    remaining: supply - sold,
    status: projectStatusOf(r, now),
    saleStartAt: Number(r.sale_start_at),
    saleEndAt: r.sale_end_at === null ? null : Number(r.sale_end_at),
    holdingDays: Number(r.holding_days),
    creator: creatorBriefOf(r),
    phases,
  };
}

export async function projectCardsByIds(ctx: AppContext, ids: number[]): Promise<Map<number, ProjectCard>> {
  const out = new Map<number, ProjectCard>();
  if (!ids.length) return out;
  const now = ctx.now();
  const [rows, windows] = await Promise.all([projectCardQuery(ctx).where('projects.id', 'in', ids).execute(), saleWindowsOf(ctx, ids)]);
  for (const r of rows) out.set(Number(r.id), toProjectCard(r, now, windows.get(Number(r.id))));
  return out;
}

/** A collectible card by joining its release and creator (for queries that add their own joins and filters). */
export function goodsCardQuery(ctx: AppContext) {
  return ctx.db.kysely
    .selectFrom('goods')
    .innerJoin('projects', 'projects.id', 'goods.project_id')
    .innerJoin('creators', 'creators.id', 'projects.creator_id')
    .select([
      'goods.id',
      'goods.name',
      'goods.image',
      'goods.serial',
      'projects.supply',
      'goods.project_id',
      'projects.name as project_name',
      'creators.name as creator_name',
      'goods.status',
      'goods.sale_price_fen',
      'goods.last_price_fen',
      'goods.chain_status',
    ]);
}
export interface GoodsCardRow extends GoodsRow {
  supply: number;
  project_name: string;
  creator_name: string;
}

/** Columns of `goods` alone that a card needs; the release and creator come from the in-memory release map. */
export const GOODS_CARD_COLUMNS = [
  'goods.id',
  'goods.name',
  'goods.image',
  'goods.serial',
  'goods.project_id',
  'goods.status',
  'goods.sale_price_fen',
  'goods.last_price_fen',
  'goods.chain_status',
] as const;
export interface GoodsRow {
  id: number;
  name: string;
  image: string;
  serial: number;
  project_id: number;
  status: string;
  sale_price_fen: number | null;
  last_price_fen: number | null;
  chain_status: string;
}

const nullableNumber = (v: number | string | null) => (v === null ? null : Number(v));

/** A card from a goodsCardQuery row. */
export function toGoodsCard(r: GoodsCardRow): GoodsCard {
  return toGoodsCardWith(r, { id: Number(r.project_id), name: r.project_name, supply: Number(r.supply), creatorName: r.creator_name });
}

/** A card from a `goods` row and its release. */
export function toGoodsCardWith(r: GoodsRow, p: { id: number; name: string; supply: number; creatorName: string }): GoodsCard {
  return {
    id: Number(r.id),
    name: r.name,
    image: r.image,
    serial: Number(r.serial),
    supply: p.supply,
    projectId: p.id,
    projectName: p.name,
    creatorName: p.creatorName,
    status: r.status === 'on_sale' ? 'on_sale' : r.status === 'burned' ? 'burned' : 'held',
    salePriceFen: r.status === 'on_sale' ? nullableNumber(r.sale_price_fen) : null,
    lastPriceFen: nullableNumber(r.last_price_fen),
    chainStatus: r.chain_status === 'minted' ? 'minted' : 'pending',
  };
}

const briefOf = (p: ProjectInfo) => ({ id: p.id, name: p.name, supply: p.supply, creatorName: p.creator.name });

/** Cards of `goods` rows (GOODS_CARD_COLUMNS), in row order. */
export async function goodsCardsOf(ctx: AppContext, rows: GoodsRow[]): Promise<GoodsCard[]> {
  const projects = await projectInfos(ctx, rows.map((r) => Number(r.project_id)));
  return rows.flatMap((r) => {
    const p = projects.get(Number(r.project_id));
    return p ? [toGoodsCardWith(r, briefOf(p))] : [];
  });
}
export const goodsCardFromInfo = (r: GoodsRow, p: ProjectInfo) => toGoodsCardWith(r, briefOf(p));

export async function goodsCardsByIds(ctx: AppContext, ids: number[]): Promise<Map<number, GoodsCard>> {
  const out = new Map<number, GoodsCard>();
  if (!ids.length) return out;
  const rows = await ctx.db.kysely.selectFrom('goods').select(GOODS_CARD_COLUMNS).where('goods.id', 'in', ids).execute();
  for (const c of await goodsCardsOf(ctx, rows)) out.set(c.id, c);
  return out;
}

export async function goodsExists(ctx: AppContext, id: number): Promise<boolean> {
  return Boolean(await ctx.db.kysely.selectFrom('goods').select('id').where('id', '=', id).executeTakeFirst());
}

/** Parses a JSON column that should hold an array; anything else is an empty array. */
export function jsonArray<T>(text: string): T[] {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? (v as T[]) : [];
  } catch {
    return [];
  }
}

