import type { ProjectDetail } from '@cfx/contract/catalog.ts';
import type { AppContext } from '../../context.ts';
import { saleWindowsOf } from './phase-windows.ts';
import { releaseMediaOf } from './release-media.ts';
import { notFound, projectCardQuery, toProjectCard } from './repo.ts';

async function projectRow(ctx: AppContext, id: number) {
  const row = await projectCardQuery(ctx)
    .select(['projects.description_html', 'projects.contract_address', 'projects.token_start', 'projects.token_end', 'projects.media_kind', 'projects.media_key'])
    .where('projects.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('projectNotFound');
  return row;
}

const tokenStr = (v: number | string | null) => (v === null ? null : String(v));

/** A release page: the card plus description, contract and token range. */
export async function getProject(ctx: AppContext, id: number): Promise<ProjectDetail> {
  const [row, windows] = await Promise.all([projectRow(ctx, id), saleWindowsOf(ctx, [id])]);
  const now = ctx.now();
  return {
    ...toProjectCard(row, now, windows.get(id)),
    descriptionHtml: row.description_html,
    contractAddress: row.contract_address,
    tokenStart: tokenStr(row.token_start),
    tokenEnd: tokenStr(row.token_end),
    media: releaseMediaOf(ctx, row.media_kind, row.media_key),
    serverTime: now,
  };
}

/** The live sale state (the dropping page polls it for its countdown and the remaining count). */
export async function getProjectSale(ctx: AppContext, id: number) {
  const row = await projectRow(ctx, id);
  const now = ctx.now();
  const card = toProjectCard(row, now);
  return {
    id: card.id,
    status: card.status,
    priceFen: card.priceFen,
    supply: card.supply,
    sold: card.sold,
    remaining: card.remaining,
    saleStartAt: card.saleStartAt,
    saleEndAt: card.saleEndAt,
    serverTime: now,
    startsInMs: Math.max(0, card.saleStartAt - now),
    endsInMs: card.saleEndAt === null ? null : Math.max(0, card.saleEndAt - now),
  };
}

/** What a page title, share card or breadcrumb needs. */
export async function getProjectTitle(ctx: AppContext, id: number) {
  const row = await projectRow(ctx, id);
  const card = toProjectCard(row, ctx.now());
  return { id: card.id, name: card.name, cover: card.cover, category: card.category, status: card.status, creator: card.creator };
}
