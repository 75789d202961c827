import { sql } from 'kysely';
import type { AdminBox, AdminReleaseDetail, AdminReleaseRow, EpochInfo, ReleaseOptions, WhitelistEntry } from '@cfx/contract/admin-catalog.ts';
import { DEFAULT_MS_PER_EPOCH } from '@cfx/contract/admin-catalog-rules.ts';
import type { Page } from '@cfx/contract/admin.ts';
import type { ProjectStatus } from '@cfx/contract/catalog.ts';
import type { AppContext } from '../../../context.ts';
import { maskMobile } from '../../../util/crypto.ts';
import { projectStatusOf, projectStatusRank, SOLD, STATUS_RANK } from '../../catalog/index.ts';
import { loadBoxRelease } from '../../boxes/index.ts';
import { releaseRole, releaseState } from '../../drops/index.ts';
import { epochTiming } from '../../drops/index.ts';
import { lotteryView } from '../../drops/index.ts';
import { currentPhase, loadPlan, phaseViews, timeline } from '../../drops/index.ts';
import { royaltyPermilleOf } from '../../market/index.ts';
import { likeEscape } from '../users.ts';

/**
 * Reads of the release editor (docs/admin.md "Releases"): the list with live stock and phases, one
 * release with what may still change (drops/edit-release.ts releaseState), the form's options, the
 * chain's epoch for the lottery, and the whitelist entries (phones masked).
 */
