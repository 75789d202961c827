import { sql } from 'kysely';
import type { Page } from '@cfx/contract/paging.ts';
import type { ProjectCard, ProjectStatus } from '@cfx/contract/catalog.ts';
import type { AppContext } from '../../context.ts';
import { saleWindowsOf } from './phase-windows.ts';
import { notFound, projectCardQuery, projectStatusOf, projectStatusRank, SOLD, STATUS_RANK, SUPPLY, toProjectCard } from './repo.ts';

export interface ProjectFilter {
  pageNum: number;
  pageSize: number;
  status?: ProjectStatus | 'all' | null;
  category?: string | null;
  creatorId?: number;
  sort?: 'default' | 'newest' | 'startAsc' | 'priceAsc' | 'priceDesc' | null;
}

/** Releases, filtered and paged. The default order: on sale, upcoming (soonest first), sold out / ended (newest first). */
export async function listProjects(ctx: AppContext, f: ProjectFilter): Promise<Page<ProjectCard>> {
  const now = ctx.now();
  const rank = projectStatusRank(now);
  let q = projectCardQuery(ctx);
  if (f.status && f.status !== 'all') q = q.where(rank, '=', STATUS_RANK[f.status]);
  if (f.category) q = q.where('projects.category', '=', f.category);
  if (f.creatorId !== undefined) q = q.where('projects.creator_id', '=', f.creatorId);

  const countRow = await q.clearSelect().select((e) => e.fn.countAll<number>().as('n')).executeTakeFirst();
  const total = Number(countRow?.n ?? 0);

  let ordered = q;
  switch (f.sort ?? 'default') {
    case 'newest':
      ordered = ordered.orderBy('projects.sale_start_at', 'desc');
      break;
    case 'startAsc':
      ordered = ordered.orderBy('projects.sale_start_at', 'asc');
      break;
    case 'priceAsc':
      ordered = ordered.orderBy('projects.price_fen', 'asc');
      break;
    case 'priceDesc':
      ordered = ordered.orderBy('projects.price_fen', 'desc');
      break;
    default:
      ordered = ordered
        .orderBy(rank)
        .orderBy(sql`case when projects.sale_start_at > ${now} then projects.sale_start_at else -projects.sale_start_at end`)
        .orderBy('projects.sort', 'desc');
  }
  const rows = await ordered
    .orderBy('projects.id', 'desc')
    .limit(f.pageSize)
    .offset((f.pageNum - 1) * f.pageSize)
    .execute();
  const windows = await saleWindowsOf(ctx, rows.map((r) => Number(r.id)));
  return { list: rows.map((r) => toProjectCard(r, now, windows.get(Number(r.id)))), total, pageNum: f.pageNum, pageSize: f.pageSize };
}

/** The releases of the creator whose user account is `accountId`. */
export async function listCreatorProjects(ctx: AppContext, accountId: string, f: Omit<ProjectFilter, 'creatorId'>): Promise<Page<ProjectCard>> {
  const creator = await ctx.db.kysely
    .selectFrom('creators')
    .innerJoin('users', 'users.id', 'creators.user_id')
    .select('creators.id')
    .where('users.account_id', '=', accountId.trim())
    .executeTakeFirst();
  if (!creator) throw notFound('creatorNotFound');
  return listProjects(ctx, { ...f, creatorId: Number(creator.id) });
}

/** Every release as an option (filters, the findAll call), newest first. */
export async function findAllProjects(ctx: AppContext) {
  const now = ctx.now();
  const rows = await ctx.db.kysely
    .selectFrom('projects')
    .leftJoin('drop_stock', 'drop_stock.project_id', 'projects.id')
    .select(['projects.id', 'projects.name', 'projects.cover', 'projects.category', 'projects.sale_start_at', 'projects.sale_end_at', SOLD.as('sold'), SUPPLY.as('supply')])
    .orderBy('projects.sale_start_at', 'desc')
    .orderBy('projects.id', 'desc')
    .limit(1000)
    .execute();
  return rows.map((r) => ({ id: Number(r.id), name: r.name, cover: r.cover, category: r.category, status: projectStatusOf(r, now) }));
}
