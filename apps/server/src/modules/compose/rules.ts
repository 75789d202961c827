import { Status } from '@cfx/contract/envelope.ts';
import type { ComposeRule } from '@cfx/contract/goods-flows.ts';
import { sql, type Selectable } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { ComposeRulesTable } from '../../db/schema.ts';
import type { Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { projectInfos } from '../catalog/index.ts';

export interface Ingredient {
  projectId: number;
  count: number;
}

export async function loadRule(q: Q, ruleId: number) {
  const r = await q.selectFrom('compose_rules').selectAll().where('id', '=', ruleId).executeTakeFirst();
  return r ? parseRule(r) : undefined;
}
function parseRule(r: Selectable<ComposeRulesTable>) {
  return {
    id: Number(r.id),
    name: String(r.name),
    description: String(r.description),
    resultProjectId: Number(r.result_project_id),
    resultName: String(r.result_name),
    resultImage: String(r.result_image),
    resultAttributes: JSON.parse(r.result_attributes) as { trait: string; value: string }[],
    ingredients: JSON.parse(r.ingredients) as Ingredient[],
    startAt: Number(r.start_at),
    endAt: r.end_at === null ? null : Number(r.end_at),
    maxTimes: Number(r.max_times),
    usedTimes: Number(r.used_times),
  };
}
export type Rule = ReturnType<typeof parseRule>;

export function ruleStatus(r: Rule, now: number): ComposeRule['status'] {
  if (now < r.startAt) return 'upcoming';
  if (r.endAt !== null && now >= r.endAt) return 'ended';
  if (r.usedTimes >= r.maxTimes) return 'sold_out';
  return 'active';
}

export function requireActive(r: Rule, now: number) {
  const s = ruleStatus(r, now);
  if (s === 'upcoming') throw new ApiError(Status.COMPOSE_STATE, 'composeNotStarted');
  if (s === 'ended') throw new ApiError(Status.COMPOSE_STATE, 'composeEnded');
  if (s === 'sold_out') throw new ApiError(Status.COMPOSE_STATE, 'composeSoldOut');
}

export async function requireRule(q: Q, ruleId: number) {
  const r = await loadRule(q, ruleId);
  if (!r) throw new ApiError(Status.NOT_FOUND_ITEM, 'composeRuleNotFound', {}, 404);
  return r;
}

/** Every release some compose rule takes (fragment releases), with the rules taking it. */
export async function fragmentReleases(ctx: AppContext): Promise<Map<number, number[]>> {
  const rows = await ctx.db.kysely.selectFrom('compose_rules').select(['id', 'ingredients']).execute();
  const out = new Map<number, number[]>();
  for (const r of rows) {
    for (const i of JSON.parse(r.ingredients) as Ingredient[]) {
      const list = out.get(i.projectId) ?? [];
      list.push(Number(r.id));
      out.set(i.projectId, list);
    }
  }
  return out;
}

/** How many usable collectibles (minted, held, at the linked wallet, no hold of another flow) `userId` has of each release. */
export async function usableCounts(ctx: AppContext, userId: number, projectIds: number[], exceptRef?: string): Promise<Map<number, number>> {
  if (!projectIds.length) return new Map();
  const now = ctx.now();
  const rows = await ctx.db.kysely
    .selectFrom('goods')
    .leftJoin('goods_holds', 'goods_holds.goods_id', 'goods.id')
    .select(['goods.project_id', sql<number>`count(*)`.as('n')])
    .where('goods.owner_user_id', '=', userId)
    .where('goods.project_id', 'in', projectIds)
    .where('goods.status', '=', 'held')
    .where('goods.chain_status', '=', 'minted')
    .where('goods.holder_address', 'is', null)
    .where((eb) =>
      eb.or([
        eb('goods_holds.goods_id', 'is', null),
        eb.and([eb('goods_holds.expires_at', 'is not', null), eb('goods_holds.expires_at', '<=', now)]),
        ...(exceptRef ? [eb('goods_holds.ref', '=', exceptRef)] : []),
      ]),
    )
    .groupBy('goods.project_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.project_id), Number(r.n)]));
}

/** A rule as the API shows it, with the caller's progress per ingredient. */
export async function ruleViews(ctx: AppContext, userId: number, rules: Rule[]): Promise<ComposeRule[]> {
  const now = ctx.now();
  const ids = [...new Set(rules.flatMap((r) => [r.resultProjectId, ...r.ingredients.map((i) => i.projectId)]))];
  const infos = await projectInfos(ctx, ids);
  const counts = await usableCounts(ctx, userId, [...new Set(rules.flatMap((r) => r.ingredients.map((i) => i.projectId)))]);
  return rules.map((r) => {
    const ingredients = r.ingredients.map((i) => {
      const held = counts.get(i.projectId) ?? 0;
      const p = infos.get(i.projectId);
      return { projectId: i.projectId, projectName: p?.name ?? '', cover: p?.cover ?? '', count: i.count, held, enough: held >= i.count };
    });
    const status = ruleStatus(r, now);
    return {
      id: r.id,
      name: r.name,
      description: r.description,
      result: { projectId: r.resultProjectId, name: r.resultName, image: r.resultImage, attributes: r.resultAttributes },
      ingredients,
      startAt: r.startAt,
      endAt: r.endAt,
      maxTimes: r.maxTimes,
      usedTimes: r.usedTimes,
      remaining: Math.max(0, r.maxTimes - r.usedTimes),
      status,
      canCompose: status === 'active' && ingredients.every((i) => i.enough),
      serverTime: now,
    };
  });
}

/** composerule {ruleId?, pageNum, pageSize}: rules, active ones first, newest first. */
export async function listRules(ctx: AppContext, userId: number, f: { ruleId?: number; pageNum: number; pageSize: number }) {
  let q = ctx.db.kysely.selectFrom('compose_rules').selectAll();
  let c = ctx.db.kysely.selectFrom('compose_rules').select(sql<number>`count(*)`.as('n'));
  if (f.ruleId !== undefined) {
    q = q.where('id', '=', f.ruleId);
    c = c.where('id', '=', f.ruleId);
  }
  const now = ctx.now();
  const rows = await q
    .orderBy(sql`case when start_at <= ${now} and (end_at is null or end_at > ${now}) and used_times < max_times then 0 else 1 end`)
    .orderBy('id', 'desc')
    .limit(f.pageSize)
    .offset((f.pageNum - 1) * f.pageSize)
    .execute();
  const total = Number((await c.executeTakeFirstOrThrow()).n);
  return { list: await ruleViews(ctx, userId, rows.map(parseRule)), total, pageNum: f.pageNum, pageSize: f.pageSize };
}
