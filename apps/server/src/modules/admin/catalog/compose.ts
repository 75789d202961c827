import type { AdminComposeRule } from '@cfx/contract/admin-catalog.ts';
import type { Page } from '@cfx/contract/admin.ts';
import type { AppContext } from '../../../context.ts';
import { loadRule, ruleStatus } from '../../compose/index.ts';

/** Compose recipes for the console: every rule with its ingredients' names, the result's supply and how often it was used. */
export async function composeRulesForStaff(ctx: AppContext, f: { pageNum: number; pageSize: number; id?: number }): Promise<Page<AdminComposeRule>> {
  const k = ctx.db.kysely;
  let q = k.selectFrom('compose_rules');
  if (f.id !== undefined) q = q.where('id', '=', f.id);
  const total = Number((await q.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const ids = await q.select('id').orderBy('id', 'desc').limit(f.pageSize).offset((f.pageNum - 1) * f.pageSize).execute();
  const now = ctx.now();
  const list: AdminComposeRule[] = [];
  for (const { id } of ids) {
    const r = (await loadRule(k, Number(id)))!;
    const projectIds = [...r.ingredients.map((i) => i.projectId), r.resultProjectId];
    const [projects, records] = await Promise.all([
      k.selectFrom('projects').select(['id', 'name', 'supply']).where('id', 'in', projectIds).execute(),
      k.selectFrom('compose_records').select((e) => e.fn.countAll<number>().as('n')).where('rule_id', '=', r.id).executeTakeFirstOrThrow(),
    ]);
    const byId = new Map(projects.map((p) => [Number(p.id), p]));
    list.push({
      id: r.id,
      name: r.name,
      description: r.description,
      ingredients: r.ingredients.map((i) => ({ projectId: i.projectId, projectName: byId.get(i.projectId)?.name ?? '', count: i.count })),
      resultProjectId: r.resultProjectId,
      resultName: r.resultName,
      resultImage: r.resultImage,
      resultSupply: Number(byId.get(r.resultProjectId)?.supply ?? 0),
      startAt: r.startAt,
      endAt: r.endAt,
      maxTimes: r.maxTimes,
      usedTimes: r.usedTimes,
      records: Number(records.n),
      status: ruleStatus(r, now),
    });
  }
  return { list, total, pageNum: f.pageNum, pageSize: f.pageSize };
}