export async function listReleases(ctx: AppContext, f: { q: string; status?: ProjectStatus | null; pageNum: number; pageSize: number }): Promise<Page<AdminReleaseRow>> {
  const now = ctx.now();
  let q = ctx.db.kysely
    .selectFrom('projects')
    .leftJoin('drop_stock', 'drop_stock.project_id', 'projects.id')
    .innerJoin('creators', 'creators.id', 'projects.creator_id');
  if (f.q) {
    const t = f.q.trim();
    q = /^\d{1,15}$/.test(t)
      ? q.where((e) => e.or([e('projects.id', '=', Number(t)), e('projects.name', 'like', `%${t}%`)]))
      : q.where(sql<boolean>`projects.name like ${`%${likeEscape(t)}%`} escape '\\'`);
  }
  if (f.status) q = q.where(projectStatusRank(now), '=', STATUS_RANK[f.status]);
  const total = Number((await q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q
    .select([
      'projects.id', 'projects.name', 'projects.cover', 'projects.category', 'projects.price_fen', 'projects.supply', 'projects.sale_start_at', 'projects.sale_end_at',
      'projects.created_at', 'creators.name as creator_name', SOLD.as('sold'), 'drop_stock.taken', 'drop_stock.paid',
    ])
    .orderBy('projects.id', 'desc')
    .limit(f.pageSize)
    .offset((f.pageNum - 1) * f.pageSize)
    .execute();
  const list: AdminReleaseRow[] = [];
  for (const r of rows) {
    const id = Number(r.id);
    const [plan, role] = await Promise.all([loadPlan(ctx.db.kysely, id), releaseRole(ctx.db.kysely, id)]);
    const cur = plan.phases.length ? currentPhase(timeline(plan), now) : null;
    const supply = Number(r.supply);
    const taken = Math.min(Number(r.taken ?? r.sold), supply);
    list.push({
      id,
      name: r.name,
      cover: r.cover,
      category: r.category,
      creatorName: r.creator_name,
      priceFen: Number(r.price_fen),
      saleStartAt: Number(r.sale_start_at),
      saleEndAt: r.sale_end_at === null ? null : Number(r.sale_end_at),
      status: projectStatusOf({ ...r, sold: Number(r.sold) }, now),
      stock: { supply, taken, paid: Number(r.paid ?? r.sold), remaining: Math.max(0, supply - taken) },
      phases: plan.phases.map((p) => p.kind),
      currentPhase: cur?.kind ?? null,
      role,
      createdAt: Number(r.created_at),
    });
  }
  return { list, total, pageNum: f.pageNum, pageSize: f.pageSize };
}

export async function boxView(ctx: AppContext, projectId: number): Promise<AdminBox | null> {
  const b = await loadBoxRelease(ctx.db.kysely, projectId);
  if (!b) return null;
  return {
    itemProjectId: b.item_project_id,
    kinds: b.kindList.map((k) => ({ name: k.name, rarity: k.rarity, count: k.count, image: k.image })),
    commitment: b.commitment,
    algorithm: b.algorithm,
    revealEpoch: b.reveal_epoch,
    status: b.status,
    revealedAt: b.revealed_at === null ? null : Number(b.revealed_at),
    blockHash: b.block_hash,
    proofUrl: `/projects/box/${projectId}`,
  };
}

export async function releaseDetail(ctx: AppContext, projectId: number): Promise<AdminReleaseDetail> {
  const now = ctx.now();
  const st = await releaseState(ctx, ctx.db.kysely, projectId, now);
  const plan = await loadPlan(ctx.db.kysely, projectId);
  const t = timeline(plan);
  const [creator, lottery, wl, box] = await Promise.all([
    ctx.db.kysely.selectFrom('creators').select('name').where('id', '=', st.row.creator_id).executeTakeFirst(),
    lotteryView(ctx, plan, t),
    ctx.db.kysely.selectFrom('drop_whitelist').select((e) => e.fn.countAll<number>().as('n')).where('project_id', '=', projectId).executeTakeFirstOrThrow(),
    boxView(ctx, projectId),
  ]);
  const { row, stock } = st;
  return {
    id: row.id,
    name: row.name,
    creatorId: row.creator_id,
    creatorName: creator?.name ?? '',
    cover: row.cover,
    category: row.category,
    descriptionHtml: row.description_html,
    supply: row.supply,
    priceFen: row.price_fen,
    saleStartAt: row.sale_start_at,
    saleEndAt: row.sale_end_at,
    holdingDays: row.holding_days,
    ...st.settings,
    royaltyPermille: row.royalty_permille,
    royaltyEffectivePermille: royaltyPermilleOf(ctx, row.royalty_permille),
    tokenStart: row.token_start,
    tokenEnd: row.token_end,
    role: st.role,
    status: projectStatusOf({ ...row, sold: stock.taken }, now),
    stock: { supply: stock.supply, taken: stock.taken, paid: stock.paid, remaining: Math.max(0, stock.supply - stock.taken) },
    orders: st.orders,
    locks: st.locks,
    phases: phaseViews(t, now),
    phaseInputs: plan.phases.map((p) => ({ kind: p.kind, startAt: p.startAt, endAt: p.endAt, priceFen: p.priceFen })),
    lottery: lottery ? { ...lottery, proofUrl: `/projects/lottery/${projectId}` } : null,
    whitelist: { entries: Number(wl.n) },
    box,
    serverTime: now,
  };
}

export async function releaseOptions(ctx: AppContext): Promise<ReleaseOptions> {
  const k = ctx.db.kysely;
  const [creators, cats] = await Promise.all([
    // The release form's creator picker: enabled creators only (a disabled one cannot get a release).
    k
      .selectFrom('creators')
      .innerJoin('users', 'users.id', 'creators.user_id')
      .select(['creators.id', 'creators.name', 'users.account_id'])
      .where('creators.disabled_at', 'is', null)
      .orderBy('creators.name')
      .limit(1000)
      .execute(),
    k.selectFrom('projects').select('category').distinct().orderBy('category').limit(200).execute(),
  ]);
  const d = ctx.config.drops;
  return {
    creators: creators.map((c) => ({ id: Number(c.id), name: c.name, accountId: c.account_id })),
    categories: cats.map((c) => c.category),
    defaults: { perIdentityLimit: d.perIdentityLimit, maxPerOrder: Math.min(d.maxPerOrder, d.perIdentityLimit), commissionPermille: d.commissionPermille, royaltyPermille: ctx.config.market.royaltyPermille },
  };
}

export async function epochInfo(ctx: AppContext): Promise<EpochInfo> {
  const t = await epochTiming(ctx, DEFAULT_MS_PER_EPOCH);
  return { ...t, serverTime: ctx.now() };
}

/** The whitelist of a release, by phone number (exact), account id (exact) or nickname (part); phones masked. */
export async function whitelistEntries(ctx: AppContext, projectId: number, f: { q: string; pageNum: number; pageSize: number }): Promise<Page<WhitelistEntry>> {
  let q = ctx.db.kysely.selectFrom('drop_whitelist').innerJoin('users', 'users.id', 'drop_whitelist.user_id').where('drop_whitelist.project_id', '=', projectId);
  const t = f.q.trim();
  if (t) {
    if (/^1\d{10}$/.test(t)) q = q.where('users.mobile', '=', t);
    else if (/^\d{1,20}$/.test(t)) q = q.where('users.account_id', '=', t);
    else q = q.where(sql<boolean>`users.nickname like ${`%${likeEscape(t)}%`} escape '\\'`);
  }
  const total = Number((await q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q
    .leftJoin('realname', 'realname.user_id', 'users.id')
    .select(['users.id', 'users.account_id', 'users.mobile', 'users.nickname', 'drop_whitelist.quota', 'drop_whitelist.updated_at', 'realname.user_id as verified'])
    .orderBy('drop_whitelist.updated_at', 'desc')
    .orderBy('users.id', 'asc')
    .limit(f.pageSize)
    .offset((f.pageNum - 1) * f.pageSize)
    .execute();
  return {
    list: rows.map((r) => ({
      userId: Number(r.id),
      accountId: r.account_id,
      mobileMasked: maskMobile(r.mobile),
      nickname: r.nickname,
      quota: Number(r.quota),
      verified: r.verified !== null,
      updatedAt: Number(r.updated_at),
    })),
    total,
    pageNum: f.pageNum,
    pageSize: f.pageSize,
  };
}
