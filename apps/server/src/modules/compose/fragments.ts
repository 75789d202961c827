import type { ChipGroup, FragmentItem } from '@cfx/contract/goods-flows.ts';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { goodsCardQuery, toGoodsCard } from '../catalog/index.ts';
import { projectInfos } from '../catalog/index.ts';
import { activeAt } from './holds.ts';
import { fragmentReleases, requireRule, ruleViews, usableCounts } from './rules.ts';

/**
 * Fragments ("chips"): collectibles of releases that some compose rule takes. The lists show every
 * fragment I hold (not burned) and whether it can go into a compose now: minted, held (not on
 * sale), at my linked wallet and not held by another flow.
 */

function myFragments(ctx: AppContext, userId: number, projectIds: number[]) {
  return goodsCardQuery(ctx)
    .leftJoin('goods_holds', (j) => j.onRef('goods_holds.goods_id', '=', 'goods.id').on(activeAt(ctx.now())))
    .select(['goods.token_id', 'goods.chain_status as chain', 'goods.holder_address', 'goods_holds.kind as hold_kind', 'goods_holds.ref as hold_ref'])
    .where('goods.owner_user_id', '=', userId)
    .where('goods.project_id', 'in', projectIds)
    .where('goods.status', '!=', 'burned');
}
type FragmentRow = Awaited<ReturnType<ReturnType<typeof myFragments>['execute']>>[number];

export function toFragmentItem(r: FragmentRow): FragmentItem {
  const blockedBy: FragmentItem['blockedBy'] =
    r.chain !== 'minted' || r.token_id === null ? 'not_minted' : r.status === 'on_sale' ? 'on_sale' : r.holder_address ? 'elsewhere' : r.hold_kind ? 'locked' : null;
  return {
    ...toGoodsCard(r),
    tokenId: r.token_id === null ? null : String(r.token_id),
    available: blockedBy === null,
    blockedBy,
    lockedBy: r.hold_kind === 'compose' ? r.hold_ref : null,
  };
}

/** chipAll: every fragment release I hold, with counts. */
export async function chipAll(ctx: AppContext, userId: number): Promise<ChipGroup[]> {
  const releases = await fragmentReleases(ctx);
  const ids = [...releases.keys()];
  if (!ids.length) return [];
  const rows = await ctx.db.kysely
    .selectFrom('goods')
    .select(['project_id', sql<number>`count(*)`.as('n')])
    .where('owner_user_id', '=', userId)
    .where('project_id', 'in', ids)
    .where('status', '!=', 'burned')
    .groupBy('project_id')
    .execute();
  const held = rows.map((r) => ({ projectId: Number(r.project_id), count: Number(r.n) })).filter((r) => r.count > 0);
  const usable = await usableCounts(ctx, userId, held.map((h) => h.projectId));
  const infos = await projectInfos(ctx, held.map((h) => h.projectId));
  return held
    .map((h) => ({
      projectId: h.projectId,
      projectName: infos.get(h.projectId)?.name ?? '',
      cover: infos.get(h.projectId)?.cover ?? '',
      count: h.count,
      available: usable.get(h.projectId) ?? 0,
      ruleIds: releases.get(h.projectId) ?? [],
    }))
    .sort((a, b) => b.count - a.count || a.projectId - b.projectId);
}

/** chip {projectId, pageNum, pageSize}: my fragments of one release (usable first, then by serial). */
export async function chip(ctx: AppContext, userId: number, f: { projectId: number; pageNum: number; pageSize: number }) {
  const releases = await fragmentReleases(ctx);
  const info = (await projectInfos(ctx, [f.projectId])).get(f.projectId);
  const rows = await myFragments(ctx, userId, [f.projectId])
    .orderBy('goods.serial')
    .limit(f.pageSize)
    .offset((f.pageNum - 1) * f.pageSize)
    .execute();
  const total = Number(
    (await ctx.db.kysely.selectFrom('goods').select(sql<number>`count(*)`.as('n')).where('owner_user_id', '=', userId).where('project_id', '=', f.projectId).where('status', '!=', 'burned').executeTakeFirstOrThrow()).n,
  );
  const usable = await usableCounts(ctx, userId, [f.projectId]);
  return {
    projectId: f.projectId,
    projectName: info?.name ?? '',
    cover: info?.cover ?? '',
    count: total,
    available: usable.get(f.projectId) ?? 0,
    ruleIds: releases.get(f.projectId) ?? [],
    page: { list: rows.map(toFragmentItem), total, pageNum: f.pageNum, pageSize: f.pageSize },
  };
}

/** getfragmentlist {ruleId}: the rule with my progress, and my fragments of each ingredient (usable first). */
export async function fragmentList(ctx: AppContext, userId: number, ruleId: number) {
  const rule = await requireRule(ctx.db.kysely, ruleId);
  const [view] = await ruleViews(ctx, userId, [rule]);
  const rows = await myFragments(ctx, userId, rule.ingredients.map((i) => i.projectId)).orderBy('goods.serial').limit(1000).execute();
  // Held by my own unsigned compose of this rule: selectable again (a new selection replaces it).
  const mine = new Set(
    (await ctx.db.kysely.selectFrom('compose_records').select('compose_no').where('user_id', '=', userId).where('rule_id', '=', ruleId).where('status', 'in', ['selected', 'confirmed']).execute()).map((r) => r.compose_no),
  );
  const items = rows.map((r) => {
    const item = toFragmentItem(r);
    if (item.blockedBy === 'locked' && item.lockedBy && mine.has(item.lockedBy)) Object.assign(item, { available: true, blockedBy: null });
    return { projectId: Number(r.project_id), item };
  });
  return {
    rule: view!,
    ingredients: rule.ingredients.map((i) => ({
      projectId: i.projectId,
      projectName: view!.ingredients.find((x) => x.projectId === i.projectId)?.projectName ?? '',
      count: i.count,
      items: items
        .filter((x) => x.projectId === i.projectId)
        .map((x) => x.item)
        .sort((a, b) => Number(b.available) - Number(a.available) || a.serial - b.serial)
        .slice(0, 200),
    })),
  };
}
